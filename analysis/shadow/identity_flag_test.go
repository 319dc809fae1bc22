package shadow

import (
	"strings"
	"testing"
)

// TestIdentityDiffTriwordNames: a difference of the triword names revision
// names no flag, since there is none (it said --triword-names 2), but says
// what the names meant.
func TestIdentityDiffTriwordNames(t *testing.T) {
	d, err := IdentityDiff([]byte(`{"command":"compare","backends":["triword"]}`), []byte(`{"command":"compare","backends":["triword"],"triword_names":2}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "its triword backend names mean the arithmetics of before the names' revision (triword then imported the reference's binary64 constants), this fprlab's the arithmetics of names revision 2"
	if strings.Contains(d, "--triword") || !strings.Contains(d, want) {
		t.Errorf("got %q", d)
	}
	// A directory without triword, resumed with it: the backends differ,
	// and that is all there is to say.
	d, err = IdentityDiff([]byte(`{"command":"compare","backends":["native"]}`), []byte(`{"command":"compare","backends":["native","triword"],"triword_names":2}`))
	if err != nil || strings.Contains(d, "triword backend names") || !strings.Contains(d, "--backend") {
		t.Errorf("backends differ: got %q, %v", d, err)
	}
}
