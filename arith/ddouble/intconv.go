package ddouble

import "math"

// The integer conversions and the comparison are exact on the value
// Hi + Lo. They first renormalise the pair with 2Sum (exact), so that
// s = RN(s + e) and |e| <= ulp(s)/2 even for a pair built by hand. Then:
//
//   - If s is not an integer, |s| < 2^52 and s lies strictly between two
//     integers at a distance of at least ulp(s) from each, while
//     |e| <= ulp(s)/2: s + e lies strictly between the same two integers,
//     so floor, trunc and ceil of s + e are those of s. Rounding to nearest
//     follows s too, unless s is exactly halfway (k + 1/2), where the sign
//     of e decides and e = 0 is a true tie, rounded to even.
//   - If s is an integer, the result is s plus the rounding of e alone
//     (e is then at most 2^10 in magnitude for |s| <= 2^63), with ties of
//     e resolved to make the total even.
//
// Values outside the int64 range saturate as the oracle's do: Hi + Lo >=
// 2^63 (and, for Rint, >= 2^63 - 1/2) gives math.MaxInt64, Hi + Lo < -2^63
// gives math.MinInt64, and so do +Inf and -Inf; NaN gives math.MaxInt64
// (the oracle imports NaN as +Inf).

// intMode selects the rounding of toInt.
type intMode int

const (
	modeRint  intMode = iota // to nearest, ties to even (fpr_rint)
	modeFloor                // toward minus infinity (fpr_floor)
	modeTrunc                // toward zero (fpr_trunc)
)

func (Arith) Rint(x DD) int64  { return toInt(x, modeRint) }
func (Arith) Floor(x DD) int64 { return toInt(x, modeFloor) }
func (Arith) Trunc(x DD) int64 { return toInt(x, modeTrunc) }

func toInt(x DD, mode intMode) int64 {
	s, e := twoSum(x.Hi, x.Lo)
	switch {
	case s != s:
		if math.IsInf(x.Hi, -1) {
			return math.MinInt64
		}
		return math.MaxInt64 // NaN, or +Inf whose 2Sum error is NaN
	case s > 0x1p63 || (s == 0x1p63 && e >= 0):
		return math.MaxInt64
	case s < -0x1p63 || (s == -0x1p63 && e < 0):
		return math.MinInt64
	case s == 0:
		return 0 // then e = 0
	}
	if math.Trunc(s) != s {
		return int64(roundFrac(s, e, mode))
	}
	// s is an integer with |s| <= 2^63 and |e| <= 2^10.
	var d float64
	switch mode {
	case modeFloor:
		d = math.Floor(e)
	case modeTrunc:
		if s > 0 {
			d = math.Floor(e)
		} else {
			d = math.Ceil(e)
		}
	case modeRint:
		d = math.Floor(e)
		switch m := d + 0.5; { // exact: |d| <= 2^10
		case e > m:
			d++
		case e == m:
			// A tie of the whole value: s + d and s + d + 1 are the
			// candidates; keep the even one. The parity of s is that
			// of its int64 value, and 2^63 is even.
			sOdd := s != 0x1p63 && int64(s)&1 != 0
			dOdd := int64(d)&1 != 0
			if sOdd != dOdd {
				d++
			}
		}
	}
	if s == 0x1p63 {
		// The value is below 2^63, so d <= -1, except for Rint of a value
		// in [2^63 - 1/2, 2^63), which saturates.
		if d >= 0 {
			return math.MaxInt64
		}
		return math.MaxInt64 + int64(d+1)
	}
	return int64(s) + int64(d) // no overflow: |s| <= 2^63 - 2^10 or s = -2^63 with d >= 0
}

// roundFrac rounds s + e for a non-integer s (|s| < 2^52), normalised
// with |e| <= ulp(s)/2, as an integer-valued float64.
func roundFrac(s, e float64, mode intMode) float64 {
	f := math.Floor(s)
	switch mode {
	case modeFloor:
		return f
	case modeTrunc:
		return math.Trunc(s)
	}
	switch m := f + 0.5; { // exact: |f| < 2^52
	case s > m, s == m && e > 0:
		return f + 1
	case s == m && e == 0 && math.Mod(f, 2) != 0:
		return f + 1
	}
	return f
}

// Lt reports x < y exactly on the values Hi + Lo: the difference is the
// exact sum of the four terms of two 2Sums, and its sign is found by
// growing those terms into a nonoverlapping expansion (Shewchuk, "Adaptive
// precision floating-point arithmetic and fast robust geometric
// predicates", Discrete Comput. Geom. 18, 1997, Grow-Expansion), whose
// largest nonzero component has the sign of the whole sum. -0 and +0
// compare equal; a NaN compares false; infinities compare by Hi.
func (Arith) Lt(x, y DD) bool {
	if math.IsInf(x.Hi, 0) || math.IsInf(y.Hi, 0) {
		return x.Hi < y.Hi
	}
	s1, e1 := twoSum(x.Hi, -y.Hi)
	s2, e2 := twoSum(x.Lo, -y.Lo)
	// Expansion [e1, s1] grown by e2, then by s2.
	q, h0 := twoSum(e2, e1)
	q, h1 := twoSum(q, s1)
	h2 := q
	q, g0 := twoSum(s2, h0)
	q, g1 := twoSum(q, h1)
	q, g2 := twoSum(q, h2)
	for _, c := range [...]float64{q, g2, g1, g0} {
		if c != 0 {
			return c < 0
		}
	}
	return false
}
