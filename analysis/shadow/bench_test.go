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
