package vfloat

import "math"

// intRounding selects the rounding of toInt.
type intRounding int

const (
	roundEven  intRounding = iota // to nearest, ties to even (fpr_rint)
	roundFloor                    // toward minus infinity (fpr_floor)
	roundTrunc                    // toward zero (fpr_trunc)
)

// toInt rounds x to an integer exactly, as the reference's: results
// outside the int64 range saturate to math.MinInt64 or math.MaxInt64.
//
// |x| lies in [2^(exp-1), 2^exp). With exp >= 64 it is at least 2^63 (the
// one such value in range, -2^63, is math.MinInt64 itself); with exp <= 0
// it is below 1; otherwise the integer part is the top exp bits of the
// significand and the rest is the fraction.
func toInt(x V, mode intRounding) int64 {
	switch {
	case x.cls() == zero:
		return 0
	case x.cls() == inf || x.exp >= 64:
		if x.isNeg() {
			return math.MinInt64
		}
		return math.MaxInt64
	}
	var t uint64              // |x| truncated
	var fracHi, fracLo uint64 // the fraction, left-aligned: 0.fracHi fracLo
	if x.exp <= 0 {
		t = 0
		if x.exp == 0 {
			fracHi, fracLo = x.hi, x.lo
		} else {
			fracHi = 1 // below one half and nonzero: only its being nonzero and below 1/2 matters
		}
	} else {
		e := uint(x.exp)
		t = x.hi >> (64 - e)
		fracHi, fracLo = x.hi<<e|x.lo>>(64-e), x.lo<<e
	}
	nonzero := fracHi|fracLo != 0
	up := false // increment the magnitude
	switch mode {
	case roundFloor:
		up = x.isNeg() && nonzero
	case roundEven:
		half := fracHi > 1<<63 || (fracHi == 1<<63 && fracLo != 0)
		tie := fracHi == 1<<63 && fracLo == 0
		up = half || (tie && t&1 != 0)
	}
	if up {
		t++
	}
	if x.isNeg() {
		return -int64(t) // t <= 2^63; -2^63 wraps to MinInt64, as wanted
	}
	if t > math.MaxInt64 {
		return math.MaxInt64
	}
	return int64(t)
}
