package triword

import "math"

// The error-free transforms of Fabiano, Muller and Picot, section 2, on
// binary32. Every function here is exact in the sense the paper states
// (its results sum exactly to the mathematical value), except where a
// product error falls below binary32's subnormal range (see the package
// documentation on underflow). Sums are always exact under gradual
// underflow: the error of a binary32 addition is itself a binary32 number.

// fastTwoSum is Algorithm 1 (Fast2Sum): s = RN(a+b) and e = a+b-s, exact
// provided the exponent of b does not exceed that of a (in particular
// when |a| >= |b|). Callers that cannot prove the ordering use
// fastTwoSumSorted.
func fastTwoSum(a, b float32) (s, e float32) {
	s = a + b
	z := s - a
	return s, b - z
}

// fastTwoSumSorted is Fast2Sum preceded by a magnitude test ("Fast2SumS" of
// the formal proof), exact for all inputs. It is the repair of the
// erratum in the appendix products (Algorithms 18 and 20), which call
// Fast2Sum on arguments whose order is not guaranteed.
func fastTwoSumSorted(a, b float32) (s, e float32) {
	if abs32(b) > abs32(a) {
		a, b = b, a
	}
	return fastTwoSum(a, b)
}

// twoSum is Algorithm 2 (2Sum, Knuth/Moller): s = RN(a+b) and
// e = a+b-s exactly, with no condition on a and b.
func twoSum(a, b float32) (s, e float32) {
	s = a + b
	a1 := s - b
	b1 := s - a1
	da := a - a1
	db := b - b1
	return s, da + db
}

// twoProd is Algorithm 3 (2Prod): p = RN(a*b) and e = a*b-p. The paper
// computes e with an FMA; here the product of two binary32 numbers (at
// most 48 significant bits) is exact in binary64, so e is the binary64
// difference of the exact product and p, which is exact too, rounded to
// binary32, which is exact unless e is below the subnormal range.
//
// Both conversions are load-bearing: float32(a*b) makes p a rounded
// binary32 product that the compiler may not fuse into the following
// subtraction, and float64(float64(a)*float64(b)) keeps the exact product
// as an explicitly rounded (here: exactly representable) value, so the
// subtraction cannot be contracted into an FMA either (the Go
// specification, "Arithmetic operators": an explicit floating-point
// conversion rounds to the target precision and prevents fusion).
func twoProd(a, b float32) (p, e float32) {
	p = float32(a * b)
	e = float32(float64(float64(a)*float64(b)) - float64(p))
	return p, e
}

// fma32 returns RN(a*b + c) in binary32 with a single rounding, the FMA
// that the paper's algorithms assume, without any FMA instruction.
//
// The product p = a*b is exact in binary64, so s = RN53(p + c) is one
// binary64 rounding of the exact value x. Rounding s again to binary32
// gives RN24(x) unless s is exactly a binary32 midpoint: RN53 is monotone
// and every binary32 midpoint of the normal range is a binary64 number, so
// s lies on the same side of each midpoint as x, or on it. So float32(s)
// is returned at once unless s is such a midpoint (the 29 bits below
// binary32's last significand bit are 1000...0) or lies below binary32's
// normal range (where the midpoints sit higher).
//
// Those rare cases take the round-to-odd sum: the error e of p + c is
// computed by 2Sum, and if the sum was inexact and the last bit of s is
// even, s is moved one unit toward the exact value. Rounding a
// round-to-odd value with at least p+2 bits to p bits gives the correctly
// rounded result (Boldo and Melquiond, "Emulation of FMA and correctly
// rounded sums: proved algorithms using rounding to odd", IEEE TC 2008);
// 53 >= 24+2, also for subnormal binary32 results. Applied to every
// input (TestFMA32 does), it gives the same results as the shortcut: an
// adjusted s is odd, hence never a midpoint, and adjacent to the
// unadjusted one, so both round to the same binary32 value.
func fma32(a, b, c float32) float32 {
	if r, ok := fma32Fast(a, b, c); ok {
		return r
	}
	p := float64(float64(a) * float64(b))
	q := float64(c)
	return roundToOdd32(p, q, p+q)
}

