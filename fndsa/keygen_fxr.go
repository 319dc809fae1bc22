package fndsa

import (
	"math"
	"math/bits"
)

// Fixed-point arithmetic of FN-DSA key generation. go-fn-dsa (commit
// e24833f, kgen_fxr.go) computes every approximate quantity of key
// generation in a 64-bit two's-complement fixed-point format with 32
// fractional bits instead of floating point, so that keys depend on the
// seed alone, whatever the platform's floating point. The operations below
// reproduce its results bit for bit, including its rounding choices
// (products truncate, halving and division round half up) and its
// three-multiplication complex product; additions wrap modulo 2^64.

// fxr is a fixed-point value: the integer int64(x) / 2^32.
type fxr uint64

const fxrFracBits = 32

func fxrOf(j int32) fxr { return fxr(uint64(int64(j)) << fxrFracBits) }

// fxrMul returns floor(x*y / 2^32) mod 2^64 for the signed values: the
// 128-bit unsigned product corrected for the operands' signs.
func fxrMul(x, y fxr) fxr {
	hi, lo := bits.Mul64(uint64(x), uint64(y))
	if int64(x) < 0 {
		hi -= uint64(y)
	}
	if int64(y) < 0 {
		hi -= uint64(x)
	}
	return fxr(hi<<(64-fxrFracBits) | lo>>fxrFracBits)
}

// fxrHalf returns x/2 rounded half up.
func fxrHalf(x fxr) fxr { return fxr((int64(x) + 1) >> 1) }

// fxrDiv returns x/y rounded to nearest (half up in magnitude), by a
// restoring division of |x|*2^32 by |y| that keeps 64 quotient bits. The
// comparison is the sign of the 64-bit difference, as in go-fn-dsa, so
// that the (never expected) case of a quotient over 2^64 gives its value
// too.
func fxrDiv(x, y fxr) fxr {
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
	rem := ax >> (fxrFracBits - 1)
	for i := 63; i >= 0; i-- {
		if ge(rem) {
			q |= 1 << i
			rem -= ay
		}
		rem <<= 1
		if i > fxrFracBits {
			rem |= (ax >> (i - fxrFracBits - 1)) & 1
		}
	}
	if ge(rem) {
		q++
	}
	if neg {
		q = -q
	}
	return fxr(q)
}

// fxcMul is the complex product (a+ib)(c+id) with three real products:
// re = ac - bd, im = (a+b)(c+d) - (ac + bd). The truncations make im
// differ from ad + bc in the last bits; the keys depend on this choice.
func fxcMul(a, b, c, d fxr) (fxr, fxr) {
	ac := fxrMul(a, c)
	bd := fxrMul(b, d)
	s := fxrMul(a+b, c+d)
	return ac - bd, s - (ac + bd)
}

// fxrRoots[2k], fxrRoots[2k+1] are the real and imaginary parts of
// exp(i*pi*rev(k)/1024), rev reversing 10 bits, rounded to the fixed-point
// grid: the roots of X^n+1 in the order of the FFT below. go-fn-dsa stores
// the same values as a table; the test pins their digest. The float64
// cosine is accurate to far below the 2^-33 that rounding to 32 fractional
// bits needs, and no value lies near a rounding boundary (the pin checks).
var fxrRoots = func() []fxr {
	t := make([]fxr, 2048)
	for k := range 1024 {
		a := math.Pi * float64(bits.Reverse16(uint16(k))>>6) / 1024
		t[2*k] = fxr(int64(math.Round(math.Cos(a) * (1 << fxrFracBits))))
		t[2*k+1] = fxr(int64(math.Round(math.Sin(a) * (1 << fxrFracBits))))
	}
	return t
}()

