package falcon

import "github.com/fprlab/fprlab/arith"

// Vector fast-path hooks of the FFT-domain kernels.
//
// Each kernel of fft.go that a vector unit can run (the FFT and its
// inverse, the coefficient-wise products and sums, the LDL steps, split
// and merge) first calls its hook and runs its own loop only when the hook
// returns false. The generic hooks below always return false, so the
// generic code -- what the oracle and vprec backends run, and what the
// tests compare the generated instances with -- is the plain loop, and
// the compiler removes the call from the emu64 and triword copies.
//
// The native instance's copies of the hooks are written by hand
// (falcon/internal/monogen's handWritten list): in the default build they
// return false as well (vec_portable.go); with GOEXPERIMENT=simd on an
// amd64 CPU with AVX2 they run the kernel four float64 lanes at a time
// (fft_vec_simd_amd64.go), each lane performing exactly the scalar loop's
// binary64 operations in its order (no fused multiply-add), so the results
// are bit-identical -- the pinned digests of generated_test.go and the KAT
// tests check it in both builds.

func vecFFT[F any, A arith.Arith[F]](a A, f []F, logn uint) bool  { return false }
func vecIFFT[F any, A arith.Arith[F]](a A, f []F, logn uint) bool { return false }

func vecPolyAdd[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool { return false }
func vecPolySub[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool { return false }
func vecPolyNeg[F any, A arith.Arith[F]](a A, x []F, logn uint) bool    { return false }

func vecPolyMulFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool    { return false }
func vecPolyMuladjFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool { return false }
func vecPolyMulselfadjFFT[F any, A arith.Arith[F]](a A, x []F, logn uint) bool {
	return false
}
func vecPolyMulconst[F any, A arith.Arith[F]](a A, x []F, c F, logn uint) bool { return false }

func vecPolyLDLFFT[F any, A arith.Arith[F]](a A, g00, g01, g11 []F, logn uint) bool {
	return false
}
func vecPolyLDLmvFFT[F any, A arith.Arith[F]](a A, d11, l10, g00, g01, g11 []F, logn uint) bool {
	return false
}

func vecPolySplitFFT[F any, A arith.Arith[F]](a A, f0, f1, f []F, logn uint) bool { return false }
func vecPolyMergeFFT[F any, A arith.Arith[F]](a A, f, f0, f1 []F, logn uint) bool { return false }
