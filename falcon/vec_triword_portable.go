//go:build !(goexperiment.simd && amd64)

package falcon

import "github.com/fprlab/fprlab/arith/triword"

// The triword instance's vector hooks (fft_vec.go) in the default build:
// none; the generated loops run. The GOEXPERIMENT=simd build on amd64 has
// vec_triword_simd_amd64.go instead.

func vecOfInt8Triword(a triword.Arith, dst []triword.TW, x []int8) bool           { return false }
func vecOfUint16Triword(a triword.Arith, dst []triword.TW, x []uint16) bool       { return false }
func vecFFTTriword(a triword.Arith, f []triword.TW, logn uint) bool               { return false }
func vecIFFTTriword(a triword.Arith, f []triword.TW, logn uint) bool              { return false }
func vecPolyAddTriword(a triword.Arith, x, y []triword.TW, logn uint) bool        { return false }
func vecPolySubTriword(a triword.Arith, x, y []triword.TW, logn uint) bool        { return false }
func vecPolyNegTriword(a triword.Arith, x []triword.TW, logn uint) bool           { return false }
func vecPolyMulFFTTriword(a triword.Arith, x, y []triword.TW, logn uint) bool     { return false }
func vecPolyMuladjFFTTriword(a triword.Arith, x, y []triword.TW, logn uint) bool  { return false }
func vecPolyMulselfadjFFTTriword(a triword.Arith, x []triword.TW, logn uint) bool { return false }
func vecPolyMulconstTriword(a triword.Arith, x []triword.TW, c triword.TW, logn uint) bool {
	return false
}
func vecPolyLDLFFTTriword(a triword.Arith, g00, g01, g11 []triword.TW, logn uint) bool { return false }
func vecPolyLDLmvFFTTriword(a triword.Arith, d11, l10, g00, g01, g11 []triword.TW, logn uint) bool {
	return false
}
func vecPolySplitFFTTriword(a triword.Arith, f0, f1, f []triword.TW, logn uint) bool { return false }
func vecPolyMergeFFTTriword(a triword.Arith, f, f0, f1 []triword.TW, logn uint) bool { return false }
