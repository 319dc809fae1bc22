package vfloat

import (
	"math"
	"math/big"
	"math/bits"
	"sync"

	"github.com/fprlab/fprlab/arith/oracle"
)

// ExpmP63 approximates 2^63*ccs*exp(-x) as the reference's vprec does:
// for vprec:P, e = exp(-x) correctly rounded to P bits, y = e*ccs rounded
// to P bits, then floor(2^63*y) (Arith.ExpmP63 of package oracle); for
// vprec:P:eE the FACCT polynomial evaluated by Horner's rule in the
// format, then the product with ccs, an exact scaling by 2^63 and
// truncation. Inputs outside |x| < 2^12, 0 < ccs < 2^12 saturate as the
// reference's.
func (a Arith) ExpmP63(x, ccs V) uint64 {
	if x.cls() == inf || ccs.cls() == inf || ccs.sign() <= 0 || (x.cls() == finite && x.exp > 12) || ccs.exp > 12 {
		switch {
		case ccs.sign() <= 0:
			return 0
		case x.sign() > 0 && (x.cls() == inf || x.exp > 12):
			return 0
		}
		return math.MaxUint64
	}
	if a.fm == nil {
		e, ok := expNeg(x, a.prec)
		if !ok {
			return a.ref.ExpmP63(a.toBig(x), a.toBig(ccs))
		}
		y, _ := mulExact(e, ccs, a.prec, false)
		return floor63(y)
	}
	c := a.tab.expmCoeffs()
	y := c[0]
	for _, ci := range c[1:] {
		y = a.Sub(ci, a.Mul(y, x))
	}
	return floor63(a.Mul(y, ccs))
}

// floor63 returns floor(2^63*y) saturated to the uint64 range (0 for
// y <= 0), as the reference's conversion.
func floor63(y V) uint64 {
	e := int64(y.exp) + 63 // 2^63*y = 0.hi lo * 2^e
	switch {
	case y.sign() <= 0:
		return 0
	case y.cls() == inf || e > 64:
		return math.MaxUint64
	case e <= 0:
		return 0
	}
	return y.hi >> (64 - e)
}

// fix is the unit of expNeg's fixed-point numbers: an integer I of 128
// bits stands for I * 2^-fix, so 1 is 2^127.
const fix = 127

// expNegTab holds exp(-k/64) for k = 0..63 as fixed-point numbers,
// truncated (each within 2^-127 + 2^-190 below the true value).
var expNegTab = sync.OnceValue(func() (t [64][2]uint64) {
	for k := range t {
		x := new(big.Float).SetPrec(200).SetInt64(int64(-k))
		x.Quo(x, big.NewFloat(64))
		e := oracle.ExpRounded(x, 200) // relative error below 2^-199
		i, _ := e.SetMantExp(e, fix).Int(nil)
		t[k][1] = i.Uint64()
		t[k][0] = i.Rsh(i, 64).Uint64()
	}
	return t
})

// expNeg returns exp(-x) correctly rounded to nearest at prec bits for
// 0 <= x < 1, or false where it cannot decide (then the caller asks the
// reference).
//
// It computes a fixed-point approximation E with |E - exp(-x)| below
// 2^-120 (the bound, proved below, is 7 units of 2^-127), rounds E -
// 2^-120 and E + 2^-120 to prec bits and returns the common result: the
// rounding is monotone, so a true value between the two rounds to it too
// (Ziv's strategy). The two differ only when exp(-x) lies within 2^-120 of
// a rounding boundary, rare below 110 bits.
//
// Error bound, in units u = 2^-127. X = floor(x/u), |x - X u| < u, which
// changes exp(-x) by less than u. X u = k/64 + r with 0 <= r < 1/64;
// exp(-X u) = exp(-k/64) exp(-r). The table entry T is within 1.01u of
// exp(-k/64). exp(-r) is Horner's rule on the Taylor polynomial of degree
// 14, t <- 1 - r t / j for j = 14..1, each step's product and quotient
// truncated (less than 2u), and an error in t enters the next step
// multiplied by r/j < 1/64: the computed t is within 2.1u of the
// polynomial, which is within r^15/15! < 2^-130 of exp(-r). The product
// T t, truncated (u), is then within 1.01u + 2.1u + u + u (the
// polynomial's and x's truncations) < 7u of exp(-x).
func expNeg(x V, prec uint) (V, bool) {
	if x.cls() == zero {
		return mkV(1<<63, 0, 1, false), true
	}
	if x.isNeg() || x.exp > 0 {
		return V{}, false
	}
	// X = floor(x * 2^127) = (0.hi lo * 2^exp) * 2^127: the significand
	// shifted right by 1 - exp.
	x0, x1, _, _ := shiftRight3(x.hi, x.lo, uint64(1-int64(x.exp)))
	k := x0 >> 57          // floor(64 x): the top 6 of the 127 fractional bits
	r0 := x0 & (1<<57 - 1) // r = X u - k/64
	r1 := x1
	t0, t1 := uint64(1)<<63, uint64(0) // t = 1
	for j := uint64(14); j >= 1; j-- {
		p0, p1 := mulFix(r0, r1, t0, t1)
		q0, rem := bits.Div64(0, p0, j)
		q1, _ := bits.Div64(rem, p1, j)
		var bw uint64
		t1, bw = bits.Sub64(0, q1, 0)
		t0, _ = bits.Sub64(1<<63, q0, bw)
	}
	tab := expNegTab()
	e0, e1 := mulFix(tab[k][0], tab[k][1], t0, t1)
	const margin = 1 << 7 // 2^-120 in units of 2^-127
	lo1, bw := bits.Sub64(e1, margin, 0)
	lo0, _ := bits.Sub64(e0, 0, bw)
	hi1, c := bits.Add64(e1, margin, 0)
	hi0, _ := bits.Add64(e0, 0, c)
	lo, hi := fixToV(lo0, lo1, prec), fixToV(hi0, hi1, prec)
	if lo != hi {
		return V{}, false
	}
	return lo, true
}

// mulFix returns the fixed-point product of a and b (at most 2^127
// each), truncated: floor(a b / 2^127).
func mulFix(a0, a1, b0, b1 uint64) (uint64, uint64) {
	h1, _ := bits.Mul64(a1, b1)
	h2, l2 := bits.Mul64(a0, b1)
	h3, l3 := bits.Mul64(a1, b0)
	h4, l4 := bits.Mul64(a0, b0)
	// 256-bit product w0 w1 w2 (w3 dropped: only bits from 127 up are kept).
	var c, c2 uint64
	w2, c := bits.Add64(h1, l2, 0)
	w2, c2 = bits.Add64(w2, l3, 0)
	w1, c := bits.Add64(h2, h3, c+c2)
	w0 := c
	w1, c = bits.Add64(w1, l4, 0)
	w0 += h4 + c
	// shift right by 127 = one word and 63 bits
	return w0<<1 | w1>>63, w1<<1 | w2>>63
}

// fixToV returns the positive fixed-point number i (nonzero) rounded to
// nearest at prec bits.
func fixToV(i0, i1 uint64, prec uint) V {
	n := bits.LeadingZeros64(i0)
	if i0 == 0 {
		n = 64 + bits.LeadingZeros64(i1)
	}
	m0, m1, _ := shiftLeft3(i0, i1, 0, uint(n))
	return round(false, int64(128-n-fix), m0, m1, 0, false, prec, false)
}
