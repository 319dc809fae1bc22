//go:build goexperiment.simd && amd64

package falcon

import (
	"fmt"
	"math"
	mrand "math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/native"
)

// BenchmarkVectorKernels times each vector kernel of this build beside
// its portable twin, in the same binary: "vector" is the native
// instance's kernel with its AVX2 hook, "portable" the same call with the
// hooks switched off (hasAVX2 false), which runs the generated scalar
// loop of zz_native_gen.go -- what the default build runs. The ratio of
// the two medians is the vector path's speed-up (docs/findings.md).
//
// The operands keep their magnitude under repetition, so that no
// iteration meets subnormals (which cost the scalar and the vector units
// microcode assists): the complex values have modulus 1 (products stay
// near it), the transforms start from a fresh copy each time (an FFT
// grows its input by up to n, an inverse FFT shrinks it), and the other
// kernels write outputs that are not their inputs.
func BenchmarkVectorKernels(b *testing.B) {
	if !hasAVX2 {
		b.Skip("the CPU has no AVX2: no vector path to time")
	}
	var a native.Arith
	rng := mrand.New(mrand.NewPCG(5, 6))
	for _, logn := range []uint{9, 10} {
		n := 1 << logn
		hn := n / 2
		unit := func() []float64 {
			x := make([]float64, n)
			for u := range hn {
				s, c := math.Sincos(2 * math.Pi * rng.Float64())
				x[u], x[u+hn] = c, s
			}
			return x
		}
		x, y, z, w, v, src := unit(), unit(), unit(), unit(), unit(), unit()
		kernels := []struct {
			name string
			run  func()
		}{
			{"fft", func() { copy(x, src); fftNative(a, x, logn) }},
			{"ifft", func() { copy(x, src); ifftNative(a, x, logn) }},
			{"polyAdd", func() { polyAddNative(a, x, y, logn) }},
			{"polySub", func() { polySubNative(a, x, y, logn) }},
			{"polyNeg", func() { polyNegNative(a, x, logn) }},
			{"polyMulFFT", func() { copy(x, src); polyMulFFTNative(a, x, y, logn) }},
			{"polyMuladjFFT", func() { copy(x, src); polyMuladjFFTNative(a, x, y, logn) }},
			{"polyMulselfadjFFT", func() { copy(x, src); polyMulselfadjFFTNative(a, x, logn) }},
			{"polyMulconst", func() { polyMulconstNative(a, x, -1, logn) }},
			{"polyLDLmvFFT", func() { polyLDLmvFFTNative(a, x, y, z, w, v, logn) }},
			{"polySplitFFT", func() { polySplitFFTNative(a, x[:hn], y[:hn], src, logn) }},
			{"polyMergeFFT", func() { polyMergeFFTNative(a, x, src[:hn], src[hn:], logn) }},
			{"copy", func() { copy(x, src) }}, // the share of copy in fft, ifft and the products
		}
		for _, k := range kernels {
			for _, vec := range []bool{true, false} {
				b.Run(fmt.Sprintf("%s/logn=%d/%s", k.name, logn, map[bool]string{true: "vector", false: "portable"}[vec]), func(b *testing.B) {
					hasAVX2 = vec
					defer func() { hasAVX2 = true }()
					for b.Loop() {
						k.run()
					}
				})
			}
		}
	}
	// The base sampler: 72-bit values as the sampler draws them.
	var lo [256]uint64
	var hi [256]uint32
	for i := range lo {
		lo[i], hi[i] = rng.Uint64(), uint32(rng.IntN(256))
	}
	var sink int
	for _, vec := range []bool{true, false} {
		b.Run("gaussian0/"+map[bool]string{true: "vector", false: "portable"}[vec], func(b *testing.B) {
			hasAVX2 = vec
			defer func() { hasAVX2 = true }()
			i := 0
			for b.Loop() {
				sink += gaussian0(lo[i&255], hi[i&255])
				i++
			}
		})
	}
	if sink < 0 {
		b.Log(sink)
	}
}