// fma32Fast is fma32's shortcut alone: float32(RN53(a*b + c)) and whether
// that is RN(a*b + c), which it is unless the binary64 sum is a binary32
// midpoint or lies below binary32's normal range (see fma32). It is small
// enough to inline, where fma32 with its round-to-odd branch is not: the
// products call it for their three FMAs and take fma32 for all three in
// the rare case that one of the shortcuts does not apply, so the usual
// case costs no call and one branch. Its results are fma32's, bit for bit.
func fma32Fast(a, b, c float32) (float32, bool) {
	s := float64(float64(a)*float64(b)) + float64(c)
	const midpoint, lowBits = 1 << 28, 1<<29 - 1
	const minNormal32 = 0x3810000000000000 // bits of 2^-126, binary32's smallest normal
	u := math.Float64bits(s)
	return float32(s), u&lowBits != midpoint && u<<1 >= minNormal32<<1
}

// roundToOdd32 returns float32 of the round-to-odd sum of p and q at 53
// bits, given s = RN53(p + q) (see fma32).
func roundToOdd32(p, q, s float64) float32 {
	q1 := s - p
	p1 := s - q1
	e := (p - p1) + (q - q1)
	if e != 0 {
		if u := math.Float64bits(s); u&1 == 0 {
			// Move |s| up when the exact value lies farther from zero
			// than s, down otherwise (sign-magnitude encoding).
			if (e > 0) == (s > 0) {
				u++
			} else {
				u--
			}
			s = math.Float64frombits(u)
		}
	}
	return float32(s)
}

// vecSum is Algorithm 4 (VecSum) in place: it replaces x by a vector with
// the same exact sum, computed by a chain of 2Sums from the least
// significant end. x[0] becomes RN of (roughly) the whole sum.
func vecSum(x []float32) {
	n := len(x)
	s := x[n-1]
	for i := n - 2; i >= 0; i-- {
		s, x[i+1] = twoSum(x[i], s)
	}
	x[0] = s
}

// vseb is Algorithm 5 (VecSumErrBranch) truncated to len(out) terms,
// VSEB(k) in the paper: it renormalises e (the output of a VecSum) into a
// P-nonoverlapping vector, skipping zero error terms, and keeps the first
// len(out) terms. out must be zero on entry; terms beyond the vector's
// length stay zero. len(e) >= 2.
func vseb(e []float32, out []float32) {
	n := len(e)
	j := 0
	eps := e[0]
	for i := 1; i < n-1; i++ {
		eps, j = vsebStep(out, j, eps, e[i])
	}
	vsebEnd(out, j, eps, e[n-1])
}

// vsebStep is one iteration of VSEB's loop: the 2Sum of the running eps
// and the next term v; a nonzero error emits the sum as output term j
// (kept if j < len(out)) and carries the error on. It returns the new eps
// and j. The kernels call it directly, unrolled (vseb's loop does not
// inline).
func vsebStep(out []float32, j int, eps, v float32) (float32, int) {
	r, t := twoSum(eps, v)
	if t == 0 {
		return r, j
	}
	if j < len(out) {
		out[j] = r
	}
	return t, j + 1
}

// vsebEnd is VSEB's final 2Sum of eps and the last term v, emitted as
// output terms j and j+1 (those below len(out)).
func vsebEnd(out []float32, j int, eps, v float32) {
	y0, y1 := twoSum(eps, v)
	if j < len(out) {
		out[j] = y0
	}
	if j+1 < len(out) {
		out[j+1] = y1
	}
}

// abs32 is |x| by clearing the sign bit.
func abs32(x float32) float32 {
	return math.Float32frombits(math.Float32bits(x) &^ (1 << 31))
}
