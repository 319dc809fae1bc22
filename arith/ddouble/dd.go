package ddouble

import "math"

// DD is a double-word number: the unevaluated sum Hi + Lo of two binary64
// numbers with Hi = RN(Hi + Lo), hence |Lo| <= ulp(Hi)/2. Every operation
// of this package returns such a normalised pair (its last step is a
// Fast2Sum), and every operation is exact on the value Hi + Lo of its
// operands, not only on Hi. A DD built by hand need not be normalised; the
// arithmetic operations then still run but their error bounds do not
// apply, while the integer conversions, Lt, Float64 and Big normalise first
// and stay exact.
type DD struct {
	Hi, Lo float64
}

// u is the unit roundoff of binary64, 2^-53; the error bounds below are
// stated in units of u^2 = 2^-106.
const u = 0x1p-53

// The double-word algorithms of Joldes, Muller and Popescu, "Tight and
// rigorous error bounds for basic building blocks of double-word
// arithmetic", ACM TOMS 44(2), 2017 (JMP below), with the algorithm numbers
// and relative error bounds of that paper. The bounds assume no underflow
// and no overflow.

// addFP is DWPlusFP (JMP Algorithm 4): x + y for a double-word x and a
// binary64 y. Relative error at most 2u^2 (JMP: 2u^2/(1-2u)).
func addFP(x DD, y float64) DD {
	sh, sl := twoSum(x.Hi, y)
	v := x.Lo + sl
	zh, zl := fastTwoSum(sh, v)
	return DD{zh, zl}
}

// add is AccurateDWPlusDW (JMP Algorithm 6): x + y with relative error at
// most 3u^2/(1-4u) < 3u^2 + 13u^3 (JMP, which corrects the 2u^2 claimed
// earlier), including under cancellation: the two 2Sums keep the
// errors of both the high and the low parts. The cheaper "sloppy"
// addition (JMP Algorithm 5) is not used: it has no relative bound when the
// operands have opposite signs.
//
// A zero sum of two zeros takes the sign IEEE-754 gives x.Hi + y.Hi (-0
// only for -0 + -0); the algorithm itself would return +0. Where the
// error-free transforms meet an infinity (an infinite operand, or
// overflow) they produce NaN; the result is then x.Hi + y.Hi, the IEEE-754
// infinity (or NaN for Inf - Inf), with Lo = 0.
func add(x, y DD) DD {
	sh, sl := twoSum(x.Hi, y.Hi)
	th, tl := twoSum(x.Lo, y.Lo)
	c := sl + th
	vh, vl := fastTwoSum(sh, c)
	w := tl + vl
	zh, zl := fastTwoSum(vh, w)
	switch {
	case zh == 0 && sh == 0:
		zh = sh
	case zh != zh:
		return DD{x.Hi + y.Hi, 0}
	}
	return DD{zh, zl}
}

// neg is exact.
func neg(x DD) DD { return DD{-x.Hi, -x.Lo} }

// mulFP is DWTimesFP1 (JMP Algorithm 7): x * y for a binary64 y, relative
// error at most 1.5u^2 + 4u^3. It is the product that
// JMP's division (Algorithm 17) is proved with.
func mulFP(x DD, y float64) DD {
	ch, cl1 := twoProd(x.Hi, y)
	cl2 := float64(x.Lo * y)
	th, tl1 := fastTwoSum(ch, cl2)
	tl2 := tl1 + cl1
	zh, zl := fastTwoSum(th, tl2)
	return DD{zh, zl}
}

// mul is DWTimesDW3 (JMP Algorithm 12), the product with fused
// multiply-adds: x * y with relative error at most 5u^2.
// The product of the two low parts only enters through the FMAs. A zero,
// infinite or NaN product of the high parts (a zero or non-finite operand,
// barring underflow; overflow) is returned as it is, with Lo = 0: that
// keeps IEEE-754's sign of a zero, which the algorithm's last addition
// would lose, and its infinities, which the FMAs would turn into NaN.
func mul(x, y DD) DD {
	ch, cl1 := twoProd(x.Hi, y.Hi)
	if ch == 0 || ch-ch != 0 {
		return DD{ch, 0}
	}
	tl0 := float64(x.Lo * y.Lo)
	tl1 := math.FMA(x.Hi, y.Lo, tl0)
	cl2 := math.FMA(x.Lo, y.Hi, tl1)
	cl3 := cl1 + cl2
	zh, zl := fastTwoSum(ch, cl3)
	return DD{zh, zl}
}

