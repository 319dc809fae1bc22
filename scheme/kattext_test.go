package scheme

import (
	"strings"
	"testing"
)

// TestWriteKATText: one row per backend under the title, its degrees (a
// range when they double from one to the next, a list otherwise, "-" for
// none), "-" where every record matched, the first mismatch located by record, degree and j, and
// an error in place of the mismatch when the backend stopped.
func TestWriteKATText(t *testing.T) {
	var b strings.Builder
	err := WriteKATText(&b, "the test\n", []KATResult{
		{Backend: "native", Records: 90, Degrees: []int{4, 8, 16, 32, 64, 128, 256, 512, 1024}, MatchKeys: 90, MatchPins: 90, Verified: 90},
		{Backend: "vprec:24", Records: 20, Degrees: []int{512, 16}, MatchKeys: 20, MatchPins: 0, Verified: 20, FirstMismatch: &KATMismatch{Record: 3, LogN: 9, J: 3, Field: "signature"}},
		{Backend: "triword", Records: 1, Degrees: []int{1024}, Error: "no key"},
		{Backend: "none", Records: 0, Error: "no record"},
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"the test",
		"BACKEND   DEGREES  RECORDS  KEYS  PINS  VERIFIED  FIRST MISMATCH",
		"native    4..1024  90       90    90    90        -",
		"vprec:24  512,16   20       20    0     20        record 3 (degree 512, j 3), signature",
		"triword   1024     1        0     0     0         error: no key",
		"none      -        0        0     0     0         error: no record",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}

// TestKATVerdict: a backend that stopped is named, a mismatch elsewhere is
// a difference, and all-matching results are neither.
func TestKATVerdict(t *testing.T) {
	ok := KATResult{Backend: "native"}
	differs := KATResult{Backend: "vprec:24", FirstMismatch: &KATMismatch{Record: 3}}
	stops := KATResult{Backend: "triword", Error: "no key", FirstMismatch: &KATMismatch{}}
	if st, d := KATVerdict([]KATResult{ok}); st != nil || d {
		t.Errorf("all match: %v, %v", st, d)
	}
	if st, d := KATVerdict([]KATResult{ok, differs}); st != nil || !d {
		t.Errorf("one differs: %v, %v", st, d)
	}
	if st, d := KATVerdict([]KATResult{stops, ok}); len(st) != 1 || st[0] != "triword" || d {
		t.Errorf("one stopped: %v, %v", st, d)
	}
}
