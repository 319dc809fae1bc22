package vfloat

import (
	"math/bits"
)

// The exact cores of the rounded operations. Each takes finite nonzero
// operands, computes the exact result as a normalised integer of at least
// 128 bits plus a sticky flag (see round), and returns it rounded to prec
// bits together with the exponent of the exact result (before rounding),
// which the exponent range needs (Arith.fit).

// shiftRight3 returns the 128-bit w0 w1, followed by a zero word, shifted
// right by d bits into three words, and whether a nonzero bit was shifted
// out of them.
func shiftRight3(w0, w1 uint64, d uint64) (r0, r1, r2 uint64, sticky bool) {
	switch {
	case d == 0:
		return w0, w1, 0, false
	case d < 64:
		return w0 >> d, w1>>d | w0<<(64-d), w1 << (64 - d), false
	case d == 64:
		return 0, w0, w1, false
	case d < 128:
		return 0, w0 >> (d - 64), w0<<(128-d) | w1>>(d-64), w1<<(128-d) != 0
	case d == 128:
		return 0, 0, w0, w1 != 0
	case d < 192:
		return 0, 0, w0 >> (d - 128), w0<<(192-d) != 0 || w1 != 0
	}
	return 0, 0, 0, true
}

// addExact returns x+y for finite nonzero x, y with |x+y| != 0.
//
// The smaller operand is aligned to the larger within 192 bits; what falls
// beyond is a sticky flag. A sum gains at most one bit. A difference with
// sticky set has operands at least 65 bits apart, so it loses at most one
// leading bit: the sticky amount is subtracted as one unit in the last of
// the 192 bits with the flag kept (the true value lies strictly between the
// integer and the next one), and the normalising shift moves only that
// last bit, 63 or more places below any round bit. Without sticky the
// difference is exact and any normalising shift is too.
func addExact(x, y V, prec uint, rz bool) (V, int64) {
	c := cmpAbs(x, y)
	if c < 0 {
		x, y = y, x
	}
	y0, y1, y2, st := shiftRight3(y.hi, y.lo, uint64(int64(x.exp)-int64(y.exp)))
	exp := int64(x.exp)
	var s0, s1, s2 uint64
	if x.isNeg() == y.isNeg() {
		var cy uint64
		s2 = y2
		s1, cy = bits.Add64(x.lo, y1, 0)
		s0, cy = bits.Add64(x.hi, y0, cy)
		if cy != 0 {
			st = st || s2&1 != 0
			s2 = s2>>1 | s1<<63
			s1 = s1>>1 | s0<<63
			s0 = s0>>1 | 1<<63
			exp++
		}
		return round(x.isNeg(), exp, s0, s1, s2, st, prec, rz), exp
	}
	var bw uint64
	extra := uint64(0)
	if st {
		extra = 1
	}
	s2, bw = bits.Sub64(0, y2, 0)
	s2, bw2 := bits.Sub64(s2, extra, 0)
	s1, bw = bits.Sub64(x.lo, y1, bw+bw2)
	s0, _ = bits.Sub64(x.hi, y0, bw)
	var n int
	switch {
	case s0 != 0:
		n = bits.LeadingZeros64(s0)
	case s1 != 0:
		n = 64 + bits.LeadingZeros64(s1)
	default:
		n = 128 + bits.LeadingZeros64(s2)
	}
	s0, s1, s2 = shiftLeft3(s0, s1, s2, uint(n))
	exp -= int64(n)
	return round(x.isNeg(), exp, s0, s1, s2, st, prec, rz), exp
}

// shiftLeft3 shifts the 192-bit w0 w1 w2 left by n < 192 bits.
func shiftLeft3(w0, w1, w2 uint64, n uint) (uint64, uint64, uint64) {
	for n >= 64 {
		w0, w1, w2 = w1, w2, 0
		n -= 64
	}
	if n == 0 {
		return w0, w1, w2
	}
	return w0<<n | w1>>(64-n), w1<<n | w2>>(64-n), w2 << n
}

