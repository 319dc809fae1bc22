package oracle

import (
	"math"
	"math/big"
)

// sqrtRounded returns the square root of a finite x > 0 correctly rounded to
// p bits in the given mode (ties to even for big.ToNearestEven).
//
// Write x = M*2^E with M an integer, scale M by an even power of two until
// its integer square root R = floor(sqrt(M*2^s)) has at least p+2 bits,
// and append a sticky bit when the root is inexact (R -> 2R+1 at half the
// weight). The true root lies strictly between R and R+1; with p+2 bits no
// p-bit rounding boundary (neither a representable value nor a midpoint)
// falls strictly inside that interval, so rounding the sticky value rounds
// the true root the same way (in any rounding mode: no boundary lies between
// the two). big.Float.Sqrt computes with 32 guard bits
// and no sticky information, which can misround near midpoints.
func sqrtRounded(x *big.Float, p uint, mode big.RoundingMode) *big.Float {
	mant := new(big.Float)
	e := x.MantExp(mant) // x = mant * 2^e, 1/2 <= mant < 1
	k := int(mant.MinPrec())
	m, _ := new(big.Float).SetMantExp(mant, k).Int(nil) // x = m * 2^(e-k), exact
	s := 2*int(p) + 4 - m.BitLen()
	if s < 0 {
		s = 0
	}
	if (e-k-s)%2 != 0 {
		s++
	}
	m.Lsh(m, uint(s))
	r := new(big.Int).Sqrt(m)
	ex := (e - k - s) / 2
	if new(big.Int).Mul(r, r).Cmp(m) != 0 {
		r.Lsh(r, 1)
		r.SetBit(r, 0, 1)
		ex--
	}
	z := new(big.Float).SetPrec(p).SetMode(mode).SetInt(r)
	return z.SetMantExp(z, ex)
}

// intRounding selects the rounding of toInt.
type intRounding int

const (
	roundEven  intRounding = iota // to nearest, ties to even (fpr_rint)
	roundFloor                    // toward minus infinity (fpr_floor)
	roundTrunc                    // toward zero (fpr_trunc)
)

var (
	two63    = new(big.Float).SetMantExp(big.NewFloat(1), 63)
	minus263 = new(big.Float).Neg(two63)
	oneHalf  = big.NewFloat(0.5)
)

// toInt rounds x to an integer exactly. Values whose rounded result falls
// outside the int64 range saturate to math.MinInt64 or math.MaxInt64 (the
// reference assumes |x| < 2^63 and leaves the rest undefined).
func toInt(x *big.Float, mode intRounding) int64 {
	if x.Cmp(two63) >= 0 {
		return math.MaxInt64
	}
	if x.Cmp(minus263) < 0 {
		return math.MinInt64
	}
	t, _ := x.Int64() // truncated toward zero; |x| < 2^63 or x = -2^63, so it fits
	if mode == roundTrunc {
		return t
	}
	// frac = x - t, exactly: it has no more significant bits than x.
	frac := new(big.Float).SetPrec(x.Prec()+64).Sub(x, new(big.Float).SetInt64(t))
	switch mode {
	case roundFloor:
		if frac.Sign() < 0 {
			t--
		}
	case roundEven:
		c := new(big.Float).Abs(frac).Cmp(oneHalf)
		if c > 0 || (c == 0 && t&1 != 0) {
			switch {
			case frac.Sign() > 0 && t == math.MaxInt64:
				// x >= 2^63 - 1/2 rounds to 2^63: saturate.
			case frac.Sign() > 0:
				t++
			default:
				t--
			}
		}
	}
	return t
}

// floorUint64 returns floor(y) for y >= 0, 0 for y < 0, and 2^64-1 when
// floor(y) does not fit.
func floorUint64(y *big.Float) uint64 {
	u, _ := y.Uint64() // truncates toward zero and saturates as documented above
	return u
}

// expRelErrLog2 bounds the relative error of expApprox at working
// precision w as 2^(expRelErrLog2 - w); the analysis at expApprox gives
// 2^(1-w), and the margin keeps 11 more bits in reserve.
const expRelErrLog2 = 12

// expApprox returns an approximation of exp(x) at w bits with relative
// error below 2^(1-w) (the final rounding to w bits plus at most
// 2^(-16-w) before it), for a finite x with |x| < 2^32.
//
// Argument reduction: r = x/2^k with |r| < 2^-K (exact: only the exponent
// changes), the Taylor series of exp(r) until a term falls below 2^-wp,
// then k squarings. With N terms, the series carries a relative error of at
// most about (N+6)*2^-wp (each term has at most 3n roundings of 2^-wp, and
// the terms shrink by 2^-K each); each squaring doubles the relative error
// and adds 2^-wp, so the result is within 2^k*(N+6)*2^-wp. The working
// precision wp = w+k+32 makes that at most 2^(-16-w) for N < 2^16; the
// result is then rounded to w bits.
//
// This replaces bigfloat.Exp (Newton's iteration on an AGM logarithm),
// which is 40 times slower at 320 bits: the oracle evaluates an exponential
// in every ExpmP63, thousands of times per signature. The tests check both
// against each other and against a plain Taylor series.
func expApprox(x *big.Float, w uint) *big.Float {
	if x.Sign() == 0 {
		return new(big.Float).SetPrec(w).SetInt64(1)
	}
	reduce := max(8, int(sqrtUint(w))/2) // K
	k := max(0, x.MantExp(nil)+reduce)
	wp := w + uint(k) + 32
	r := new(big.Float).SetPrec(wp).SetMantExp(x, -k)
	sum := new(big.Float).SetPrec(wp).SetInt64(1)
	term := new(big.Float).SetPrec(wp).SetInt64(1)
	tmp := new(big.Float).SetPrec(wp)
	for n := int64(1); ; n++ {
		term.Mul(term, r)
		term.Quo(term, tmp.SetInt64(n))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil) < -int(wp) {
			break
		}
	}
	for range k {
		sum.Mul(sum, sum)
	}
	return sum.SetPrec(w)
}

