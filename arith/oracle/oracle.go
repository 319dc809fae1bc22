// Package oracle is the big-float backend: Falcon's fpr operation set on
// math/big.Float values, every operation correctly rounded (round to
// nearest, ties to even) at a chosen precision P.
//
// It exists to be the ruler. At its default precision of 256 bits ("oracle")
// its rounding errors are some 200 bits below those of any arithmetic worth
// measuring, so the difference between another backend's result and the
// oracle's is that backend's error. Package analysis measures operations this
// way, and Falcon can run over the oracle to shadow a signature. "oracle:P"
// chooses another precision, 64 <= P <= 4096.
//
// The same arithmetic with a small P is the "virtual precision" backend
// "vprec:P", 11 <= P <= 256: every result is rounded to a P-bit significand,
// as a hypothetical binary format with P bits would round it. It answers
// sweeps such as "how many significand bits does Falcon signing need?".
// vprec:53 rounds exactly as binary64 does and reproduces the native
// backend bit for bit wherever binary64 stays in its normal range.
//
// # Formats: exponent range and rounding
//
// "vprec:P:eE[:rn|:rz|:sr=SEED]" is a complete binary format, the VPREC
// model of Verificarlo (Chatelain et al., "Automatic exploration of reduced
// floating-point representations in iterative methods", Euro-Par 2019)
// with the roundings of a hardware datapath:
//
//   - E exponent bits give IEEE 754's range: emax = 2^(E-1)-1,
//     emin = 1-emax (vprec:53:e11 is binary64, vprec:24:e8 binary32's
//     range and precision). There are no subnormals: a result whose
//     exact value lies below 2^emin becomes a zero of its sign, even if
//     rounding would bring it up to 2^emin, as the reference's emulated
//     binary64 does (and emu64 with it). A result above the largest
//     finite value becomes +-Inf, except under rounding toward zero, which
//     gives the largest finite value (IEEE 754, section 7.4). Inputs
//     (Of, Scaled, FromFloat64), constants and twiddles obey the same range.
//   - rn (the default) rounds to nearest, ties to even; rz rounds toward
//     zero (truncation); sr rounds stochastically (Monte Carlo
//     arithmetic: Parker 1997; Verificarlo's MCA and SR backends): up
//     with probability equal to the distance from the value below, in
//     ulps, so that the rounding is unbiased. The decision is a hash of
//     the seed, the operation and its operands' exact values rather than a
//     draw from a generator, so a signature's results depend only on its
//     own operations whatever goroutines share the backend, and a seed
//     reproduces a run (see format.random). Constants and twiddles are
//     stored tables, rounded to nearest in every mode.
//   - ExpmP63 is the reference's native fpr_expm_p63 computed in the
//     format: Horner's rule over the FACCT coefficients (rounded to P
//     bits), the product with ccs, then an exact scaling by 2^63 and
//     truncation. Its error therefore follows the format (about 2^-P of
//     full scale) down to the polynomial's own 2^-51.2, and vprec:53:e11
//     reproduces the native backend's ExpmP63 bit for bit.
//
// Plain "vprec:P" keeps its meaning: round to nearest, unbounded exponent,
// and an ExpmP63 from the correctly rounded exponential.
//
// # What it is not
//
// The exponent of oracle:P and vprec:P is unbounded (big.Float's exponent
// is a 32-bit integer): there is no overflow, no underflow, no subnormal,
// so vprec:P models the significand of a P-bit format, not its exponent
// range. Results obtained with it must say so; vprec:P:eE models both. big.Float has no NaN either: an operation whose IEEE
// result would be NaN (0/0, Inf-Inf, 0*Inf, the square root of a negative
// number, importing a NaN) returns +Inf instead of panicking. Falcon with a
// valid key never produces one.
//
// The names "vprec:..." select package arith/vfloat's implementation of
// these formats where it has one (P <= 113, installed with SetFastVPrec):
// the same results bit for bit, without allocation. This package's
// big.Float code stays the reference it is tested against, selected by
// "vprecbig:..." names.
//
// It is slow: every operation allocates a new big.Float (values are
// immutable, as package arith requires), a 256-bit multiplication costs
// some hundreds of nanoseconds, and each ExpmP63 evaluates an exponential
// at P+64 bits (about 15 us at P = 256). Measured at 256 bits: a
// Falcon-512 signature about 0.1 s, Falcon-1024 about 0.3 s, Falcon-512 key
// generation about 0.5 s, plus about 0.15 s once per precision for the
// twiddle table.
//
// # Choices
//
//   - Constants are arith.Exact(c, P); the FFT twiddle factors are
//     arith.GMExact(k, P), with the reference's -0 for the real part of
//     the root at pi/2. Both are computed once per precision and shared
//     (read only).
//   - Sqrt is computed from an integer square root and is correctly
//     rounded (big.Float.Sqrt is not guaranteed to be).
//   - Rint (ties to even), Floor and Trunc are exact on the big value;
//     results outside the int64 range saturate to math.MinInt64 or
//     math.MaxInt64.
//   - ExpmP63 of the oracle is the exact value floor(2^63*ccs*exp(-x)), the
//     reference's truncation of the true function (the reference's own
//     polynomial is within about 2^-51 of full scale of it). ExpmP63 of vprec:P
//     follows the binary64 structure at P bits: exp(-x) correctly rounded to
//     P bits, times ccs rounded to P bits, times 2^63, truncated. See
//     Arith.ExpmP63.
package oracle

