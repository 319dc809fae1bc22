// Package native is the hardware binary64 backend: Falcon's fpr operations
// on float64, as the reference's FALCON_FPNATIVE build computes them.
//
// Go may contract x*y+z into a fused multiply-add on arm64, ppc64le, s390x,
// riscv64 and amd64 with GOAMD64=v3, which rounds once instead of twice and
// silently breaks bit-exactness with emu64. The Go specification forbids
// fusion across an explicit conversion, so every product that meets an
// addition here is written float64(x*y). Falcon's generic code cannot fuse
// at all: its products and sums are separate method calls. CI runs the
// bit-exactness tests again under GOAMD64=v3 as the guard.
package native

import (
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith"
)

// Arith implements arith.Arith[float64].
type Arith struct{}

var _ arith.Arith[float64] = Arith{}

func init() {
	arith.Register(arith.Backend{
		Name:        "native",
		Bits:        53,
		ExpBits:     11,
		Description: "hardware IEEE-754 binary64 (float64), never fused into FMA; reference FALCON_FPNATIVE semantics",
		Impl:        Arith{},
	})
}

func (Arith) Of(i int64) float64             { return float64(i) }
func (Arith) Scaled(i int64, e int) float64  { return math.Ldexp(float64(i), e) }
func (Arith) FromFloat64(x float64) float64  { return x }
func (Arith) Const(c arith.Constant) float64 { return arith.Binary64(c) }
func (Arith) GM(k int) float64               { return arith.GMBinary64(k) }
func (Arith) Add(x, y float64) float64       { return x + y }
func (Arith) Sub(x, y float64) float64       { return x - y }
func (Arith) Neg(x float64) float64          { return -x }
func (Arith) Half(x float64) float64         { return float64(x * 0.5) } // explicit rounding: never fused once inlined
func (Arith) Double(x float64) float64       { return x + x }
func (Arith) Mul(x, y float64) float64       { return float64(x * y) }
func (Arith) Sqr(x float64) float64          { return float64(x * x) }
func (Arith) Inv(x float64) float64          { return 1.0 / x }
func (Arith) Div(x, y float64) float64       { return x / y }
func (Arith) Sqrt(x float64) float64         { return math.Sqrt(x) }
func (Arith) Trunc(x float64) int64          { return int64(x) }
func (Arith) Lt(x, y float64) bool           { return x < y }
func (Arith) Float64(x float64) float64      { return x }
func (Arith) Big(x float64) *big.Float       { return new(big.Float).SetPrec(53).SetFloat64(x) }
func (Arith) ExpmP63(x, ccs float64) uint64  { return ExpmP63(x, ccs) }

// Rint rounds half to even, as the reference's constant-time fpr_rint: it
// adds and subtracts 2^52 so the FPU does the rounding, and selects between
// the results for x >= 0, x < 0 and |x| >= 2^52 with masks.
func (Arith) Rint(x float64) int64 {
	const p52 = 4503599627370496.0
	sx := int64(x - 1.0)
	tx := int64(x)
	rp := int64(x+p52) - (1 << 52)
	rn := int64(x-p52) + (1 << 52)
	m := sx >> 63
	rn &= m
	rp &^= m
	ub := uint32(uint64(tx) >> 52)
	m = -int64((((ub + 1) & 0xFFF) - 2) >> 31)
	rp &= m
	rn &= m
	tx &^= m
	return tx | rn | rp
}

// Floor rounds toward minus infinity (truncate, then correct negative non-integers).
func (Arith) Floor(x float64) int64 {
	r := int64(x)
	if x < float64(r) {
		r--
	}
	return r
}

// expmCoeffs are the FACCT polynomial coefficients of the reference's native
// fpr_expm_p63, highest degree first (exp(-x) ~ sum c_i (-x)^i).
var expmCoeffs = [...]float64{
	0.000000002073772366009083061987,
	0.000000025299506379442070029551,
	0.000000275607356160477811864927,
	0.000002755586350219122514855659,
	0.000024801566833585381209939524,
	0.000198412739277311890541063977,
	0.001388888894063186997887560103,
	0.008333333327800835146903501993,
	0.041666666666110491190622155955,
	0.166666666666984014666397229121,
	0.500000000000019206858326015208,
	0.999999999999994892974086724280,
	1.000000000000000000000000000000,
}

// ExpmP63 is the reference's native fpr_expm_p63 (the non-AVX2 build):
// Horner's rule in binary64 over the FACCT coefficients, times ccs, scaled
// by 2^63 and truncated. Every product is rounded before its subtraction.
func ExpmP63(x, ccs float64) uint64 {
	y := expmCoeffs[0]
	for _, c := range expmCoeffs[1:] {
		y = c - float64(y*x)
	}
	y = float64(y * ccs)
	return uint64(float64(y * 9223372036854775808.0))
}
