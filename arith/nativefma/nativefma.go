// Package nativefma is the "native-fma" backend: hardware binary64 as the
// reference's AVX2 build with FALCON_FMA=1 computes it (Falcon-impl-20211101
// compiled with -mavx2 -mfma -DFALCON_AVX2=1 -DFALCON_FMA=1), a datapath
// that signs differently from the plain native build about once in ten
// thousand signatures on the same inputs (docs/backends.md).
//
// Every operation is native's (one rounding each), except:
//
//   - ExpmP63 is the AVX2 build's fpr_expm_p63: the polynomial evaluated
//     as a tree of powers of -x with two fused multiply-adds, instead of
//     Horner's rule;
//   - FMA(x, y, z) = x*y + z rounded once (math.FMA, which gives the same
//     correctly rounded result as vfmadd), which Falcon's FFT-domain
//     kernels call exactly where that build fuses (arith.Fused; the
//     schedule is falcon/fft_fused.go's).
//
// With both, native-fma signs as that build does, byte for byte, in both
// signing modes, also on the inputs where it signs differently from the
// plain build (falcon's TestReferenceModes and TestFusedKernels).
package nativefma

import (
	"math"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// Arith implements arith.Arith[float64] and arith.Fused[float64].
type Arith struct{ native.Arith }

var (
	_ arith.Arith[float64] = Arith{}
	_ arith.Fused[float64] = Arith{}
)

func init() {
	arith.Register(arith.Backend{
		Name:        "native-fma",
		Bits:        53,
		ExpBits:     11,
		Description: "hardware IEEE-754 binary64 fused where the reference's AVX2+FMA build fuses (FFT kernels, expm_p63)",
		Impl:        Arith{},
	})
}

// FMA returns x*y + z rounded once.
func (Arith) FMA(x, y, z float64) float64 { return math.FMA(x, y, z) }

// ExpmP63 is the AVX2 build's fpr_expm_p63.
func (Arith) ExpmP63(x, ccs float64) uint64 { return ExpmP63(x, ccs) }

// expmC are the FACCT coefficients in the AVX2 build's order: c[i]
// multiplies (-x)^(i+1).
var expmC = [12]float64{
	0.999999999999994892974086724280,
	0.500000000000019206858326015208,
	0.166666666666984014666397229121,
	0.041666666666110491190622155955,
	0.008333333327800835146903501993,
	0.001388888894063186997887560103,
	0.000198412739277311890541063977,
	0.000024801566833585381209939524,
	0.000002755586350219122514855659,
	0.000000275607356160477811864927,
	0.000000025299506379442070029551,
	0.000000002073772366009083061987,
}

// ExpmP63 is the reference's fpr_expm_p63 of the AVX2 build with FMA: with
// d = -x, the four lanes hold d, d^2, d^3, d^4; the lanes times d^4 and
// d^8 give the powers 5..8 and 9..12, each group is multiplied by its
// coefficients and accumulated into the next by a fused multiply-add,
// and the lanes are summed pairwise (hadd) and added to 1. The products
// are written float64(x*y) so that Go never fuses more than the reference.
func ExpmP63(x, ccs float64) uint64 {
	d1 := -x
	d2 := float64(d1 * d1)
	d4 := float64(d2 * d2)
	d8 := float64(d4 * d4)
	d14 := [4]float64{d1, d2, float64(d2 * d1), d4}
	var acc [4]float64
	for i, p := range d14 {
		lo := float64(p * expmC[i])
		mid := math.FMA(float64(p*d4), expmC[4+i], lo)
		acc[i] = math.FMA(float64(p*d8), expmC[8+i], mid)
	}
	y := 1.0 + (acc[0] + acc[1])
	y += acc[2] + acc[3]
	y = float64(y * ccs)
	return uint64(int64(float64(y * 9223372036854775808.0)))
}
