package ddouble

import "math"

// The error-free transforms of binary64 arithmetic on which every
// double-word algorithm rests (Joldes, Muller and Popescu, section 2). Each
// returns a rounded result and its exact error, so that the two sum exactly
// to the mathematical value, as long as nothing overflows and (for twoProd)
// the product's error does not fall below the subnormal range.

// fastTwoSum is Fast2Sum (Dekker, "A floating-point technique for extending
// the available precision", Numerische Mathematik 18, 1971): s = RN(a+b)
// and e = a+b-s exactly, provided the exponent of a is at least that of b
// (in particular when |a| >= |b|, or a = 0 and b = 0).
func fastTwoSum(a, b float64) (s, e float64) {
	s = a + b
	z := s - a
	return s, b - z
}

// twoSum is 2Sum (Knuth, The Art of Computer Programming vol. 2, 4.2.2,
// after Moller 1965): s = RN(a+b) and e = a+b-s exactly, for any a and b.
// Six additions and no branch.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	a1 := s - b
	b1 := s - a1
	return s, (a - a1) + (b - b1)
}

// twoProd is 2Prod with a fused multiply-add: p = RN(a*b) and
// e = a*b-p = RN(a*b-p) exactly, because the error of a rounded product is
// a binary64 number unless it lies below 2^-1074 (|a*b| below about
// 2^-969). math.FMA rounds once on every platform (in software where the
// hardware has no FMA), so this never depends on the compiler.
//
// The conversion float64(a*b) is load-bearing: the Go specification lets a
// compiler fuse a product with a later addition, even across statements,
// unless the product is explicitly converted ("Arithmetic operators").
func twoProd(a, b float64) (p, e float64) {
	p = float64(a * b)
	return p, math.FMA(a, b, -p)
}
