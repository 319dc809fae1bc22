//go:build !(goexperiment.simd && amd64)

package falcon

import "github.com/fprlab/fprlab/arith/native"

// The native instance's vector hooks (fft_vec.go), and the base sampler's
// (sampler.go), in the default build: pure portable Go, no vector path;
// the generated loops run. The
// GOEXPERIMENT=simd build on amd64 has fft_vec_simd_amd64.go instead.

func vecOfInt8Native(native.Arith, []float64, []int8) bool                 { return false }
func vecOfUint16Native(native.Arith, []float64, []uint16) bool             { return false }
func vecFFTNative(native.Arith, []float64, uint) bool                      { return false }
func vecIFFTNative(native.Arith, []float64, uint) bool                     { return false }
func vecPolyAddNative(native.Arith, []float64, []float64, uint) bool       { return false }
func vecPolySubNative(native.Arith, []float64, []float64, uint) bool       { return false }
func vecPolyNegNative(native.Arith, []float64, uint) bool                  { return false }
func vecPolyMulFFTNative(native.Arith, []float64, []float64, uint) bool    { return false }
func vecPolyMuladjFFTNative(native.Arith, []float64, []float64, uint) bool { return false }
func vecPolyMulselfadjFFTNative(native.Arith, []float64, uint) bool        { return false }
func vecPolyMulconstNative(native.Arith, []float64, float64, uint) bool    { return false }
func vecPolyLDLFFTNative(native.Arith, []float64, []float64, []float64, uint) bool {
	return false
}
func vecPolyLDLmvFFTNative(native.Arith, []float64, []float64, []float64, []float64, []float64, uint) bool {
	return false
}
func vecPolySplitFFTNative(native.Arith, []float64, []float64, []float64, uint) bool { return false }
func vecPolyMergeFFTNative(native.Arith, []float64, []float64, []float64, uint) bool { return false }

// gaussian0 is the base sampler: in this build its portable loop
// (gaussian0Loop, sampler.go).
func gaussian0(lo uint64, hi uint32) int { return gaussian0Loop(lo, hi) }

// vectorFFT reports whether the FFT-domain kernels of the native instance
// run in vector registers (never in this build).
func vectorFFT() bool { return false }
