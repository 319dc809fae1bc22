package cpuinfo

import (
	"os"
	"strings"
	"testing"
)

func parseFile(t *testing.T, name string) Desc {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestParse reads two captured /proc/cpuinfo files: a 2-vCPU Intel Xeon
// virtual machine and a 2-CPU arm64 (Neoverse N1 part number) one.
func TestParse(t *testing.T) {
	x := parseFile(t, "testdata/xeon.txt")
	if want := "Intel(R) Xeon(R) Processor (GenuineIntel, family 6, model 167), 2 logical CPUs, AVX2, AVX-512F"; x.String() != want {
		t.Errorf("xeon: %q, want %q", x.String(), want)
	}
	a := parseFile(t, "testdata/arm64.txt")
	if want := "CPU implementer 0x41, part 0xd0c, 2 logical CPUs"; a.String() != want {
		t.Errorf("arm64: %q, want %q", a.String(), want)
	}
}

func TestParseErrors(t *testing.T) {
	if _, err := Parse(strings.NewReader("")); err == nil {
		t.Error("empty input: no error")
	}
	if _, err := Parse(strings.NewReader("garbage without colons\n")); err == nil {
		t.Error("no processor entries: no error")
	}
}

// TestModel runs the reader on this machine: whatever the system, a
// non-empty line that counts at least one CPU.
func TestModel(t *testing.T) {
	m := Model()
	if !strings.Contains(m, "logical CPU") {
		t.Errorf("Model() = %q", m)
	}
	t.Log(m)
}