import (
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith"
)

// Precision limits of the two families.
const (
	DefaultPrec  = 256  // precision of the backend named "oracle"
	MinPrec      = 64   // smallest P of "oracle:P"
	MaxPrec      = 4096 // largest P of "oracle:P"
	MinVPrec     = 11   // smallest P of "vprec:P" (binary16's significand)
	MaxVPrec     = 256  // largest P of "vprec:P"
	expGuardBits = 64   // extra bits of the first exponential evaluation
)

// Arith implements arith.Arith[*big.Float] at a fixed precision. The zero
// value is not usable; obtain one from New or NewVirtual.
type Arith struct {
	prec    uint
	virtual bool    // vprec semantics of ExpmP63
	tab     *table  // constants and twiddles at prec
	fm      *format // exponent range and rounding of vprec:P:eE; nil otherwise
}

var _ arith.Arith[*big.Float] = Arith{}

// Prec returns the precision P in bits.
func (a Arith) Prec() uint { return a.prec }

// Virtual reports whether a is a vprec backend (as opposed to an oracle).
func (a Arith) Virtual() bool { return a.virtual }

// newFloat returns a fresh zero at the working precision.
func (a Arith) newFloat() *big.Float { return new(big.Float).SetPrec(a.prec) }

// inf is the stand-in for a NaN result (see the package documentation).
func (a Arith) inf() *big.Float { return a.newFloat().SetInf(false) }

// result computes one rounded operation: compute stores its result in z,
// rounded by z's precision and mode, and returns it. Without a format z is
// a fresh P-bit float rounding to nearest even; a format (vprec:P:eE)
// chooses precision and mode and applies its rounding and range to the
// result. x, y and ints are the operands, which stochastic rounding hashes.
func (a Arith) result(o op, x, y *big.Float, ints []int64, compute func(z *big.Float) *big.Float) *big.Float {
	if a.fm == nil {
		return compute(a.newFloat())
	}
	return a.fm.finish(a.prec, o, x, y, ints, compute)
}

// exact finishes an operation whose result needs no rounding (Neg, Half,
// Double, table lookups): a format still applies its exponent range.
func (a Arith) exact(z *big.Float) *big.Float {
	if a.fm == nil {
		return z
	}
	return a.fm.fit(a.prec, z, false)
}

// Of converts i, rounded to P bits (exact for P >= 64).
func (a Arith) Of(i int64) *big.Float {
	return a.result(opOf, nil, nil, []int64{i}, func(z *big.Float) *big.Float { return z.SetInt64(i) })
}

// Scaled returns i*2^e rounded once to P bits. The exact product is
// formed at 64 bits and rounded by Set, which keeps the accuracy the
// exponent range needs (SetMantExp alone would copy its operand's
// precision and not round, and after rounding it reports Exact).
func (a Arith) Scaled(i int64, e int) *big.Float {
	m := new(big.Float).SetPrec(64).SetInt64(i) // exact
	m.SetMantExp(m, e)                          // exact
	return a.result(opScaled, nil, nil, []int64{i, int64(e)}, func(z *big.Float) *big.Float { return z.Set(m) })
}

