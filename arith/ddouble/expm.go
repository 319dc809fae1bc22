package ddouble

import (
	"math"
	"math/big"
	"sync"
)

// ExpmP63 returns floor(2^63 * ccs * exp(-x)) computed in double words,
// for the sampler's domain 0 <= x < ln 2, 0 <= ccs <= 1 (ccs = 1 and x = 0
// give 2^63 exactly).
//
// exp(-x) is evaluated as 1 + t with t = expm1(-x) (expm1Neg), then
// multiplied by ccs (mul, 5u^2), scaled by 2^63 (exact) and truncated
// exactly (floorUint64). The relative error before the truncation is at
// most about 20u^2 (exp(-x), see expm1Neg) + 5u^2 (the product) =
// 25u^2 = 2^-101.4; the result is floor(v') of a value v' within
// 2^-101.4 v of the true v, so it equals the exact floor(2^63 ccs exp(-x))
// unless v lies within 2^-101.4 v < 2^-38 of an integer. The tests compare
// it with the oracle's exact value.
//
// Inputs outside the domain are handled as the oracle handles them, so
// that the two agree nearly everywhere: ccs <= 0 (or NaN) gives 0;
// |x| >= 2^12 gives 0 for x > 0 (and for a NaN x, which the oracle
// imports as +Inf) and 2^64-1 for x < 0, as does ccs >= 2^12; in
// between, exp(-x) is evaluated through x = n ln 2 + r (without the error
// claim above) and results beyond 2^64-1 saturate.
func (Arith) ExpmP63(x, ccs DD) uint64 {
	switch {
	case !(ccs.Hi > 0):
		return 0
	case x.Hi >= 0x1p12 || x.Hi != x.Hi:
		return 0
	case !(x.Hi > -0x1p12) || ccs.Hi >= 0x1p12:
		return math.MaxUint64
	}
	scale := 63
	if math.Abs(x.Hi) > 0.7 {
		// exp(-x) = 2^-n exp(-r) with r = x - n ln 2, |r| <= ln 2/2 + tiny.
		n := math.RoundToEven(x.Hi / ln2.Hi)
		x = add(x, neg(mulFP(ln2, n)))
		scale -= int(n)
	}
	e := addFP(expm1Neg(x), 1)
	y := mul(ccs, e)
	return floorUint64(DD{math.Ldexp(y.Hi, scale), math.Ldexp(y.Lo, scale)})
}

// expm1Neg returns exp(-x) - 1 for |x| <= 0.7 (in particular the sampler's
// 0 <= x < ln 2), with relative error at most about 36u^2.
//
// Range reduction by halving: r = x/16 (exact), so |r| <= 0.0438 and
// q = -r; t0 = expm1(q) by its Taylor series to degree 15 (the first
// omitted term is below 2^-112 of t0), then four times t <- t(t + 2),
// which is expm1(2q) from expm1(q). Working on expm1 rather than on exp
// keeps the relative error of t from growing in the squarings: the
// propagation factor of t -> t(t+2) on the relative error is
// (2+2t)/(2+t) <= 1 for t <= 0, and each step adds at most 2u^2 (addFP)
// + 5u^2 (mul); the series in Horner form adds about 8u^2. That gives
// 8u^2 + 4*7u^2 = 36u^2 on t for x >= 0 (slightly more for x < 0, where t
// > 0), and since |t| <= 1/2, at most 18u^2 relative on exp(-x) = 1 + t,
// plus 2u^2 for forming 1 + t: 20u^2 on exp(-x). Measured against the
// oracle over 1,000,000 arguments in [0, ln 2): at most 6.7u^2 on t and
// 3.9u^2 on exp(-x) (TestExpNegVsOracle runs 200,000 of them).
//
// The series' terms of degree 9 and up are below 2^-54 of t0 and are
// summed in binary64; degrees 8 down to 1 in double words.
func expm1Neg(x DD) DD {
	q := DD{float64(x.Hi * -0x1p-4), float64(x.Lo * -0x1p-4)}
	c := expCoeffs()
	p := c.tail[0]
	for _, k := range c.tail[1:] {
		p = k + float64(q.Hi*p)
	}
	t := DD{p, 0}
	for _, k := range c.head {
		t = add(k, mul(q, t))
	}
	t = mul(q, t)
	for range 4 {
		t = mul(t, addFP(t, 2))
	}
	return t
}

// expTaylor holds 1/k! for the series of expm1Neg: head[i] = 1/(8-i)! as
// double words (degrees 8 down to 1, Horner order) and tail[i] =
// 1/(15-i)! rounded to binary64 (degrees 15 down to 9).
type expTaylor struct {
	head [8]DD
	tail [7]float64
}

var (
	expOnce sync.Once
	expTab  expTaylor
)

func expCoeffs() *expTaylor {
	expOnce.Do(func() {
		fact := big.NewInt(1)
		var inv [16]DD
		for k := int64(1); k <= 15; k++ {
			fact.Mul(fact, big.NewInt(k))
			f := new(big.Float).SetPrec(tablePrec).SetInt(fact)
			inv[k] = fromBig(f.Quo(new(big.Float).SetPrec(tablePrec).SetInt64(1), f))
		}
		for i := range expTab.head {
			expTab.head[i] = inv[8-i]
		}
		for i := range expTab.tail {
			expTab.tail[i] = inv[15-i].Hi
		}
	})
	return &expTab
}

// ln2 is ln 2 as a double word (the reference's binary64 ln 2 and the
// rounded remainder), used only to reduce arguments outside the sampler's
// domain.
var ln2 = DD{0x1.62e42fefa39efp-01, 0x1.abc9e3b39803fp-56}

// floorUint64 returns floor(Hi + Lo) exactly for 0 <= Hi + Lo < 2^64, 0
// for negative values and 2^64-1 above (and for +Inf and NaN), by the
// reasoning of toInt.
func floorUint64(y DD) uint64 {
	s, e := twoSum(y.Hi, y.Lo)
	switch {
	case s != s:
		if math.IsInf(y.Hi, -1) {
			return 0
		}
		return math.MaxUint64
	case s <= 0:
		return 0 // s = 0 means e = 0; s < 0 means a negative value
	case s > 0x1p64 || (s == 0x1p64 && e >= 0):
		return math.MaxUint64
	case math.Trunc(s) != s:
		return uint64(s) // s < 2^52 is not an integer: floor(s + e) = floor(s)
	case s == 0x1p64:
		return uint64(int64(math.Floor(e))) // 2^64 + floor(e), modulo 2^64
	}
	return uint64(s) + uint64(int64(math.Floor(e))) // modulo 2^64: floor(e) may be negative
}
