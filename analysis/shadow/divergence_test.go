package shadow

import (
	"strings"
	"testing"

	"github.com/fprlab/fprlab/falcon"
)

// TestFirstDivergence finds why the 256-bit oracle's KAT record 50 of
// Falcon-512 differs from the published one (the oracle generates another
// key): a decision of key generation. A record the oracle reproduces has no
// divergence, and neither has emu64's own run.
func TestFirstDivergence(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle key generation takes seconds")
	}
	or := lookup(t, "oracle")
	reqs := falcon.KATRequests(51)
	d, err := FirstDivergence(or, or, 9, reqs[50])
	if err != nil {
		t.Fatal(err)
	}
	if d == nil || d.Phase != "keygen" || !strings.Contains(d.Where, "keygen candidate") {
		t.Fatalf("record 50 over the oracle: divergence %v, want one in key generation", d)
	}
	t.Logf("oracle, record 50: %s", d)
	if d, err := FirstDivergence(or, or, 9, reqs[0]); err != nil || d != nil {
		t.Errorf("record 0 over the oracle: %v, %v; want no divergence", d, err)
	}
}

func TestNoDivergenceOnEmu64(t *testing.T) {
	em := lookup(t, "emu64")
	d, err := FirstDivergence(em, em, 9, falcon.KATRequests(1)[0])
	if err != nil || d != nil {
		t.Errorf("emu64 against itself: %v, %v", d, err)
	}
}
