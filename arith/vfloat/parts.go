package vfloat

import (
	"math/big"
	"math/bits"
)

// Exact values for code that carries V values through an arithmetic of
// another value type (package arith/plan's plugin stages): a value enters
// and leaves as an integer significand and a power of two, without
// big.Float, and nothing is rounded on the way.

// SignificandBits is the widest significand a V holds: 128 bits.
const SignificandBits = 128

// Zero returns +0, or -0 when neg is set.
func Zero(neg bool) V { return zeroV(neg) }

// Inf returns +Inf, or -Inf when neg is set.
func Inf(neg bool) V { return infV(neg) }

// Exact returns (-1)^neg * (hi 2^64 + lo) * 2^e, not rounded; ok is false
// when that number lies outside V's exponent range (big.Float's). A zero
// significand gives a zero of the sign neg.
func Exact(neg bool, hi, lo uint64, e int64) (v V, ok bool) {
	n := int64(bits.Len64(hi)) + 64
	if hi == 0 {
		n = int64(bits.Len64(lo))
	}
	if n == 0 {
		return zeroV(neg), true
	}
	// 0.hi lo * 2^exp with hi's top bit set: shift the 128-bit integer
	// left by 128-n; its value is then that integer * 2^(exp-128).
	exp := e + n
	if exp < big.MinExp || exp > big.MaxExp {
		return V{}, false
	}
	s := uint(128 - n)
	switch {
	case s >= 64:
		hi, lo = lo<<(s-64), 0
	case s > 0:
		hi, lo = hi<<s|lo>>(64-s), lo<<s
	}
	return mkV(hi, lo, int32(exp), neg), true
}

// Significand returns a finite nonzero v as (-1)^neg * (hi 2^64 + lo) *
// 2^e exactly, with hi's top bit set; ok is false for zeros and
// infinities (see IsZero, IsInf, Signbit).
func (v V) Significand() (neg bool, hi, lo uint64, e int64, ok bool) {
	if v.cls() != finite {
		return v.isNeg(), 0, 0, 0, false
	}
	return v.isNeg(), v.hi, v.lo, int64(v.exp) - 128, true
}