// fxrFFT converts a real polynomial of 2^logn coefficients to its FFT
// representation in place: n/2 complex values, real parts in the first
// half, imaginary parts in the second (Falcon specification, section 3.7,
// the layout of round 3's FFT too). logn >= 2.
func fxrFFT(logn uint, f []fxr) {
	hn := 1 << (logn - 1)
	for lm := uint(1); lm < logn; lm++ {
		m := 1 << lm
		t := hn >> (lm - 1)
		ht := t >> 1
		for i := range m >> 1 {
			sRe, sIm := fxrRoots[2*(m+i)], fxrRoots[2*(m+i)+1]
			for j := i * t; j < i*t+ht; j++ {
				yRe, yIm := fxcMul(sRe, sIm, f[j+ht], f[j+ht+hn])
				xRe, xIm := f[j], f[j+hn]
				f[j], f[j+hn] = xRe+yRe, xIm+yIm
				f[j+ht], f[j+ht+hn] = xRe-yRe, xIm-yIm
			}
		}
	}
}

// fxrIFFT inverts fxrFFT: each level halves its sums and differences
// before the product by the conjugate root, so the result needs no final
// scaling.
func fxrIFFT(logn uint, f []fxr) {
	hn := 1 << (logn - 1)
	for lm := logn - 1; lm > 0; lm-- {
		m := 1 << lm
		ht := hn >> lm
		t := ht << 1
		for i := range m >> 1 {
			sRe, sIm := fxrRoots[2*(m+i)], -fxrRoots[2*(m+i)+1]
			for j := i * t; j < i*t+ht; j++ {
				xRe, xIm := f[j], f[j+hn]
				yRe, yIm := f[j+ht], f[j+ht+hn]
				f[j], f[j+hn] = fxrHalf(xRe+yRe), fxrHalf(xIm+yIm)
				f[j+ht], f[j+ht+hn] = fxcMul(sRe, sIm, fxrHalf(xRe-yRe), fxrHalf(xIm-yIm))
			}
		}
	}
}

// orthoNormBound is go-fn-dsa's bound on the squared norm of the
// orthogonalized vector, 1.17^2 * q = 16822.4121 as a fixed-point value
// (Falcon specification, section 3.8.2: ||(q adj(f)/(f adj(f) + g adj(g)),
// q adj(g)/(f adj(f) + g adj(g)))|| <= 1.17 sqrt(q)).
const orthoNormBound = 72251709809335

// checkOrthoNorm reports whether the Gram-Schmidt orthogonalized vector of
// the basis row (g, -f) has squared norm below orthoNormBound.
func checkOrthoNorm(logn uint, f, g []int8) bool {
	return int64(orthoNormSq(logn, f, g)) < orthoNormBound
}

// orthoNormSq is the squared norm of (q adj(f)/(f adj(f) + g adj(g)),
// q adj(g)/(f adj(f) + g adj(g))), computed in fixed point as go-fn-dsa
// does: the reciprocal of the norm in FFT form, then the products by q and
// by that reciprocal, back to coefficients, and the sum of squares.
func orthoNormSq(logn uint, f, g []int8) fxr {
	n := 1 << logn
	hn := n >> 1
	a := make([]fxr, n)
	b := make([]fxr, n)
	for i := range n {
		a[i], b[i] = fxrOf(int32(f[i])), fxrOf(int32(g[i]))
	}
	fxrFFT(logn, a)
	fxrFFT(logn, b)
	q := fxrOf(12289)
	for i := range hn {
		nrm := fxrMul(a[i], a[i]) + fxrMul(a[i+hn], a[i+hn]) + fxrMul(b[i], b[i]) + fxrMul(b[i+hn], b[i+hn])
		inv := fxrDiv(fxrOf(1), nrm)
		// adjoint (conjugate), times q, times the real reciprocal
		a[i], a[i+hn] = fxrMul(fxrMul(a[i], q), inv), fxrMul(fxrMul(-a[i+hn], q), inv)
		b[i], b[i+hn] = fxrMul(fxrMul(b[i], q), inv), fxrMul(fxrMul(-b[i+hn], q), inv)
	}
	fxrIFFT(logn, a)
	fxrIFFT(logn, b)
	var sn fxr
	for i := range n {
		sn += fxrMul(a[i], a[i]) + fxrMul(b[i], b[i])
	}
	return sn
}
