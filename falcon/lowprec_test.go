package falcon_test

import (
	"crypto/sha3"
	"errors"
	"fmt"
	"testing"

	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/arith/backends"
	"github.com/fprlab/fprlab/falcon"
)

// TestLowPrecisionSignaturesVerify signs over backends with far too little
// precision for Falcon. Before s1 was recomputed exactly, vprec:16 and
// vprec:18 returned "signatures" that Verify rejects (the norm check used
// the floating-point s1). Each attempt is checked: an attempt accepted as
// short must verify. The test requires that the floating-point s1 was
// wrong in some attempts at the lowest precisions (so the exact
// recomputation is exercised) and that some attempts succeed at each
// precision (so it does not pass by failing).
func TestLowPrecisionSignaturesVerify(t *testing.T) {
	const logn = 6 // n = 64: small enough for a big-float backend in a test
	kg := sha3.NewSHAKE256()
	kg.Write([]byte("low precision keys"))
	em, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	sk, pk, err := falcon.Keygen(em, logn, kg)
	if err != nil {
		t.Fatal(err)
	}
	nonce := make([]byte, falcon.NonceSize)
	for _, tc := range []struct {
		name         string
		wantMismatch bool
	}{{"vprec:16", true}, {"vprec:18", true}, {"vprec:20", false}, {"vprec:24", false}} {
		b, err := arith.Lookup(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		short, wrongS1 := 0, 0
		const attempts = 30
		for i := range attempts {
			msg := []byte(fmt.Sprintf("message %d", i))
			hm := falcon.HashToPoint(nonce, msg, logn)
			seed := make([]byte, falcon.SeedSize)
			rng := sha3.NewSHAKE256()
			fmt.Fprintf(rng, "%s %d", tc.name, i)
			rng.Read(seed)
			at, err := falcon.SignAttemptDyn(b, sk, hm, seed)
			if err != nil {
				t.Fatalf("%s: attempt %d: %v", tc.name, i, err)
			}
			if at.FloatS1Mismatches > 0 {
				wrongS1++
			}
			if !at.Short {
				if at.Failure() == "" {
					t.Errorf("%s: attempt %d is not short but gives no reason", tc.name, i)
				}
				continue
			}
			short++
			if !falcon.VerifyHashed(pk, hm, at.S2) {
				t.Errorf("%s: attempt %d accepted as short does not verify", tc.name, i)
			}
			sig, err := falcon.EncodeSignature(falcon.Padded, logn, nonce, at.S2)
			if err == nil {
				if err := falcon.Verify(pk, msg, sig); err != nil && !errors.Is(err, falcon.ErrInvalidSignature) {
					t.Errorf("%s: attempt %d: %v", tc.name, i, err)
				}
			}
		}
		t.Logf("%s: %d/%d attempts short, %d with a wrong floating-point s1", tc.name, short, attempts, wrongS1)
		if tc.wantMismatch && wrongS1 == 0 {
			t.Errorf("%s: the floating-point s1 was never wrong: the test no longer exercises the exact s1", tc.name)
		}
		if short == 0 && tc.name != "vprec:16" {
			t.Errorf("%s: no attempt was short", tc.name)
		}
	}
}
