package falcon

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// vecNative is native with arith.Vector, each batch a loop of native's
// scalar operations (the contract): through it the generic kernels take
// their batched path (fft_batch.go), through native.Arith their loops.
// It counts its batches.
type vecNative struct {
	native.Arith
	batches *int
}

var _ arith.Vector[float64] = vecNative{}

func (v vecNative) each2(dst, x, y []float64, op func(x, y float64) float64) {
	*v.batches++
	for i := range dst {
		dst[i] = op(x[i], y[i])
	}
}

func (v vecNative) each1(dst, x []float64, op func(x float64) float64) {
	*v.batches++
	for i := range dst {
		dst[i] = op(x[i])
	}
}

func (v vecNative) AddN(dst, x, y []float64) { v.each2(dst, x, y, v.Add) }
func (v vecNative) SubN(dst, x, y []float64) { v.each2(dst, x, y, v.Sub) }
func (v vecNative) MulN(dst, x, y []float64) { v.each2(dst, x, y, v.Mul) }
func (v vecNative) NegN(dst, x []float64)    { v.each1(dst, x, v.Neg) }
func (v vecNative) HalfN(dst, x []float64)   { v.each1(dst, x, v.Half) }
func (v vecNative) SqrN(dst, x []float64)    { v.each1(dst, x, v.Sqr) }
func (v vecNative) InvN(dst, x []float64)    { v.each1(dst, x, v.Inv) }

func (v vecNative) OfN(dst []float64, src []int64) {
	*v.batches++
	for i := range dst {
		dst[i] = v.Of(src[i])
	}
}

// TestBatchedKernels: every FFT-domain kernel with a hook gives, through
// an arithmetic with batches, the bits its loop gives through the same
// scalar arithmetic without them, at every degree, on random operands
// (and with the outputs aliasing the inputs as the callers alias them);
// and it does take the batched path.
func TestBatchedKernels(t *testing.T) {
	var nat native.Arith
	batches := 0
	vec := vecNative{batches: &batches}
	rng := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []float64 {
		p := make([]float64, n)
		for i := range p {
			p[i] = (rng.Float64() - 0.5) * math.Ldexp(1, rng.IntN(20)-10)
		}
		return p
	}
	kernels := []struct {
		name string
		// run applies the kernel to copies of the operands ps, through
		// the loops (batched false) or the batches, and returns the
		// polynomials it writes.
		run func(batched bool, ps [][]float64, logn uint) [][]float64
	}{
		{"of_int8 of_uint16 (and fft)", func(b bool, ps [][]float64, logn uint) [][]float64 {
			n := len(ps[0])
			small, hashed := make([]int8, n), make([]uint16, n)
			for i := range n {
				small[i], hashed[i] = int8(math.Float64bits(ps[1][i])), uint16(math.Float64bits(ps[2][i]))
			}
			if b {
				smallToFFT[float64](vec, ps[0], small, logn)
				targetFFT[float64](vec, nil, ps[1], ps[2], ps[3], ps[4], hashed, logn)
			} else {
				smallToFFT[float64](nat, ps[0], small, logn)
				targetFFT[float64](nat, nil, ps[1], ps[2], ps[3], ps[4], hashed, logn)
			}
			return ps[:3]
		}},
		{"fft", func(b bool, ps [][]float64, logn uint) [][]float64 {
			if b {
				fft[float64](vec, ps[0], logn)
			} else {
				fft[float64](nat, ps[0], logn)
			}
			return ps[:1]
		}},
		{"ifft", func(b bool, ps [][]float64, logn uint) [][]float64 {
			if b {
				ifft[float64](vec, ps[0], logn)
			} else {
				ifft[float64](nat, ps[0], logn)
			}
			return ps[:1]
		}},
		{"add sub neg mulconst", func(b bool, ps [][]float64, logn uint) [][]float64 {
			if b {
				polyAdd[float64](vec, ps[0], ps[1], logn)
				polySub[float64](vec, ps[1], ps[2], logn)
				polyNeg[float64](vec, ps[2], logn)
				polyMulconst[float64](vec, ps[3], ps[4][0], logn)
			} else {
				polyAdd[float64](nat, ps[0], ps[1], logn)
				polySub[float64](nat, ps[1], ps[2], logn)
				polyNeg[float64](nat, ps[2], logn)
				polyMulconst[float64](nat, ps[3], ps[4][0], logn)
			}
			return ps[:4]
		}},
		{"mul muladj mulselfadj", func(b bool, ps [][]float64, logn uint) [][]float64 {
			if b {
				polyMulFFT[float64](vec, ps[0], ps[1], logn)
				polyMuladjFFT[float64](vec, ps[1], ps[2], logn)
				polyMulselfadjFFT[float64](vec, ps[2], logn)
			} else {
				polyMulFFT[float64](nat, ps[0], ps[1], logn)
				polyMuladjFFT[float64](nat, ps[1], ps[2], logn)
				polyMulselfadjFFT[float64](nat, ps[2], logn)
			}
			return ps[:3]
		}},
		{"LDL in place", func(b bool, ps [][]float64, logn uint) [][]float64 {
			if b {
				polyLDLFFT[float64](vec, ps[0], ps[1], ps[2], logn)
			} else {
				polyLDLFFT[float64](nat, ps[0], ps[1], ps[2], logn)
			}
			return ps[:3]
		}},
		{"LDL to outputs, g11 = g00", func(b bool, ps [][]float64, logn uint) [][]float64 {
			if b {
				polyLDLmvFFT[float64](vec, ps[3], ps[4], ps[0], ps[1], ps[0], logn)
			} else {
				polyLDLmvFFT[float64](nat, ps[3], ps[4], ps[0], ps[1], ps[0], logn)
			}
			return ps[:5]
		}},
		{"split merge", func(b bool, ps [][]float64, logn uint) [][]float64 {
			hn := len(ps[0]) >> 1
			if b {
				polySplitFFT[float64](vec, ps[1][:hn], ps[1][hn:], ps[0], logn)
				polyMergeFFT[float64](vec, ps[2], ps[3][:hn], ps[3][hn:], logn)
			} else {
				polySplitFFT[float64](nat, ps[1][:hn], ps[1][hn:], ps[0], logn)
				polyMergeFFT[float64](nat, ps[2], ps[3][:hn], ps[3][hn:], logn)
			}
			return ps[:4]
		}},
	}
	for _, k := range kernels {
		for logn := uint(1); logn <= 10; logn++ {
			n := 1 << logn
			in := make([][]float64, 5)
			for i := range in {
				in[i] = random(n)
			}
			clone := func() [][]float64 {
				c := make([][]float64, len(in))
				for i := range in {
					c[i] = slices.Clone(in[i])
				}
				return c
			}
			want := k.run(false, clone(), logn)
			before := batches
			got := k.run(true, clone(), logn)
			// (At logn = 1 the FFT and split and merge compute nothing.)
			if batches == before && (logn > 1 || k.name != "fft" && k.name != "split merge") {
				t.Errorf("%s, logn %d: no batch", k.name, logn)
			}
			for p := range want {
				for i := range want[p] {
					if math.Float64bits(got[p][i]) != math.Float64bits(want[p][i]) {
						t.Fatalf("%s, logn %d: polynomial %d, value %d: batched %v, loop %v", k.name, logn, p, i, got[p][i], want[p][i])
					}
				}
			}
		}
	}
}
