package falcon

import (
	"testing"

	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// BenchmarkSamplerZ measures one SamplerZ call of the generated native and
// emu64 copies, the ones signing runs (the reference's BerExp
// acceptance, no observer) on native and emu64, over centres spread in
// [0, 1) and the leaves' typical 1/sigma: the sampler's hot loop, where a
// hook that is off must cost nothing.
func BenchmarkSamplerZ(b *testing.B) {
	var seed [SeedSize]byte
	copy(seed[:], "samplerz benchmark")
	b.Run("native", func(b *testing.B) {
		var p samplerprng.PRNG
		p.Init(&seed)
		s := newSamplerNative(native.Arith{}, &p, 9, nil)
		i := 0
		for b.Loop() {
			s.sample(float64(i%1024)/1024, 1/1.55)
			i++
		}
	})
	b.Run("emu64", func(b *testing.B) {
		var p samplerprng.PRNG
		p.Init(&seed)
		var a emu64.Arith
		s := newSamplerEmu64(a, &p, 9, nil)
		isigma := a.FromFloat64(1 / 1.55)
		i := 0
		for b.Loop() {
			s.sample(a.FromFloat64(float64(i%1024)/1024), isigma)
			i++
		}
	})
}
