package ddouble

import (
	"math"
	"math/big"
	"sync"

	"github.com/fprlab/fprlab/arith"
)

// Arith implements arith.Arith[DD]. It has no state.
type Arith struct{}

var (
	_ arith.Arith[DD]   = Arith{}
	_ arith.ErrorBounds = Arith{}
)

// Bits is 106: two 53-bit significands hold every binary number of 106
// significant bits exactly (and some wider ones, when Lo lies far below
// Hi), and the operations' proven relative errors lie between
// 3u^2 = 2^-104.4 (addition) and 15u^2 = 2^-102.1 (division), within four
// bits of 106-bit rounding.
func init() {
	arith.Register(arith.Backend{
		Name:    "dd",
		Bits:    106,
		ExpBits: 11, // the limbs' range: binary64's
		Description: "double-word binary64 (hi+lo, 106-bit significand, binary64 exponent range, no subnormal " +
			"guarantee), Joldes-Muller-Popescu algorithms with FMA; rel. error <= 15u^2 ~ 2^-102 per op",
		Impl: Arith{},
	})
}

// Of converts i exactly: Hi is i rounded to binary64 and Lo the remainder,
// at most 2^10 in magnitude and hence exact. The remainder is formed on
// the magnitude in uint64 arithmetic, so that i near the ends of the int64
// range (where Hi may be 2^63, outside int64) wraps harmlessly.
func (Arith) Of(i int64) DD {
	m := uint64(i)
	if i < 0 {
		m = -m // also right for math.MinInt64: 2^63
	}
	hi := float64(m)
	lo := float64(int64(m - uint64(hi))) // |m - hi| <= 2^10: the wrapped difference is exact
	if i < 0 {
		return DD{-hi, -lo}
	}
	return DD{hi, lo}
}

// Scaled returns i*2^e: Of(i) with both parts scaled by 2^e. It is exact
// when the low part stays at or above 2^-1022 (for instance when
// |i*2^e| >= 2^-958); below, the low part is rounded by binary64's
// gradual underflow, and beyond 2^1024 the value overflows to an infinity.
func (a Arith) Scaled(i int64, e int) DD {
	x := a.Of(i)
	hi := math.Ldexp(x.Hi, e)
	if math.IsInf(hi, 0) {
		return DD{hi, 0}
	}
	return DD{hi, math.Ldexp(x.Lo, e)}
}

// FromFloat64 imports x exactly (Lo = 0).
func (Arith) FromFloat64(x float64) DD { return DD{x, 0} }

// tablePrec is the precision at which the constants and twiddle factors
// are computed before being rounded to double words: 160 bits, 54 more
// than a double word holds, so that rounding Hi and then Lo to nearest is
// rounding the true value.
const tablePrec = 160

var (
	constOnce sync.Once
	constTab  [arith.NumConstants]DD
	gmOnce    sync.Once
	gmTab     [2048]DD
)

// fromBig is FromBig, for the tables.
func fromBig(v *big.Float) DD { return Arith{}.FromBig(v) }

// FromBig returns v rounded to a double word: Hi = v rounded to nearest
// binary64, Lo = the remainder v - Hi (computed exactly) rounded to
// nearest, so that a double word comes back unchanged and any other value
// is within 2^-105 of itself (while Lo stays normal). With it Arith can
// serve as the exact side of a shadowed run (analysis/shadow's Exact
// interface). Infinities and values beyond binary64's range give an
// infinite Hi and Lo = 0.
func (Arith) FromBig(v *big.Float) DD {
	hi, _ := v.Float64()
	if math.IsInf(hi, 0) {
		return DD{hi, 0}
	}
	r := new(big.Float).SetPrec(v.Prec()+64).Sub(v, new(big.Float).SetFloat64(hi))
	lo, _ := r.Float64()
	return DD{hi, lo}
}

// Const returns arith.Exact(c, 160) rounded to a double word: the
// mathematical constants (ln 2, 1/q, 1/sqrt 2, ...) to about 107 bits, and
// the reference's binary64 parameters (1/sigma, sigma_min, the keygen
// bound) exactly, since they are defined as binary64 values. An
// out-of-range c gives NaN (the interface cannot report an error).
func (Arith) Const(c arith.Constant) DD {
	if c < 0 || int(c) >= arith.NumConstants {
		return DD{math.NaN(), 0}
	}
	constOnce.Do(func() {
		for i := range constTab {
			constTab[i] = fromBig(arith.Exact(arith.Constant(i), tablePrec))
		}
	})
	return constTab[c]
}