// mulExact returns x*y for finite nonzero x, y: the 256-bit product of the
// significands, its last word folded into sticky.
func mulExact(x, y V, prec uint, rz bool) (V, int64) {
	neg := x.isNeg() != y.isNeg()
	exp := int64(x.exp) + int64(y.exp)
	var w0, w1, w2, w3 uint64
	if x.lo == 0 && y.lo == 0 {
		w0, w1 = bits.Mul64(x.hi, y.hi)
	} else {
		h1, l1 := bits.Mul64(x.lo, y.lo)
		h2, l2 := bits.Mul64(x.hi, y.lo)
		h3, l3 := bits.Mul64(x.lo, y.hi)
		h4, l4 := bits.Mul64(x.hi, y.hi)
		var c, c2 uint64
		w3 = l1
		w2, c = bits.Add64(h1, l2, 0)
		w2, c2 = bits.Add64(w2, l3, 0)
		w1, c = bits.Add64(h2, h3, c+c2)
		w0 = c // carry of h2+h3 (the sum of three words fits two)
		w1, c = bits.Add64(w1, l4, 0)
		w0 += h4 + c
	}
	if w0>>63 == 0 { // the product of two significands in [1/2, 1) is in [1/4, 1)
		w0 = w0<<1 | w1>>63
		w1 = w1<<1 | w2>>63
		w2 = w2<<1 | w3>>63
		w3 <<= 1
		exp--
	}
	return round(neg, exp, w0, w1, w2, w3 != 0, prec, rz), exp
}

// divStep divides the three-word r0 r1 0 by the two-word v0 v1 (v0's top
// bit set, r0 r1 < v0 v1) and returns the quotient digit and the remainder
// (Knuth, The Art of Computer Programming vol. 2, 4.3.1, Algorithm D, with
// base 2^64 and a divisor of two digits: the estimate from the leading
// digits is corrected by the second divisor digit to at most one too
// large, and the add-back step removes that).
func divStep(r0, r1, v0, v1 uint64) (q, n0, n1 uint64) {
	var rhat uint64
	overflow := false
	if r0 >= v0 {
		q = ^uint64(0)
		var c uint64
		rhat, c = bits.Add64(r1, v0, 0) // r0 r1 - q*v0 with r0 = v0
		overflow = c != 0
	} else {
		q, rhat = bits.Div64(r0, r1, v0)
	}
	for !overflow {
		ph, pl := bits.Mul64(q, v1)
		if ph < rhat || (ph == rhat && pl == 0) {
			break
		}
		q--
		var c uint64
		rhat, c = bits.Add64(rhat, v0, 0)
		overflow = c != 0
	}
	a1, a2 := bits.Mul64(q, v1)
	b0, b1 := bits.Mul64(q, v0)
	m1, c := bits.Add64(a1, b1, 0)
	m0 := b0 + c
	d2, bw := bits.Sub64(0, a2, 0)
	d1, bw := bits.Sub64(r1, m1, bw)
	_, bw = bits.Sub64(r0, m0, bw)
	if bw != 0 {
		q--
		d2, c = bits.Add64(d2, v1, 0)
		d1, _ = bits.Add64(d1, v0, c)
	}
	return q, d1, d2
}

// quoExact returns x/y for finite nonzero x, y: the quotient of the
// significands to 128 or 129 bits and whether the remainder is nonzero.
func quoExact(x, y V, prec uint, rz bool) (V, int64) {
	neg := x.isNeg() != y.isNeg()
	exp := int64(x.exp) - int64(y.exp)
	r0, r1 := x.hi, x.lo
	top := x.hi > y.hi || (x.hi == y.hi && x.lo >= y.lo)
	if top {
		var bw uint64
		r1, bw = bits.Sub64(r1, y.lo, 0)
		r0, _ = bits.Sub64(r0, y.hi, bw)
	}
	q1, r0, r1 := divStep(r0, r1, y.hi, y.lo)
	q2, r0, r1 := divStep(r0, r1, y.hi, y.lo)
	st := r0|r1 != 0
	w0, w1, w2 := q1, q2, uint64(0)
	if top {
		w0, w1, w2 = 1<<63|q1>>1, q1<<63|q2>>1, q2<<63
		exp++
	}
	return round(neg, exp, w0, w1, w2, st, prec, rz), exp
}
