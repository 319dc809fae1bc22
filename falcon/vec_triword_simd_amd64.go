//go:build goexperiment.simd && amd64

package falcon

import "github.com/fprlab/fprlab/arith/triword"

// The triword instance's vector hooks (fft_vec.go) in the GOEXPERIMENT=simd
// build: on a CPU with AVX2 and FMA (triword.HasLanes) the FFT-domain
// kernels run as the batched kernels of fft_batch.go over triword.Arith's
// arith.Vector, whose sums and fast products take eight triple words per
// vector operation (bit for bit the scalar operations, so the kernels'
// results are the scalar loops', as for every arith.Vector; the
// generated-against-generic digests and the KAT tests check it in this
// build). The negation and the conversions of integers gain nothing from
// a batch and keep their loops.

// lanesMinLogn is the least degree (log2) at which the hooks batch: below
// it the batches are shorter than eight values (the kernels' scalar
// tails), and the plain loops run faster than the batched kernels'
// copies around the same scalar operations.
const lanesMinLogn = 4

func lanes(logn uint) bool { return triword.HasLanes && logn >= lanesMinLogn }

func vecOfInt8Triword(triword.Arith, []triword.TW, []int8) bool     { return false }
func vecOfUint16Triword(triword.Arith, []triword.TW, []uint16) bool { return false }
func vecPolyNegTriword(triword.Arith, []triword.TW, uint) bool      { return false }

func vecFFTTriword(a triword.Arith, f []triword.TW, logn uint) bool {
	return lanes(logn) && vecFFT(a, f, logn)
}

func vecIFFTTriword(a triword.Arith, f []triword.TW, logn uint) bool {
	return lanes(logn) && vecIFFT(a, f, logn)
}

func vecPolyAddTriword(a triword.Arith, x, y []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolyAdd(a, x, y, logn)
}

func vecPolySubTriword(a triword.Arith, x, y []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolySub(a, x, y, logn)
}

func vecPolyMulFFTTriword(a triword.Arith, x, y []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolyMulFFT(a, x, y, logn)
}

func vecPolyMuladjFFTTriword(a triword.Arith, x, y []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolyMuladjFFT(a, x, y, logn)
}

func vecPolyMulselfadjFFTTriword(a triword.Arith, x []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolyMulselfadjFFT(a, x, logn)
}

func vecPolyMulconstTriword(a triword.Arith, x []triword.TW, c triword.TW, logn uint) bool {
	return lanes(logn) && vecPolyMulconst(a, x, c, logn)
}

func vecPolyLDLFFTTriword(a triword.Arith, g00, g01, g11 []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolyLDLFFT(a, g00, g01, g11, logn)
}

func vecPolyLDLmvFFTTriword(a triword.Arith, d11, l10, g00, g01, g11 []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolyLDLmvFFT(a, d11, l10, g00, g01, g11, logn)
}

func vecPolySplitFFTTriword(a triword.Arith, f0, f1, f []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolySplitFFT(a, f0, f1, f, logn)
}

func vecPolyMergeFFTTriword(a triword.Arith, f, f0, f1 []triword.TW, logn uint) bool {
	return lanes(logn) && vecPolyMergeFFT(a, f, f0, f1, logn)
}
