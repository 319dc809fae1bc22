package falcon

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestTriwordSignVerify signs Falcon-512 and Falcon-1024 messages with the
// triple-word backends (fast and accurate product, 72-bit or imported
// binary64 constants) on both signing paths and in every format, with the
// first key of each degree from the signing vectors, and verifies every
// signature (and that it does not verify for another message).
//
// Each signature is also compared with the one the native binary64
// backend makes from the same random bytes. The random streams are fixed,
// so the comparison is deterministic: the backends differ only in
// rounding far below what the sampler's decisions resolve (a divergence
// has probability around 2^-40 per signature for correct arithmetic), so
// identical signatures show that the triple-word backend computes the
// same lattice values, not merely some valid signature.
func TestTriwordSignVerify(t *testing.T) {
	keys := katKeys(t)
	native, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	perDegree := 6
	if testing.Short() {
		perDegree = 2
	}
	formats := []SigFormat{Compressed, Padded, CT}
	for _, name := range []string{"triword", "triword-acc", "triword-b64const", "triword-acc-b64const"} {
		b, err := arith.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, logn := range []uint{9, 10} {
			t.Run(fmt.Sprintf("%s/%d", name, 1<<logn), func(t *testing.T) {
				sk := keys[logn]
				if sk == nil {
					t.Fatalf("no key for logn %d in the signing vectors", logn)
				}
				pk, err := sk.Public()
				if err != nil {
					t.Fatal(err)
				}
				ek, err := ExpandPrivateKey(b, sk)
				if err != nil {
					t.Fatal(err)
				}
				same := 0
				for i := range perDegree {
					format := formats[i%len(formats)]
					msg := []byte(fmt.Sprintf("%s message %d", name, i))
					seed := uint64(1000*logn) + uint64(i)
					var sig []byte
					if i%2 == 0 {
						sig, err = Sign(b, sk, msg, format, seededRand(seed))
					} else {
						sig, err = ek.Sign(msg, format, seededRand(seed))
					}
					if err != nil {
						t.Fatalf("signature %d (%v): %v", i, format, err)
					}
					if err := Verify(pk, msg, sig); err != nil {
						t.Fatalf("signature %d (%v): Verify: %v", i, format, err)
					}
					if Verify(pk, append(msg, '!'), sig) == nil {
						t.Fatalf("signature %d (%v) verifies for another message", i, format)
					}
					ref, err := Sign(native, sk, msg, format, seededRand(seed))
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(sig, ref) {
						t.Errorf("signature %d (%v) differs from native's on the same random bytes", i, format)
						continue
					}
					same++
				}
				t.Logf("%d signatures verified, %d identical to native's", perDegree, same)
			})
		}
	}
}
