//go:build goexperiment.simd && amd64

package triword

import "github.com/fprlab/fprlab/arith"

// arith.Vector in the GOEXPERIMENT=simd build: the sums and the fast
// product run eight lanes at a time (AddN, SubN, MulN of
// lanes_simd_amd64.go, bit for bit the scalar operations), the other
// operations element by element. With it, every consumer that batches
// through arith.Vector takes the lanes: package falcon's generic instance
// (its batched FFT-domain kernels and the level-by-level ffSampling of
// ffsampling_batch.go) and the shadow's dd pair over triword (ddPairVec
// of package analysis/shadow), whose per-element interface calls into
// this package were most of a shadowed triword signature's cost. The
// results are those of the scalar loops by arith.Vector's contract; the
// pinned shadow records and certify's captures check it in this build.
//
// The accurate product (Arith.Accurate) has no eight-lane kernel and runs
// element by element. Without AVX2 and FMA (HasLanes false) every method
// is an element-by-element loop.

var _ arith.Vector[TW] = Arith{}

func (Arith) AddN(dst, x, y []TW) { AddN(dst, x, y) }
func (Arith) SubN(dst, x, y []TW) { SubN(dst, x, y) }

func (a Arith) MulN(dst, x, y []TW) {
	if a.Accurate {
		for i := range dst {
			dst[i] = mul33(x[i], y[i], true)
		}
		return
	}
	MulN(dst, x, y)
}

// SqrN: Sqr(x) is the product of x with itself, in both products.
func (a Arith) SqrN(dst, x []TW) { a.MulN(dst, x, x) }

func (Arith) NegN(dst, x []TW) {
	for i := range dst {
		dst[i] = neg(x[i])
	}
}

func (a Arith) HalfN(dst, x []TW) {
	for i := range dst {
		dst[i] = a.Half(x[i])
	}
}

func (Arith) InvN(dst, x []TW) {
	for i := range dst {
		dst[i] = inv(x[i])
	}
}

func (a Arith) OfN(dst []TW, src []int64) {
	for i := range dst {
		dst[i] = a.Of(src[i])
	}
}
