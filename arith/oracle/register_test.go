package oracle

import (
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestCanonicalNames checks that a family backend is named by its
// precision in canonical form, whatever spelling chose it, so reports
// never show two names for one arithmetic.
func TestCanonicalNames(t *testing.T) {
	for in, want := range map[string]string{"vprec:053": "vprec:53", "vprec:+24": "vprec:24", "oracle:0512": "oracle:512", "oracle:300": "oracle:300"} {
		b, err := arith.Lookup(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if b.Name != want {
			t.Errorf("%s: named %q, want %q", in, b.Name, want)
		}
	}
}
