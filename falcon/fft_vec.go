package falcon

import "github.com/fprlab/fprlab/arith"

// Vector fast-path hooks of the FFT-domain kernels.
//
// Each kernel of fft.go that a vector unit can run (the FFT and its
// inverse, the coefficient-wise products and sums, the LDL steps, split
// and merge; and the conversions of integer coefficients before an FFT)
// first calls its hook and runs its own loop only when the hook
// returns false. The generic hooks below run the batched kernels of
// fft_batch.go when the arithmetic implements arith.Vector (a plugin, the
// shadow's pair over one) and return false otherwise, so the generic code
// over every other arithmetic -- what the oracle and vprec backends run,
// and what the tests compare the generated instances with -- is the plain
// loop. The emu64 and triword copies of the hooks are stubs returning
// false (monogen's stubs), which the compiler removes from their loops.
//
// The native instance's copies of the hooks are written by hand
// (falcon/internal/monogen's handWritten list): in the default build they
// return false as well (vec_portable.go); with GOEXPERIMENT=simd on an
// amd64 CPU with AVX2 they run the kernel four float64 lanes at a time
// (fft_vec_simd_amd64.go), each lane performing exactly the scalar loop's
// binary64 operations in its order (no fused multiply-add), so the results
// are bit-identical -- the pinned digests of generated_test.go and the KAT
// tests check it in both builds.

// batched runs run with the arithmetic's batches and reports true, or
// reports false when a has none.
func batched[F any](a any, run func(v vecArith[F])) bool {
	v, ok := a.(vecArith[F])
	if ok {
		run(v)
	}
	return ok
}

func vecOfInt8[F any, A arith.Arith[F]](a A, dst []F, x []int8) bool {
	return batched(a, func(v vecArith[F]) { batchOf(v, dst, x) })
}

func vecOfUint16[F any, A arith.Arith[F]](a A, dst []F, x []uint16) bool {
	return batched(a, func(v vecArith[F]) { batchOf(v, dst, x) })
}

func vecFFT[F any, A arith.Arith[F]](a A, f []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchFFT(v, f, logn) })
}

func vecIFFT[F any, A arith.Arith[F]](a A, f []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchIFFT(v, f, logn) })
}

func vecPolyAdd[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { v.AddN(x[:1<<logn], x, y) })
}

func vecPolySub[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { v.SubN(x[:1<<logn], x, y) })
}

func vecPolyNeg[F any, A arith.Arith[F]](a A, x []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { v.NegN(x[:1<<logn], x) })
}

func vecPolyMulFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchMulFFT(v, x, y, logn, false) })
}

func vecPolyMuladjFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchMulFFT(v, x, y, logn, true) })
}

func vecPolyMulselfadjFFT[F any, A arith.Arith[F]](a A, x []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchMulselfadjFFT(v, x, logn) })
}

func vecPolyMulconst[F any, A arith.Arith[F]](a A, x []F, c F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchMulconst(v, x[:1<<logn], c) })
}

func vecPolyLDLFFT[F any, A arith.Arith[F]](a A, g00, g01, g11 []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchLDL(v, g11, g01, g00, g01, g11, logn) })
}

func vecPolyLDLmvFFT[F any, A arith.Arith[F]](a A, d11, l10, g00, g01, g11 []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchLDL(v, d11, l10, g00, g01, g11, logn) })
}

func vecPolySplitFFT[F any, A arith.Arith[F]](a A, f0, f1, f []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchSplitFFT(v, f0, f1, f, logn) })
}

func vecPolyMergeFFT[F any, A arith.Arith[F]](a A, f, f0, f1 []F, logn uint) bool {
	return batched(a, func(v vecArith[F]) { batchMergeFFT(v, f, f0, f1, logn) })
}