// sqrtUint returns floor(sqrt(n)) for small n.
func sqrtUint(n uint) uint {
	r := uint(0)
	for (r+1)*(r+1) <= n {
		r++
	}
	return r
}

// expBracket returns lo <= exp(x) <= hi, both at w bits, from one
// evaluation of expApprox widened by its error margin. |x| < 2^32.
func expBracket(x *big.Float, w uint) (lo, hi *big.Float) {
	e := expApprox(x, w)
	margin := new(big.Float).SetMantExp(e, expRelErrLog2-int(w))
	margin.Abs(margin)
	lo = new(big.Float).SetPrec(w).SetMode(big.ToNegativeInf).Sub(e, margin)
	hi = new(big.Float).SetPrec(w).SetMode(big.ToPositiveInf).Add(e, margin)
	return lo, hi
}

// maxZivPrec caps the working precision of the rounding loops below. The
// loops end long before it for every input (see ExpRounded); the cap only
// bounds the running time should the error margin ever be violated.
const maxZivPrec = 1 << 15

// expArgLimit bounds the arguments the exponential is evaluated for:
// exp(±2^32) is beyond big.Float's exponent range.
var expArgLimit = new(big.Float).SetMantExp(big.NewFloat(1), 32)

// ExpRounded returns exp(x) correctly rounded to p bits (ties to even).
//
// It evaluates a bracket [lo, hi] of exp(x) at p+64 bits and returns the
// common rounding of both ends; when they round differently (the value is
// close to a rounding boundary) it doubles the working precision and
// retries (Ziv's strategy). For a nonzero dyadic x, exp(x) is
// transcendental, never a boundary, so the loop ends. Arguments beyond
// ±2^32 give +Inf or +0.
func ExpRounded(x *big.Float, p uint) *big.Float {
	z := new(big.Float).SetPrec(p)
	switch {
	case x.Sign() == 0:
		return z.SetInt64(1)
	case x.IsInf() && x.Sign() < 0:
		return z
	case x.IsInf():
		return z.SetInf(false)
	case new(big.Float).Abs(x).Cmp(expArgLimit) >= 0:
		if x.Sign() > 0 {
			return z.SetInf(false)
		}
		return z
	}
	for w := p + expGuardBits; ; w *= 2 {
		lo, hi := expBracket(x, w)
		rlo := new(big.Float).SetPrec(p).Set(lo)
		rhi := new(big.Float).SetPrec(p).Set(hi)
		if rlo.Cmp(rhi) == 0 || w >= maxZivPrec {
			return rlo
		}
	}
}

// expmDomain bounds the inputs ExpmP63 evaluates: |x| < 2^12 and
// 0 < ccs < 2^12, far beyond the reference's domain (0 <= x < ln 2,
// 0 <= ccs <= 1). Outside it the result saturates.
var expmDomain = new(big.Float).SetMantExp(big.NewFloat(1), 12)

// saturateUint64 is ExpmP63 outside its evaluated domain: 0 when the true
// value is clearly tiny or negative, 2^64-1 when it is clearly huge. Inputs
// there are meaningless to Falcon; the rule only keeps the backend total.
func saturateUint64(x, ccs *big.Float) uint64 {
	switch {
	case ccs.Sign() <= 0:
		return 0
	case x.Sign() > 0 && x.Cmp(expmDomain) >= 0:
		return 0
	}
	return math.MaxUint64
}

// inExpmDomain reports whether ExpmP63 evaluates (x, ccs) rather than
// saturating.
func inExpmDomain(x, ccs *big.Float) bool {
	if x.IsInf() || ccs.IsInf() || ccs.Sign() <= 0 {
		return false
	}
	return new(big.Float).Abs(x).Cmp(expmDomain) < 0 && ccs.Cmp(expmDomain) < 0
}

// expmExact returns floor(2^63*ccs*exp(-x)), exactly, saturated to the
// uint64 range.
//
// A bracket of exp(-x) is multiplied by ccs and 2^63 with outward
// rounding; when both ends have the same floor, that is the answer,
// otherwise the precision doubles. x = 0 is computed exactly. For x != 0
// the value is transcendental, never an integer, so the loop ends.
func expmExact(x, ccs *big.Float, p uint) uint64 {
	if !inExpmDomain(x, ccs) {
		return saturateUint64(x, ccs)
	}
	if x.Sign() == 0 {
		y := new(big.Float).SetMantExp(ccs, 63) // exact
		return floorUint64(y)
	}
	negx := new(big.Float).Neg(x)
	for w := max(p, MinPrec) + expGuardBits; ; w *= 2 {
		lo, hi := expBracket(negx, w)
		lo.Mul(lo, ccs) // lo and hi keep their outward rounding modes
		hi.Mul(hi, ccs)
		lo.SetMantExp(lo, 63)
		hi.SetMantExp(hi, 63)
		flo, fhi := floorUint64(lo), floorUint64(hi)
		if flo == fhi || w >= maxZivPrec {
			return flo
		}
	}
}
