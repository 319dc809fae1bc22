package results

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadDiverge reads a measured diverge document and refuses copies
// whose counts contradict each other or the pairs.
func TestReadDiverge(t *testing.T) {
	good, err := os.ReadFile("../plot/testdata/diverge/native-vprec24.json")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, err := Read(write("good.json", string(good)))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diverges) != 1 {
		t.Fatalf("%d diverge documents", len(c.Diverges))
	}
	d := c.Diverges[0]
	if d.Backend != "native" || d.Against != "vprec:24" || d.Compared != 40 || d.Differing != 9 || len(d.Pairs) != 9 || d.Right["A"] != 9 {
		t.Errorf("read %s: %d of %d, right %v", d.Name(), d.Differing, d.Compared, d.Right)
	}
	for _, bad := range []struct{ from, to, want string }{
		{`"differing": 9`, `"differing": 8`, "differing 8 but 9 pairs"},
		{`"rate": 0.225`, `"rate": 0.2`, "rate 0.2 is not"},
		{`"compared": 40`, `"compared": 0`, "compared 0"},
		{`"key_revealing": 0`, `"key_revealing": 1`, "key_revealing 1 but 0 pairs"},
		{`"A": 9`, `"A": 8`, "right counts 8 pairs but 9"},
		{`"n": 512`, `"n": 500`, "degree n = 500"},
	} {
		s := string(good)
		if !strings.Contains(s, bad.from) {
			t.Fatalf("test document lacks %q", bad.from)
		}
		_, err := Read(write("bad.json", strings.Replace(s, bad.from, bad.to, 1)))
		if err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s -> %s: error %v, want %q", bad.from, bad.to, err, bad.want)
		}
	}
}
