package shadow

import (
	"strings"
	"testing"
)

// TestIdentityDiffTriwordNames: a difference of the triword names revision
// names no flag, since there is none (it said --triword-names 2).
func TestIdentityDiffTriwordNames(t *testing.T) {
	d, err := IdentityDiff([]byte(`{"command":"compare","backends":["triword"]}`), []byte(`{"command":"compare","backends":["triword"],"triword_names":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(d, "--triword-names") || !strings.Contains(d, "triword names revision") {
		t.Errorf("got %q", d)
	}
}
