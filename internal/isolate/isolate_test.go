//go:build unix

package isolate

import (
	"io"
	"strings"
	"testing"
)

// TestNeeded: the command lines that name a plugin backend, in any of the
// forms a backend is written, run in a worker; others do not.
func TestNeeded(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"compare", "--backend", "native"}, false},
		{[]string{"compare", "--backend", "native,so:./lib.so"}, true},
		{[]string{"kat", "--backend=so:./lib.so@cfg"}, true},
		{[]string{"sweep", "--backend", "plan:ldl=so:./t.so@40+all=vprec:53"}, true},
		{[]string{"version"}, false},
	} {
		if got := Needed(c.args); got != c.want {
			t.Errorf("Needed(%q) = %v", c.args, got)
		}
	}
	if got := PluginNames([]string{"--backend", "native,so:./a.so", "plan:ldl=so:./b.so@4+all=binary64"}); strings.Join(got, " ") != "so:./a.so so:./b.so@4" {
		t.Errorf("PluginNames: %q", got)
	}
}

// TestRelay: the plugin's lines reach stderr prefixed, a line longer than
// the buffer in pieces; the runtime's crash report is kept back from the
// first line on and its first line returned.
func TestRelay(t *testing.T) {
	long := strings.Repeat("x", 70<<10)
	in := "hello\n" + long + "\nSIGSEGV: segmentation violation\nPC=0x0\n"
	var out strings.Builder
	got := relay(io.NopCloser(strings.NewReader(in)), &out, "p: ")
	if got != "SIGSEGV: segmentation violation" {
		t.Errorf("report %q", got)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 3 || lines[0] != "p: hello" || !strings.HasPrefix(lines[1], "p: xxx") || !strings.HasPrefix(lines[2], "p: xxx") ||
		len(lines[1])+len(lines[2]) != len(long)+6 || strings.Contains(out.String(), "PC=") {
		t.Errorf("relayed %d lines: %.80q", len(lines), out.String())
	}
}
