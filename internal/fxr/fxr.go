// Package fxr is the fixed-point arithmetic of FN-DSA key generation.
//
// go-fn-dsa (github.com/pornin/go-fn-dsa, commit e24833f, kgen_fxr.go)
// computes every approximate quantity of key generation -- the
// orthogonalized-norm test of a candidate (f, g) and the Babai reductions
// of NTRUSolve -- in a 64-bit two's-complement fixed-point format with 32
// fractional bits instead of floating point, so that keys depend on the
// seed alone, whatever the platform's floating point. The operations below
// reproduce its results bit for bit, including its rounding choices
// (products truncate, halving and division round half up, Round rounds
// half up) and its three-multiplication complex product; additions wrap
// modulo 2^64. FIPS 206 is not final: these are facts of that
// implementation.
//
// The package is shared by package fndsa (the candidate tests) and package
// falcon (the fixed-point NTRUSolve of FN-DSA, ntru_fips206.go).
package fxr

import (
	"math"
	"math/bits"
)

// Value is a fixed-point number: the integer int64(x) / 2^32.
type Value uint64

// FracBits is the number of fractional bits.
const FracBits = 32

// Of returns the integer j as a fixed-point value.
func Of(j int32) Value { return Value(uint64(int64(j)) << FracBits) }

// Mul returns floor(x*y / 2^32) mod 2^64 for the signed values: the
// 128-bit unsigned product corrected for the operands' signs.
func Mul(x, y Value) Value {
	hi, lo := bits.Mul64(uint64(x), uint64(y))
	if int64(x) < 0 {
		hi -= uint64(y)
	}
	if int64(y) < 0 {
		hi -= uint64(x)
	}
	return Value(hi<<(64-FracBits) | lo>>FracBits)
}

// Half returns x/2 rounded half up.
func Half(x Value) Value { return Value((int64(x) + 1) >> 1) }

// Round returns x rounded to the nearest integer, half up, as the low 32
// bits of the integer (two's complement): a value outside the int32 range
// wraps, as in go-fn-dsa.
func Round(x Value) int32 { return int32((uint64(x) + 1<<(FracBits-1)) >> FracBits) }

// Div returns x/y rounded to nearest (half up in magnitude), by a
// restoring division of |x|*2^32 by |y| that keeps 64 quotient bits. The
// comparison is the sign of the 64-bit difference, as in go-fn-dsa, so
// that the (never expected) case of a quotient over 2^64 gives its value
// too.
func Div(x, y Value) Value {
	neg := (int64(x) < 0) != (int64(y) < 0)
	ax, ay := uint64(x), uint64(y)
	if int64(ax) < 0 {
		ax = -ax
	}
	if int64(ay) < 0 {
		ay = -ay
	}
	ge := func(r uint64) bool { return (r-ay)>>63 == 0 }
	var q uint64
	rem := ax >> (FracBits - 1)
	for i := 63; i >= 0; i-- {
		if ge(rem) {
			q |= 1 << i
			rem -= ay
		}
		rem <<= 1
		if i > FracBits {
			rem |= (ax >> (i - FracBits - 1)) & 1
		}
	}
	if ge(rem) {
		q++
	}
	if neg {
		q = -q
	}
	return Value(q)
}

// CMul is the complex product (a+ib)(c+id) with three real products:
// re = ac - bd, im = (a+b)(c+d) - (ac + bd). The truncations make im
// differ from ad + bc in the last bits; the keys depend on this choice.
func CMul(a, b, c, d Value) (Value, Value) {
	ac := Mul(a, c)
	bd := Mul(b, d)
	s := Mul(a+b, c+d)
	return ac - bd, s - (ac + bd)
}

// Roots[2k], Roots[2k+1] are the real and imaginary parts of
// exp(i*pi*rev(k)/1024), rev reversing 10 bits, rounded to the fixed-point
// grid: the roots of X^n+1 in the order of the FFT below. go-fn-dsa stores
// the same values as a table (gm_tab); the test pins their digest. The
// float64 cosine is accurate to far below the 2^-33 that rounding to 32
// fractional bits needs, and no value lies near a rounding boundary (the
// pin checks).
var Roots = func() []Value {
	t := make([]Value, 2048)
	for k := range 1024 {
		a := math.Pi * float64(bits.Reverse16(uint16(k))>>6) / 1024
		t[2*k] = Value(int64(math.Round(math.Cos(a) * (1 << FracBits))))
		t[2*k+1] = Value(int64(math.Round(math.Sin(a) * (1 << FracBits))))
	}
	return t
}()

// FFT converts a real polynomial of 2^logn coefficients to its FFT
// representation in place: n/2 complex values, real parts in the first
// half, imaginary parts in the second (Falcon specification, section 3.7,
// the layout of round 3's FFT too). logn >= 1; for logn = 1 the two
// coefficients already are the one complex value.
func FFT(logn uint, f []Value) {
	hn := 1 << (logn - 1)
	for lm := uint(1); lm < logn; lm++ {
		m := 1 << lm
		t := hn >> (lm - 1)
		ht := t >> 1
		for i := range m >> 1 {
			sRe, sIm := Roots[2*(m+i)], Roots[2*(m+i)+1]
			for j := i * t; j < i*t+ht; j++ {
				yRe, yIm := CMul(sRe, sIm, f[j+ht], f[j+ht+hn])
				xRe, xIm := f[j], f[j+hn]
				f[j], f[j+hn] = xRe+yRe, xIm+yIm
				f[j+ht], f[j+ht+hn] = xRe-yRe, xIm-yIm
			}
		}
	}
}

// IFFT inverts FFT: each level halves its sums and differences before the
// product by the conjugate root, so the result needs no final scaling.
func IFFT(logn uint, f []Value) {
	hn := 1 << (logn - 1)
	for lm := logn - 1; lm > 0; lm-- {
		m := 1 << lm
		ht := hn >> lm
		t := ht << 1
		for i := range m >> 1 {
			sRe, sIm := Roots[2*(m+i)], -Roots[2*(m+i)+1]
			for j := i * t; j < i*t+ht; j++ {
				xRe, xIm := f[j], f[j+hn]
				yRe, yIm := f[j+ht], f[j+ht+hn]
				f[j], f[j+hn] = Half(xRe+yRe), Half(xIm+yIm)
				f[j+ht], f[j+ht+hn] = CMul(sRe, sIm, Half(xRe-yRe), Half(xIm-yIm))
			}
		}
	}
}

// MulFFT replaces a with a*b, both in FFT form.
func MulFFT(logn uint, a, b []Value) {
	hn := 1 << (logn - 1)
	for i := range hn {
		a[i], a[i+hn] = CMul(a[i], a[i+hn], b[i], b[i+hn])
	}
}
