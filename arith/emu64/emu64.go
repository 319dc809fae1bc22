// Package emu64 is the integer-emulated binary64 backend: IEEE-754 binary64
// values held in a uint64 and computed with integer operations only, with
// the semantics of the reference implementation's FALCON_FPEMU build bit for
// bit.
//
// # What it is for
//
// emu64 is the arithmetic that Falcon's reference runs on targets without a
// trustworthy floating-point unit, and the arithmetic that hardware fpr
// units (HORCRUX, Peregrino) reproduce in logic. It gives fprlab a backend
// whose every result is a pure function of integer operations, so it is
// identical on every Go target (no FPU, no fused multiply-add, no compiler
// contraction to worry about), and whose structure -- an unpacking step, an
// integer kernel, the FPR packing routine and the FPR_NORM64 normaliser --
// is the datapath the hardware models in package accel count.
//
// Where the inputs are zeros or normal numbers and the results stay normal,
// every operation returns the same bits as IEEE-754 binary64 with round to
// nearest even (except for the signs of a few zeros, listed below), so
// emu64 and package native agree exactly; the tests check this on millions
// of operands, and reproduce the reference test suite's floating-point
// digest. Like the reference, the operations have no data-dependent
// branches (division and square root are bit-serial loops of fixed length),
// so they run in constant time to the extent the Go compiler and the CPU's
// multiplier allow.
//
// # What it is not
//
// It is not a general IEEE-754 implementation. Like the reference it only
// needs zeros and normal numbers, and it leaves everything else to the
// caller:
//
//   - There are no infinities and no NaNs. An operation whose result would
//     overflow, a division by zero, or an operand whose exponent field is
//     2047 yields some deterministic but unspecified bit pattern.
//   - There are no subnormals. A result below the smallest normal number
//     2^-1022 (before or after rounding) is flushed to a zero that keeps the
//     result's sign; FromFloat64 flushes subnormal inputs the same way. An
//     operand that nevertheless has exponent field 0 and a nonzero mantissa
//     is read as if it were a zero in some operations and not in others.
//   - Sqrt ignores the sign of its operand: Sqrt(-x) = Sqrt(x).
//
// # Edge cases that differ from IEEE-754
//
// These follow the reference; Falcon's data never reaches them:
//
//   - Floor(-0) = -1: Floor treats every value of exponent field 0 as
//     "smaller than one in magnitude" and returns -1 when the sign bit is
//     set.
//   - Lt(-0, +0) is true: Lt compares bit patterns as signed integers, so
//     the two zeros are ordered.
//   - Half(-0) = +0 and Half of the smallest normals produces exponent field
//     0 (a subnormal bit pattern, not the IEEE result).
//   - Div(+-0, y) = +0 whatever the sign of y (IEEE: -0 when the signs
//     differ); Sqrt(-0) = +0 (IEEE: -0).
//   - Rint, Floor and Trunc assume |x| < 2^63; Trunc(2^63), for example, is 0.
//     ExpmP63 calls Trunc on ccs*2^63, so ExpmP63(x, 1) = 0: ccs must be
//     strictly below 1 (Falcon's ccs = sigma_min/sigma is, for every leaf
//     sigma above sigma_min).
//   - Of and Scaled accept -2^63 (the reference assumes they are not given
//     it; the emulation happens to convert it exactly).
//
// ExpmP63 is the reference's own fixed-point approximation (see expm.go),
// not a rounded binary64 computation: it agrees with the native backend's
// ExpmP63 on only a small fraction of inputs, while both are within about
// 2^-50 of 2^63*ccs*exp(-x).
package emu64

import (
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith"
)

// FPR is a binary64 value as its IEEE-754 bit pattern: bit 63 the sign,
// bits 52..62 the biased exponent, bits 0..51 the fraction.
type FPR uint64

// Arith implements arith.Arith[FPR] with integer operations only.
type Arith struct{}

var _ arith.Arith[FPR] = Arith{}

func init() {
	arith.Register(arith.Backend{
		Name:        "emu64",
		Bits:        53,
		ExpBits:     11,
		Description: "IEEE binary64 emulated with integer operations only (reference FALCON_FPEMU semantics)",
		Impl:        Arith{},
	})
}

// Bit layout of a binary64 value.
const (
	signBit  = uint64(1) << 63
	fracMask = uint64(1)<<52 - 1
	absMask  = signBit - 1
	expField = 0x7FF
)

