package falcon

import (
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// benchSign measures one complete signature (nonce, hash, attempts,
// encoding) per iteration on the dynamic path and with an expanded key,
// for the binary64 backends and triword.
func benchSign(b *testing.B, logn uint) {
	sk := katKeys(b)[logn]
	msg := []byte("benchmark message")
	for _, name := range append(fpBackends[:len(fpBackends):len(fpBackends)], "triword") {
		be, err := arith.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name+"/dyn", func(b *testing.B) {
			rng := seededRand(9)
			for b.Loop() {
				if _, err := Sign(be, sk, msg, Compressed, rng); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/tree", func(b *testing.B) {
			ek, err := ExpandPrivateKey(be, sk)
			if err != nil {
				b.Fatal(err)
			}
			rng := seededRand(9)
			for b.Loop() {
				if _, err := ek.Sign(msg, Compressed, rng); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/expand", func(b *testing.B) {
			for b.Loop() {
				if _, err := ExpandPrivateKey(be, sk); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkSign512(b *testing.B)  { benchSign(b, 9) }
func BenchmarkSign1024(b *testing.B) { benchSign(b, 10) }

// TestSignAllocs checks the allocation budget of signing with an expanded
// key: a constant number of allocations per signature (nonce, hashed
// point, per attempt the sampler state, the FFT buffers and the attempt's
// vectors, the encoding), whatever the degree. A regression that
// allocates per coefficient or per sampler call fails here.
// signAllocBudget is the allocation budget of one expanded-key signature
// (12 measured: nonce, hashed point, seed, sampler generator, FFT buffer,
// attempt and its vectors, encoding buffers, closures), with room for the
// occasional second attempt.
const signAllocBudget = 14

func TestSignAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("allocation counts differ under coverage")
	}
	msg := []byte("allocation budget")
	for _, logn := range []uint{9, 10} {
		ek, err := ExpandPrivateKey(mustBackend(t, "native"), katKeys(t)[logn])
		if err != nil {
			t.Fatal(err)
		}
		// One attempt per signature: the budget is per attempt, and
		// rejected attempts (about one in 20 at these degrees) would add
		// to the average.
		rng := seededRand(9)
		got := testing.AllocsPerRun(100, func() {
			if _, err := ek.Sign(msg, Compressed, rng); err != nil {
				t.Fatal(err)
			}
		})
		t.Logf("logn %d: %.2f allocations per signature", logn, got)
		if got > signAllocBudget {
			t.Errorf("logn %d: %.2f allocations per signature, budget %d", logn, got, signAllocBudget)
		}
	}
}