// FromFloat64 imports x, rounded to P bits (exact for P >= 53). A NaN
// becomes +Inf; infinities are kept.
func (a Arith) FromFloat64(x float64) *big.Float {
	if math.IsNaN(x) {
		return a.inf()
	}
	return a.result(opFromFloat64, nil, nil, []int64{int64(math.Float64bits(x))}, func(z *big.Float) *big.Float { return z.SetFloat64(x) })
}

// Const returns arith.Exact(c, P), computed once per precision. Out-of-range
// constants give +Inf (the interface cannot report an error).
func (a Arith) Const(c arith.Constant) *big.Float {
	if c < 0 || int(c) >= arith.NumConstants {
		return a.inf()
	}
	return a.exact(a.tab.constant(c))
}

// GM returns twiddle table entry k, arith.GMExact(k, P), computed once per
// precision. An index outside 0..2047 gives +Inf.
func (a Arith) GM(k int) *big.Float {
	if k < 0 || k >= 2048 {
		return a.inf()
	}
	return a.exact(a.tab.twiddle(k))
}

// Convert returns x, a value of any precision (another format's result),
// rounded into this arithmetic as one of its own results would be: P bits,
// the format's rounding and exponent range. It is the conversion at the
// boundary between two datapaths of different widths, and the identity on
// the arithmetic's own values (for stochastic rounding too: a P-bit value
// needs no rounding).
func (a Arith) Convert(x *big.Float) *big.Float {
	if x.IsInf() {
		return a.newFloat().Set(x)
	}
	if x.Prec() <= a.prec {
		// Representable at P bits: only the exponent range applies (and
		// x itself is returned when it fits: values are immutable).
		return a.exact(x)
	}
	return a.result(opConvert, x, nil, nil, func(z *big.Float) *big.Float { return z.Set(x) })
}

// Add returns x+y rounded to P bits.
func (a Arith) Add(x, y *big.Float) *big.Float {
	if x.IsInf() && y.IsInf() && x.Signbit() != y.Signbit() {
		return a.inf()
	}
	return a.result(opAdd, x, y, nil, func(z *big.Float) *big.Float { return z.Add(x, y) })
}

// Sub returns x-y rounded to P bits.
func (a Arith) Sub(x, y *big.Float) *big.Float {
	if x.IsInf() && y.IsInf() && x.Signbit() == y.Signbit() {
		return a.inf()
	}
	return a.result(opSub, x, y, nil, func(z *big.Float) *big.Float { return z.Sub(x, y) })
}

// Neg returns -x (exact when x has at most P bits, as every value of this
// backend has).
func (a Arith) Neg(x *big.Float) *big.Float { return a.newFloat().Neg(x) }

// Half returns x/2 (exact when the exponent is unbounded; a format with E
// exponent bits flushes a result below its smallest normal to zero).
func (a Arith) Half(x *big.Float) *big.Float { return a.exact(a.newFloat().SetMantExp(x, -1)) }

// Double returns 2x (exact when the exponent is unbounded; a format with E
// exponent bits overflows as its rounding says).
func (a Arith) Double(x *big.Float) *big.Float { return a.exact(a.newFloat().SetMantExp(x, 1)) }

// Mul returns x*y rounded to P bits.
func (a Arith) Mul(x, y *big.Float) *big.Float {
	if (x.IsInf() && y.Sign() == 0) || (y.IsInf() && x.Sign() == 0) {
		return a.inf()
	}
	return a.result(opMul, x, y, nil, func(z *big.Float) *big.Float { return z.Mul(x, y) })
}

// Sqr returns x^2 rounded to P bits.
func (a Arith) Sqr(x *big.Float) *big.Float {
	return a.result(opSqr, x, nil, nil, func(z *big.Float) *big.Float { return z.Mul(x, x) })
}

// Inv returns 1/x rounded to P bits (1/±0 = ±Inf).
func (a Arith) Inv(x *big.Float) *big.Float {
	return a.result(opInv, x, nil, nil, func(z *big.Float) *big.Float { return z.Quo(one, x) })
}

