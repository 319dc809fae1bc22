package results

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// editedCompare writes the example campaign's compare document into a new
// directory with edit applied to its first backend object.
func editedCompare(t *testing.T, edit func(o map[string]any)) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "campaign", "compare-512.json"))
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(data, &objs); err != nil {
		t.Fatal(err)
	}
	edit(objs[0])
	out, _ := json.Marshal(objs)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compare-512.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestReadRefusesImpossibleNumbers: negative counts, a verdict that
// contradicts the worst it is beside, and a degree that is not a power of
// two are refused when the document is read, naming the field.
func TestReadRefusesImpossibleNumbers(t *testing.T) {
	for i, c := range []struct {
		edit func(o map[string]any)
		want string
	}{
		{func(o map[string]any) { o["per_signature"].(map[string]any)["sum"].(map[string]any)["count"] = -5 }, "per_signature.sum.count -5: negative"},
		{func(o map[string]any) { o["per_leaf"].(map[string]any)["delta_c"].(map[string]any)["zeros"] = -1 }, "per_leaf.delta_c.zeros -1: negative"},
		{func(o map[string]any) { o["flips"] = map[string]any{"total": -3} }, "flips.total -3: negative"},
		{func(o map[string]any) { o["flips"] = map[string]any{"total": 0, "by_kind": map[string]any{"rint": -2}} }, "flips.by_kind.rint -2: negative"},
		{func(o map[string]any) {
			o["per_signature"].(map[string]any)["sum"].(map[string]any)["max_log2"] = -40.33
			o["meets_2^-46"] = true
		}, "meets_2^-46 true beside a per-signature worst of 2^-40.33"},
		{func(o map[string]any) {
			o["per_signature"].(map[string]any)["sum"].(map[string]any)["max_log2"] = -50
			o["meets_2^-46"] = false
		}, "meets_2^-46 false beside a per-signature worst of 2^-50.00"},
		{func(o map[string]any) { o["params"] = 513 }, "params 513: want a Falcon degree"},
	} {
		_, err := Read(editedCompare(t, c.edit))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: got %v, want an error with %q", i, err, c.want)
		}
	}
	if _, err := Read(editedCompare(t, func(map[string]any) {})); err != nil {
		t.Errorf("unedited: %v", err)
	}
}

// TestDamagedDocumentNamed: a summary.json cut short, holding NaN, a
// symlink loop, /dev/zero or a FIFO is skipped, and the error of a campaign
// left without documents names the file and why.
func TestDamagedDocumentNamed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "campaign", "compare-512.json"))
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range []struct {
		make func(p string) error
		want string
	}{
		{func(p string) error { return os.WriteFile(p, data[:len(data)/2], 0o644) }, "not JSON (unexpected end of JSON input)"},
		{func(p string) error { return os.WriteFile(p, []byte(`[{"backend": "x", "per_leaf": NaN}]`), 0o644) }, "not JSON (invalid character 'N'"},
		{func(p string) error { return os.Symlink(p, p) }, "too many levels of symbolic links"},
		{func(p string) error { return os.Symlink("/dev/zero", p) }, "not a regular file (D"},
		{func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file (p"},
	} {
		dir := t.TempDir()
		if err := c.make(filepath.Join(dir, "summary.json")); err != nil {
			t.Skipf("case %d: %v", i, err)
		}
		camp, err := Read(dir)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		good, err := Read(filepath.Join("testdata", "campaign"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = CompareCampaigns(good, camp)
		if !errors.Is(err, ErrNotComparable) || !strings.Contains(err.Error(), "summary.json: "+c.want) {
			t.Errorf("case %d: got %v, want the file named with %q", i, err, c.want)
		}
	}
}
