package shellword

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestJoinRoundTrip has bash split Join's line back into words (printing
// each NUL-terminated) for hostile words: each must come back as given,
// and nothing in them may run.
func TestJoinRoundTrip(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	dir := t.TempDir()
	argv := []string{"fprlab", "compare", "--seed", "$(touch PWNED)", "`touch PWNED`", "a'b", `"q"`, "x;touch PWNED", "*", "~", "", " ", "tab\there", "nl\nx", "!x", "$HOME", `back\slash`, "--backend", "native,vprec:40:e11"}
	line := Join(argv)
	out, err := exec.Command(bash, "-c", "cd "+Quote(dir)+" && printf '%s\\0' "+line).Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	got := strings.Split(string(out), "\x00")
	got = got[:len(got)-1]
	if !slices.Equal(got, argv) {
		t.Errorf("bash split %q into\n%q\nwant\n%q", line, got, argv)
	}
	if m, _ := exec.Command(bash, "-c", "ls "+Quote(dir)).Output(); len(m) != 0 {
		t.Errorf("the line ran something: %s", m)
	}
	if Quote("native,vprec:40") != "native,vprec:40" || Quote("") != "''" || Quote("a b") != "'a b'" {
		t.Errorf("Quote: %q %q %q", Quote("native,vprec:40"), Quote(""), Quote("a b"))
	}
}
