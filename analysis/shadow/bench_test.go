package shadow

import (
	"sync/atomic"
	"testing"

	"github.com/fprlab/fprlab/falcon"
)

// BenchmarkShadowedSign measures shadowed Falcon-512 signing of native
// against each exact side, per signature, with as many signatures in
// parallel as there are CPUs (the throughput compare gets with its default
// --workers): 1,000 signatures take 1000 * ns/op.
//
//	go test -run='^$' -bench=ShadowedSign -benchtime=200x ./analysis/shadow
func BenchmarkShadowedSign(b *testing.B) {
	nb := lookup(b, "native")
	for _, sh := range []ShadowKind{ShadowDD, ShadowOracle} {
		b.Run(string(sh), func(b *testing.B) {
			cfg := Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "bench", OracleBits: 256, Sigma: SigmaFormula, Shadow: sh}
			r, err := newRunner(nb, &cfg)
			if err != nil {
				b.Fatal(err)
			}
			sk, _, err := falcon.Keygen(nb, 9, derive("key", cfg.Seed, 0))
			if err != nil {
				b.Fatal(err)
			}
			var next atomic.Int64
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					j := int(next.Add(1))
					if _, err := r.sign(sk, Message(cfg.Seed, j), derive("signature", cfg.Seed, j), j, 0); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// BenchmarkShadowedSignVPrec measures one shadowed Falcon-512 signature
// (dd shadow, one goroutine) over vprec formats: the fast implementation
// (vprec, package arith/vfloat) and the big.Float reference (vprecbig).
//
//	go test -run='^$' -bench=ShadowedSignVPrec -benchtime=20x ./analysis/shadow
func BenchmarkShadowedSignVPrec(b *testing.B) {
	for _, p := range []string{"24", "53", "64", "80"} {
		for _, fam := range []string{"vprec", "vprecbig"} {
			b.Run(fam+":"+p, func(b *testing.B) {
				bk := lookup(b, fam+":"+p)
				cfg := Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "bench", OracleBits: 256, Sigma: SigmaFormula, Shadow: ShadowDD}
				r, err := newRunner(bk, &cfg)
				if err != nil {
					b.Fatal(err)
				}
				sk, _, err := falcon.Keygen(lookup(b, "emu64"), 9, derive("key", cfg.Seed, 0))
				if err != nil {
					b.Fatal(err)
				}
				// One signature first: the format's tables are computed once.
				if _, err := r.sign(sk, Message(cfg.Seed, -1), derive("signature", cfg.Seed, -1), -1, 0); err != nil {
					b.Fatal(err)
				}
				b.ResetTimer()
				for j := range b.N {
					if _, err := r.sign(sk, Message(cfg.Seed, j), derive("signature", cfg.Seed, j), j, 0); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
