package fndsa2026_test

import (
	"testing"

	"github.com/fprlab/fprlab/fndsa2026"
)

// TestRustKAT replays rust-fn-dsa 0.4.0's own known-answer test
// (fn-dsa/src/lib.rs, test_kat; test_kat.txt holds its expected digests,
// KAT and RunKAT say how each record is made): key generation, encodings,
// mu, hash-to-point and signing (over native and emu64) must all be
// theirs, and each signature verifies. Under -short, emu64 replays the
// degrees up to 512 only.
func TestRustKAT(t *testing.T) {
	recs, err := fndsa2026.KAT()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 90 {
		t.Fatalf("%d KAT vectors, want 90", len(recs))
	}
	for _, r := range recs {
		for _, name := range []string{"native", "emu64"} {
			if name == "emu64" && testing.Short() && r.LogN == fndsa2026.MaxLogN {
				continue
			}
			got, err := fndsa2026.RunKAT(backend(t, name), r)
			if err != nil {
				t.Fatal(err)
			}
			if !got.PinMatch || !got.Verified {
				t.Fatalf("%s: logn %d j %d: pin match %v, verified %v", name, r.LogN, r.J, got.PinMatch, got.Verified)
			}
		}
	}
}
