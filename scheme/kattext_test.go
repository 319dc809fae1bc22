package scheme

import (
	"strings"
	"testing"
)

// TestWriteKATText: one row per backend under the title, "-" where every
// record matched, the first mismatch located by record, degree and j, and
// an error in place of the mismatch when the backend stopped.
func TestWriteKATText(t *testing.T) {
	var b strings.Builder
	err := WriteKATText(&b, "the test\n", []KATResult{
		{Backend: "native", Records: 90, MatchKeys: 90, MatchPins: 90, Verified: 90},
		{Backend: "vprec:24", Records: 90, MatchKeys: 90, MatchPins: 0, Verified: 90, FirstMismatch: &KATMismatch{Record: 3, LogN: 2, J: 3, Field: "signature"}},
		{Backend: "triword", Records: 1, Error: "no key"},
	})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"the test",
		"BACKEND   RECORDS  KEYS  PINS  VERIFIED  FIRST MISMATCH",
		"native    90       90    90    90        -",
		"vprec:24  90       90    0     90        record 3 (degree 4, j 3), signature",
		"triword   1        0     0     0         error: no key",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
}
