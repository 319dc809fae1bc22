package oracle

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// BenchmarkFormatOps measures Add, Mul and Sqrt over the legacy vprec:53,
// the oracle at 256 bits and the vprec:53:e11 formats, to show what the
// exponent range and each rounding cost per operation.
func BenchmarkFormatOps(b *testing.B) {
	for _, name := range []string{"oracle", "vprec:53", "vprec:53:e11", "vprec:53:e11:rz", "vprec:53:e11:sr=1"} {
		v := mustFormat(b, name)
		rng := rand.New(rand.NewPCG(1, 2))
		xs := make([]*big.Float, 256)
		for i := range xs {
			xs[i] = v.FromFloat64(randNormal(rng, -20, 20))
		}
		for _, op := range []struct {
			name string
			f    func(x, y *big.Float) *big.Float
		}{{"add", v.Add}, {"mul", v.Mul}, {"sqrt", func(x, _ *big.Float) *big.Float { return v.Sqrt(new(big.Float).Abs(x)) }}} {
			b.Run(name+"/"+op.name, func(b *testing.B) {
				for i := 0; b.Loop(); i++ {
					op.f(xs[i&255], xs[(i+1)&255])
				}
			})
		}
	}
}
