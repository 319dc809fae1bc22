package vfloat

import (
	"math"
	"math/big"
	"math/bits"
)

// form is the class of a value.
type form uint8

const (
	zero   form = iota // ±0 (the zero V is +0)
	finite             // nonzero finite: hi's top bit is set
	inf                // ±Inf
)

// V is a value of a vprec format: sign, a 128-bit significand 0.hi lo in
// [1/2, 1) and an exponent, value = 0.hi lo * 2^exp (big.Float's MantExp
// convention; the exponent range is big.Float's int32). A value of a P-bit
// format has zeros below its P leading significand bits. Values are
// immutable and compare equal (==) exactly when they are the same number
// with the same sign (the significand is normalised and zero at zero and
// Inf).
type V struct {
	hi, lo uint64
	exp    int32
	k      uint8 // form | negBit
}

// negBit is the sign bit of V.k. V has four fields so that the compiler
// keeps values in registers (a struct of more fields always goes through
// memory, several times slower here).
const negBit = 4

// kind packs a form and a sign.
func kind(f form, neg bool) uint8 {
	if neg {
		return uint8(f) | negBit
	}
	return uint8(f)
}

// mkV returns the finite value (-1)^neg * 0.hi lo * 2^exp.
func mkV(hi, lo uint64, exp int32, neg bool) V {
	return V{hi: hi, lo: lo, exp: exp, k: kind(finite, neg)}
}

// cls is v's form.
func (v V) cls() form { return form(v.k &^ negBit) }

// isNeg reports v's sign bit.
func (v V) isNeg() bool { return v.k&negBit != 0 }

// IsInf reports whether v is an infinity.
func (v V) IsInf() bool { return v.cls() == inf }

// IsZero reports whether v is +0 or -0.
func (v V) IsZero() bool { return v.cls() == zero }

// Signbit reports whether v is negative or -0.
func (v V) Signbit() bool { return v.isNeg() }

func infV(neg bool) V  { return V{k: kind(inf, neg)} }
func zeroV(neg bool) V { return V{k: kind(zero, neg)} }

// round returns the value (-1)^neg * 0.w0 w1 w2 (binary) * 2^exp, plus a
// nonzero amount below w2's last bit when sticky is set, rounded to prec
// bits (1 <= prec <= 127) to nearest even or, if rz, toward zero. w0's top
// bit must be set. The exponent range is big.Float's: beyond it the result
// is ±Inf or ±0, as big.Float's rounding gives.
//
// The kept bits are the top prec bits of w0 w1; the round bit is the next
// one, and the sticky information is every bit after it (the rest of
// w0 w1, w2 and sticky). Rounding to nearest increments the kept bits when
// the discarded part is above one half of the last kept bit, or exactly one
// half and the last kept bit is odd; that is correct for the exact value
// because the discarded part's comparison with one half is exact.
func round(neg bool, exp int64, w0, w1, w2 uint64, sticky bool, prec uint, rz bool) V {
	if exp < big.MinExp {
		return zeroV(neg)
	}
	if exp > big.MaxExp {
		return infV(neg)
	}
	s := 128 - prec // discarded bits of w0 w1, 1 <= s <= 127
	var k0, k1, r0, r1, h0, h1 uint64
	var odd bool
	if s < 64 {
		m := uint64(1)<<s - 1
		k0, k1, r0, r1 = w0, w1&^m, 0, w1&m
		h1 = 1 << (s - 1)
		odd = k1>>s&1 != 0
	} else {
		m := uint64(1)<<(s-64) - 1
		k0, k1, r0, r1 = w0&^m, 0, w0&m, w1
		if s == 64 {
			h1 = 1 << 63
		} else {
			h0 = 1 << (s - 65)
		}
		odd = k0>>(s-64)&1 != 0
	}
	below := w2 != 0 || sticky
	if !rz && (r0|r1 != 0 || below) {
		up := false
		switch {
		case r0 > h0 || (r0 == h0 && r1 > h1):
			up = true
		case r0 == h0 && r1 == h1:
			up = below || odd
		}
		if up {
			var c uint64
			if s < 64 {
				k1, c = bits.Add64(k1, 1<<s, 0)
				k0, c = bits.Add64(k0, 0, c)
			} else {
				k0, c = bits.Add64(k0, 1<<(s-64), 0)
			}
			if c != 0 {
				k0, k1 = 1<<63, 0
				exp++
				if exp > big.MaxExp {
					return infV(neg)
				}
			}
		}
	}
	return mkV(k0, k1, int32(exp), neg)
}

// fits reports whether v's significand has at most prec bits.
func (v V) fits(prec uint) bool {
	if prec >= 128 || v.cls() != finite {
		return true
	}
	if prec >= 64 {
		return v.lo&(uint64(1)<<(128-prec)-1) == 0
	}
	return v.lo == 0 && v.hi&(uint64(1)<<(64-prec)-1) == 0
}

// cmpAbs compares |x| and |y| for finite nonzero x, y.
func cmpAbs(x, y V) int {
	switch {
	case x.exp != y.exp:
		if x.exp < y.exp {
			return -1
		}
		return 1
	case x.hi != y.hi:
		if x.hi < y.hi {
			return -1
		}
		return 1
	case x.lo != y.lo:
		if x.lo < y.lo {
			return -1
		}
		return 1
	}
	return 0
}

