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