// div is DWDivDW2 (JMP Algorithm 17): x / y with relative error at most
// 15u^2 + 56u^3. The quotient of the high parts is
// corrected once: r = y*th (Algorithm 7), the remainder x - r is formed
// with xh - rh exact (Sterbenz: rh is within a few ulps of xh), and its
// quotient by yh is the low part.
//
// A zero, infinite or NaN quotient of the high parts (x or y zero or
// non-finite) is returned as it is, with Lo = 0, as IEEE-754 division
// gives it.
func div(x, y DD) DD {
	th := x.Hi / y.Hi
	if th == 0 || th-th != 0 {
		return DD{th, 0}
	}
	r := mulFP(y, th)
	ph := x.Hi - r.Hi
	dl := x.Lo - r.Lo
	d := ph + dl
	tl := d / y.Hi
	zh, zl := fastTwoSum(th, tl)
	return DD{zh, zl}
}

// inv is div(1, y), written out: the same bound, 15u^2 + 56u^3, and the
// same treatment of zeros and non-finite values (1/±0 = ±Inf).
func inv(y DD) DD {
	th := 1 / y.Hi
	if th == 0 || th-th != 0 {
		return DD{th, 0}
	}
	r := mulFP(y, th)
	ph := 1 - r.Hi
	d := ph - r.Lo
	tl := d / y.Hi
	zh, zl := fastTwoSum(th, tl)
	return DD{zh, zl}
}

// sqrt is SQRTDWtoDW of Lefevre, Louvet, Muller, Picot and Rideau,
// "Accurate calculation of Euclidean norms using double-word arithmetic",
// ACM TOMS 49(1), 2023: one Newton correction of the binary64 root sh of
// xh, sl = (xh - sh^2 + xl) / (2 sh), with xh - sh^2 computed exactly by an
// FMA (the residual of a correctly rounded square root is a binary64
// number). Relative error at most 25u^2/8. Zeros keep
// their sign, +Inf stays +Inf and a negative x gives NaN, as math.Sqrt.
func sqrt(x DD) DD {
	if x.Hi <= 0 || math.IsInf(x.Hi, 1) || x.Hi != x.Hi {
		return DD{math.Sqrt(x.Hi), 0}
	}
	sh := math.Sqrt(x.Hi)
	r1 := math.FMA(-sh, sh, x.Hi)
	r2 := x.Lo + r1
	sl := r2 / float64(2*sh)
	zh, zl := fastTwoSum(sh, sl)
	return DD{zh, zl}
}

// AbsDiff returns |b - x| exactly as math.Abs(Float64(Sub(FromFloat64(b),
// x))) rounds it, for the error of a binary64 value b against a double
// word x, with the work a zero low part of the first operand makes trivial
// left out: in add, the 2Sum of the low parts is then exactly (-x.Lo, 0),
// so the sum of the errors is sl - x.Lo and the last correction adds 0.
// The two computations differ at most in the signs of zeros, which the
// absolute value removes. A non-finite intermediate (an infinite or NaN
// operand, overflow) takes add itself.
func AbsDiff(b float64, x DD) float64 {
	sh, sl := twoSum(b, -x.Hi)
	vh, vl := fastTwoSum(sh, sl-x.Lo)
	zh, zl := fastTwoSum(vh, vl)
	switch {
	case zh-zh != 0:
		return math.Abs(Arith{}.Float64(add(DD{b, 0}, neg(x))))
	case zl == 0:
		return math.Abs(zh)
	}
	return math.Abs(zh + zl)
}