// one is the bit pattern of 1.0, the dividend of Inv.
const one FPR = 0x3FF0000000000000

// ptwo63 is the bit pattern of 2^63, the scale ExpmP63 applies to its
// arguments before truncating them to fixed point.
const ptwo63 FPR = 0x43E0000000000000

// Of converts i exactly when |i| <= 2^53, otherwise rounds it to nearest even.
func (Arith) Of(i int64) FPR { return scaled(i, 0) }

// Scaled returns i*2^e rounded once to nearest even; results below 2^-1022
// are flushed to zero. The exponent is expected to keep the result in the
// normal range (overflow is unspecified).
func (Arith) Scaled(i int64, e int) FPR { return scaled(i, e) }

// FromFloat64 imports the bits of x, flushing subnormals to a zero of the
// same sign. Infinities and NaNs are imported as bit patterns, which the
// emulation does not interpret.
func (Arith) FromFloat64(x float64) FPR {
	b := math.Float64bits(x)
	// keep is all ones unless the exponent field is zero.
	keep := -(((b >> 52 & expField) + expField) >> 11)
	return FPR(b & (signBit | keep))
}

// Const returns the reference's binary64 value of c.
func (Arith) Const(c arith.Constant) FPR { return FPR(math.Float64bits(arith.Binary64(c))) }

// GM returns entry k of the reference's FFT twiddle table fpr_gm_tab.
func (Arith) GM(k int) FPR { return FPR(math.Float64bits(arith.GMBinary64(k))) }

func (Arith) Add(x, y FPR) FPR { return add(x, y) }

// Sub is x + (-y), as in the reference.
func (Arith) Sub(x, y FPR) FPR { return add(x, y^FPR(signBit)) }

// Neg flips the sign bit: Neg(+0) = -0.
func (Arith) Neg(x FPR) FPR { return x ^ FPR(signBit) }

// Half subtracts one from the exponent field; a zero (of either sign) gives
// +0. For the smallest normals (exponent field 1) it produces a pattern of
// exponent field 0, which the emulation treats as zero or not depending on
// the operation: Falcon never halves values that small.
func (Arith) Half(x FPR) FPR {
	x -= 1 << 52
	// Subtracting from a zero borrows into an exponent field of 2047:
	// keep is 0 exactly then.
	keep := ((uint32(x>>52) & expField) + 1) >> 11
	return x & (FPR(keep) - 1)
}

// Double adds one to the exponent field unless it is zero (zeros stay as
// they are, sign included).
func (Arith) Double(x FPR) FPR {
	nz := ((uint32(x>>52) & expField) + expField) >> 11
	return x + FPR(nz)<<52
}

func (Arith) Mul(x, y FPR) FPR { return mul(x, y) }
func (Arith) Sqr(x FPR) FPR    { return mul(x, x) }
func (Arith) Div(x, y FPR) FPR { return div(x, y) }

// Inv is 1/x, computed as the division 1/x (one rounding).
func (Arith) Inv(x FPR) FPR  { return div(one, x) }
func (Arith) Sqrt(x FPR) FPR { return sqrt(x) }

func (Arith) Rint(x FPR) int64  { return rint(x) }
func (Arith) Floor(x FPR) int64 { return floor(x) }
func (Arith) Trunc(x FPR) int64 { return trunc(x) }
func (Arith) Lt(x, y FPR) bool  { return lt(x, y) }

func (Arith) ExpmP63(x, ccs FPR) uint64 { return expmP63(x, ccs) }

// Float64 returns the value with the same bits: exact, since every value
// the emulation produces is a binary64 value.
func (Arith) Float64(x FPR) float64 { return math.Float64frombits(uint64(x)) }

// Big returns the exact value of x at 53 bits of precision. A bit pattern
// with exponent field 2047 (which only an overflow produces, the emulation
// having no infinities or NaNs) is read as the number
// (-1)^s * 1.f * 2^1024, so Big never fails.
func (Arith) Big(x FPR) *big.Float {
	b := uint64(x)
	e := int(b >> 52 & expField)
	f := b & fracMask
	z := new(big.Float).SetPrec(53)
	if e == 0 {
		// Zero, or a subnormal bit pattern: f * 2^-1074.
		z.SetMantExp(new(big.Float).SetUint64(f), -1074)
	} else {
		z.SetMantExp(new(big.Float).SetUint64(f|1<<52), e-1075)
	}
	if b&signBit != 0 {
		z.Neg(z)
	}
	return z
}
