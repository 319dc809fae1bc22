// Package u128 is unsigned 128-bit integer arithmetic over math/bits, for
// the places that need a value twice the machine word exactly: the
// hardware multipliers' 64x64 products (package accel) and the exact sum
// of a triple word's limbs (package analysis/shadow's import into dd).
// Every operation wraps modulo 2^128, as the machine words do.
package u128

import (
	"cmp"
	"math/bits"
)

// U128 is the integer Hi 2^64 + Lo.
type U128 struct{ Hi, Lo uint64 }

// From returns x as a U128.
func From(x uint64) U128 { return U128{0, x} }

// Add returns a + b.
func (a U128) Add(b U128) U128 {
	lo, c := bits.Add64(a.Lo, b.Lo, 0)
	hi, _ := bits.Add64(a.Hi, b.Hi, c)
	return U128{hi, lo}
}

// Sub returns a - b.
func (a U128) Sub(b U128) U128 {
	lo, c := bits.Sub64(a.Lo, b.Lo, 0)
	hi, _ := bits.Sub64(a.Hi, b.Hi, c)
	return U128{hi, lo}
}

// Neg returns -a (two's complement).
func (a U128) Neg() U128 { return U128{}.Sub(a) }

// Shl returns a shifted left by 0 <= n < 128 bits.
func (a U128) Shl(n int) U128 {
	switch {
	case n == 0:
		return a
	case n >= 64:
		return U128{a.Lo << (n - 64), 0}
	}
	return U128{a.Hi<<n | a.Lo>>(64-n), a.Lo << n}
}

// Shr returns a shifted right by 0 <= n < 128 bits.
func (a U128) Shr(n int) U128 {
	switch {
	case n == 0:
		return a
	case n >= 64:
		return U128{0, a.Hi >> (n - 64)}
	}
	return U128{a.Hi >> n, a.Lo>>n | a.Hi<<(64-n)}
}

// LowBits returns the low n bits of a, 0 <= n < 128.
func (a U128) LowBits(n int) U128 { return a.Sub(a.Shr(n).Shl(n)) }

// Len returns the number of bits needed to represent a (0 for 0).
func (a U128) Len() int {
	if a.Hi != 0 {
		return 64 + bits.Len64(a.Hi)
	}
	return bits.Len64(a.Lo)
}

// Cmp returns -1, 0 or +1 as a is below, equal to or above b.
func (a U128) Cmp(b U128) int {
	if a.Hi != b.Hi {
		return cmp.Compare(a.Hi, b.Hi)
	}
	return cmp.Compare(a.Lo, b.Lo)
}

// IsZero reports whether a is 0.
func (a U128) IsZero() bool { return a.Hi == 0 && a.Lo == 0 }