// cmp compares x and y as big.Float.Cmp does: -1, 0 or +1 for x < y,
// x == y (including -0 == +0 and Inf == Inf of one sign), x > y.
func cmp(x, y V) int {
	sx, sy := x.sign(), y.sign()
	switch {
	case sx != sy:
		if sx < sy {
			return -1
		}
		return 1
	case sx == 0:
		return 0
	}
	var c int
	switch {
	case x.cls() == inf && y.cls() == inf:
		c = 0
	case x.cls() == inf:
		c = 1
	case y.cls() == inf:
		c = -1
	default:
		c = cmpAbs(x, y)
	}
	if sx < 0 {
		c = -c
	}
	return c
}

// sign is -1, 0 or +1 (0 for both zeros), as big.Float.Sign.
func (v V) sign() int {
	switch {
	case v.cls() == zero:
		return 0
	case v.isNeg():
		return -1
	}
	return 1
}

// fromUint64 returns (-1)^neg * u * 2^e rounded to prec bits.
func fromUint64(neg bool, u uint64, e int64, prec uint, rz bool) V {
	if u == 0 {
		return zeroV(false)
	}
	n := bits.LeadingZeros64(u)
	return round(neg, 64-int64(n)+e, u<<n, 0, 0, false, prec, rz)
}

// fromFloat64 returns the finite or infinite x rounded to prec bits (x not
// NaN); ±0 keep their sign, as big.Float.SetFloat64 does.
func fromFloat64(x float64, prec uint, rz bool) V {
	switch {
	case x == 0:
		return zeroV(math.Signbit(x))
	case math.IsInf(x, 0):
		return infV(x < 0)
	}
	b := math.Float64bits(x)
	neg := b>>63 != 0
	be := int64(b >> 52 & 0x7ff)
	m := b & (1<<52 - 1)
	if be == 0 {
		be = 1 // subnormal: m * 2^-1074
	} else {
		m |= 1 << 52
	}
	return fromUint64(neg, m, be-1075, prec, rz)
}

// float64Exact returns v as a float64 when it is one exactly (a normal
// binary64 number, a zero or an infinity).
func (v V) float64Exact() (float64, bool) {
	switch v.cls() {
	case zero:
		if v.isNeg() {
			return math.Copysign(0, -1), true
		}
		return 0, true
	case inf:
		return math.Inf(v.sign()), true
	}
	if v.lo != 0 || v.hi&(1<<11-1) != 0 || v.exp < -1021 || v.exp > 1024 {
		return 0, false
	}
	b := uint64(v.exp-1+1023)<<52 | v.hi>>11&(1<<52-1)
	if v.isNeg() {
		b |= 1 << 63
	}
	return math.Float64frombits(b), true
}

// float64 returns v rounded to the nearest binary64 value, as
// big.Float.Float64 does (overflow to ±Inf, gradual underflow).
func (v V) float64() float64 {
	if f, ok := v.float64Exact(); ok {
		return f
	}
	if v.exp >= -1020 && v.exp <= 1024 {
		r := round(v.isNeg(), int64(v.exp), v.hi, v.lo, 0, false, 53, false)
		if r.exp <= 1024 {
			f, _ := r.float64Exact()
			return f
		}
		return math.Inf(v.sign())
	}
	f, _ := v.big(128).Float64() // subnormal or beyond range: rare
	return f
}

// big returns v as a new big.Float of precision prec, which must hold v
// exactly.
func (v V) big(prec uint) *big.Float {
	z := new(big.Float).SetPrec(prec)
	switch v.cls() {
	case zero:
		if v.isNeg() {
			z.Neg(z)
		}
		return z
	case inf:
		return z.SetInf(v.isNeg())
	}
	t := new(big.Float).SetPrec(128).SetUint64(v.hi)
	if v.lo != 0 {
		t.SetMantExp(t, 64)
		t.Add(t, new(big.Float).SetUint64(v.lo)) // exact at 128 bits
		t.SetMantExp(t, int(v.exp)-128)
	} else {
		t.SetMantExp(t, int(v.exp)-64)
	}
	if v.isNeg() {
		t.Neg(t)
	}
	return z.Set(t)
}

// minPrec is the number of significand bits v needs (0 for zero and Inf).
func (v V) minPrec() uint {
	switch {
	case v.cls() != finite:
		return 0
	case v.lo != 0:
		return 128 - uint(bits.TrailingZeros64(v.lo))
	}
	return 64 - uint(bits.TrailingZeros64(v.hi))
}

// fromBig returns the exact value of x, which must have at most 128
// significant bits (every value of a format of this package has).
func fromBig(x *big.Float) V {
	switch {
	case x.IsInf():
		return infV(x.Signbit())
	case x.Sign() == 0:
		return zeroV(x.Signbit())
	}
	if x.MinPrec() > 128 {
		panic("vfloat: value with more than 128 significant bits")
	}
	mant := new(big.Float)
	e := x.MantExp(mant)
	i, _ := mant.SetMantExp(mant.Abs(mant), 128).Int(nil) // in [2^127, 2^128), exact
	lo := new(big.Int).And(i, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
	hi := i.Rsh(i, 64).Uint64()
	return mkV(hi, lo, int32(e), x.Signbit())
}