// Div returns x/y rounded to P bits.
func (a Arith) Div(x, y *big.Float) *big.Float {
	if (x.Sign() == 0 && y.Sign() == 0) || (x.IsInf() && y.IsInf()) {
		return a.inf()
	}
	return a.result(opDiv, x, y, nil, func(z *big.Float) *big.Float { return z.Quo(x, y) })
}

// Sqrt returns the square root of x correctly rounded to P bits
// (sqrt(±0) = ±0; a negative x gives +Inf).
func (a Arith) Sqrt(x *big.Float) *big.Float {
	switch {
	case x.Sign() < 0:
		return a.inf()
	case x.Sign() == 0 || x.IsInf():
		return a.newFloat().Set(x)
	}
	return a.result(opSqrt, x, nil, nil, func(z *big.Float) *big.Float { return sqrtRounded(x, z.Prec(), z.Mode()) })
}

// Rint rounds x to the nearest integer, ties to even; see toInt for the
// int64 range.
func (a Arith) Rint(x *big.Float) int64 { return toInt(x, roundEven) }

// Floor rounds x toward minus infinity.
func (a Arith) Floor(x *big.Float) int64 { return toInt(x, roundFloor) }

// Trunc rounds x toward zero.
func (a Arith) Trunc(x *big.Float) int64 { return toInt(x, roundTrunc) }

// Lt reports x < y (-0 and +0 compare equal).
func (a Arith) Lt(x, y *big.Float) bool { return x.Cmp(y) < 0 }

// Float64 returns x rounded to the nearest binary64 value (with binary64's
// overflow to ±Inf and gradual underflow).
func (a Arith) Float64(x *big.Float) float64 {
	f, _ := x.Float64()
	return f
}

// Big returns a copy of x, which is its exact value.
func (a Arith) Big(x *big.Float) *big.Float { return new(big.Float).Copy(x) }

// ExpmP63 approximates 2^63*ccs*exp(-x) for 0 <= x < ln 2, 0 <= ccs <= 1.
//
// The oracle returns the exact value floor(2^63*ccs*exp(-x)): the true
// function truncated to an integer as the reference truncates its result.
// It is computed with enough bits to decide the floor (expmExact).
//
// vprec:P evaluates the same structure as the reference's binary64 code
// with P-bit rounding: e = exp(-x) correctly rounded to P bits, then
// y = e*ccs rounded to P bits, then floor(y*2^63). With P = 53 this is the
// ideal binary64 evaluation, whose error (at most 2 ulps of 2^63 before
// truncation) is below that of the reference's polynomial.
//
// Results outside 0..2^64-1 saturate, and so do inputs far outside the
// domain (|x| >= 2^12, ccs <= 0 or ccs >= 2^12), which are not evaluated.
func (a Arith) ExpmP63(x, ccs *big.Float) uint64 {
	if !inExpmDomain(x, ccs) {
		return saturateUint64(x, ccs)
	}
	if !a.virtual {
		return expmExact(x, ccs, a.prec)
	}
	if a.fm != nil {
		return a.expmPoly(x, ccs)
	}
	e := ExpRounded(new(big.Float).Neg(x), a.prec)
	y := a.newFloat().Mul(e, ccs)
	y.SetMantExp(y, 63)
	return floorUint64(y)
}

// Exp returns exp(x) correctly rounded to P bits (an extra of this backend,
// not part of arith.Arith).
func (a Arith) Exp(x *big.Float) *big.Float { return ExpRounded(x, a.prec) }

var one = big.NewFloat(1)

// Format reports the exponent width, rounding and stochastic-rounding seed
// of a vprec:P:eE arithmetic; ok is false for vprec:P and the oracle
// (unbounded exponent, round to nearest even).
func (a Arith) Format() (expBits int, r Rounding, seed uint64, ok bool) {
	if a.fm == nil {
		return 0, RoundNearestEven, 0, false
	}
	return a.fm.expBits, a.fm.rounding, a.fm.seed, true
}

// ExpmCoefficients returns the FACCT polynomial's coefficients as a
// vprec:P:eE ExpmP63 uses them (rounded to nearest at P bits, then the
// exponent range applied), highest degree first, as new values.
func (a Arith) ExpmCoefficients() []*big.Float {
	c := a.tab.expmCoeffs()
	out := make([]*big.Float, len(c))
	for i, ci := range c {
		out[i] = new(big.Float).Copy(a.exact(ci))
	}
	return out
}