// GM returns twiddle entry k, arith.GMExact(k, 160) rounded to a double
// word, with the reference's -0 for the real part of the root at pi/2
// (entry 2). The table is computed once (about 0.1 s). An index outside
// 0..2047 gives NaN.
func (Arith) GM(k int) DD {
	if k < 0 || k >= len(gmTab) {
		return DD{math.NaN(), 0}
	}
	gmOnce.Do(func() {
		for j := range gmTab {
			gmTab[j] = fromBig(arith.GMExact(j, tablePrec))
		}
		gmTab[2] = DD{math.Copysign(0, -1), 0}
	})
	return gmTab[k]
}

func (Arith) Add(x, y DD) DD { return add(x, y) }
func (Arith) Sub(x, y DD) DD { return add(x, neg(y)) }
func (Arith) Neg(x DD) DD    { return neg(x) }

// Half halves both parts: exact unless the low part is subnormal.
func (Arith) Half(x DD) DD { return DD{float64(x.Hi * 0.5), float64(x.Lo * 0.5)} }

// Double doubles both parts: exact below 2^1023.
func (Arith) Double(x DD) DD { return DD{x.Hi + x.Hi, x.Lo + x.Lo} }

func (Arith) Mul(x, y DD) DD { return mul(x, y) }
func (Arith) Sqr(x DD) DD    { return mul(x, x) }
func (Arith) Inv(x DD) DD    { return inv(x) }
func (Arith) Div(x, y DD) DD { return div(x, y) }
func (Arith) Sqrt(x DD) DD   { return sqrt(x) }

// Float64 returns Hi + Lo rounded to nearest: one binary64 addition, which
// rounds the exact sum correctly (Hi itself for a normalised pair). An
// infinite Hi is returned as it is (its Lo may be NaN), and so is Hi when
// Lo = 0 (keeping the sign of a zero).
func (Arith) Float64(x DD) float64 {
	if x.Lo == 0 || math.IsInf(x.Hi, 0) {
		return x.Hi
	}
	return x.Hi + x.Lo
}

// Big returns the exact value Hi + Lo, at the precision that holds it: 53
// bits plus the distance between the exponents of the two parts. As the
// oracle does, a NaN becomes +Inf (big.Float has no NaN); an infinite Hi
// gives that infinity.
func (Arith) Big(x DD) *big.Float {
	switch {
	case math.IsNaN(x.Hi) || (!math.IsInf(x.Hi, 0) && math.IsNaN(x.Lo)):
		return new(big.Float).SetInf(false)
	case math.IsInf(x.Hi, 0) || x.Lo == 0:
		return new(big.Float).SetFloat64(x.Hi)
	case x.Hi == 0:
		return new(big.Float).SetFloat64(x.Lo)
	}
	_, eh := math.Frexp(x.Hi)
	_, el := math.Frexp(x.Lo)
	span := eh - el
	if span < 0 {
		span = -span
	}
	z := new(big.Float).SetPrec(uint(span + 54)).SetFloat64(x.Hi)
	return z.Add(z, new(big.Float).SetFloat64(x.Lo))
}

// BoundMinExp is -916: a normalised double word of magnitude at least
// 2^-916 has its low part (about 2^-106 times the value) at or above
// 2^-1022, binary64's smallest normal number, and so do the error terms of
// the products that produce it, so the bounds of RelErrBound apply. Falcon
// signing stays above 2^-110 (zeros aside).
func (Arith) BoundMinExp() int { return -1022 + 106 }

// RelErrBound returns the proven relative error bounds, in units of
// u^2 = 2^-106: add/sub 3u^2+13u^3 (JMP Algorithm 6), mul/sqr 5u^2 (JMP
// Algorithm 12), inv/div 15u^2+56u^3 (JMP Algorithm 17), sqrt 25u^2/8
// (Lefevre et al.). Of and the integer conversions are exact; ExpmP63 has
// no relative bound in this sense (see ExpmP63).
func (Arith) RelErrBound(op string) (float64, bool) {
	const u2, u3 = u * u, u * u * u
	switch op {
	case "add", "sub":
		return 3*u2 + 13*u3, true
	case "mul", "sqr":
		return 5 * u2, true
	case "inv", "div":
		return 15*u2 + 56*u3, true
	case "sqrt":
		return 25 * u2 / 8, true
	case "of", "rint", "floor", "trunc":
		return 0, true
	}
	return 0, false
}
