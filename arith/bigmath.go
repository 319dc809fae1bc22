package arith

import (
	"math/big"
	"math/bits"
	"sync"

	"github.com/ALTree/bigfloat"
)

// bigfloatMu serialises calls into github.com/ALTree/bigfloat: its Log
// reads a package-level cache of pi and, above 1024 bits, rewrites it
// without locking. It is the program's one lock for that cache: every call
// into bigfloat goes through Log.
var bigfloatMu sync.Mutex

// Log returns the natural logarithm of x > 0 at x's precision
// (bigfloat.Log). It is safe for concurrent use.
func Log(x *big.Float) *big.Float {
	bigfloatMu.Lock()
	defer bigfloatMu.Unlock()
	return bigfloat.Log(x)
}

// Ln2 returns ln 2 at prec bits. It is safe for concurrent use.
func Ln2(prec uint) *big.Float {
	return Log(new(big.Float).SetPrec(prec).SetInt64(2))
}

// Pi returns pi at prec bits, from Machin's formula
// pi = 16 atan(1/5) - 4 atan(1/239), evaluated with guard bits.
func Pi(prec uint) *big.Float {
	wp := prec + 32
	a := atanInv(5, wp)
	b := atanInv(239, wp)
	a.Mul(a, big.NewFloat(16))
	b.Mul(b, big.NewFloat(4))
	return new(big.Float).SetPrec(prec).Sub(a, b)
}

// atanInv returns atan(1/k) = sum_i (-1)^i / ((2i+1) k^(2i+1)) at wp bits.
func atanInv(k int64, wp uint) *big.Float {
	sum := new(big.Float).SetPrec(wp)
	pow := new(big.Float).SetPrec(wp).Quo(big.NewFloat(1), new(big.Float).SetInt64(k)) // 1/k^(2i+1)
	k2 := new(big.Float).SetPrec(wp).SetInt64(k * k)
	term := new(big.Float).SetPrec(wp)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(wp)-4)
	for i := int64(0); ; i++ {
		term.Quo(pow, new(big.Float).SetInt64(2*i+1))
		if i%2 == 0 {
			sum.Add(sum, term)
		} else {
			sum.Sub(sum, term)
		}
		if term.Cmp(eps) < 0 {
			return sum
		}
		pow.Quo(pow, k2)
	}
}

// SinCos returns sin(theta) and cos(theta) at prec bits for |theta| <= 4,
// by Taylor series with guard bits (enough for the FFT angles, 0 < theta < pi).
func SinCos(theta *big.Float, prec uint) (sin, cos *big.Float) {
	wp := prec + 40
	x := new(big.Float).SetPrec(wp).Set(theta)
	s := new(big.Float).SetPrec(wp).Set(x)
	c := new(big.Float).SetPrec(wp).SetInt64(1)
	term := new(big.Float).SetPrec(wp).SetInt64(1) // x^k/k!
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(wp))
	for k := int64(1); ; k++ {
		// term = x^k/k!; add into sin (odd k) or cos (even k) with the sign of the series.
		term.Mul(term, x)
		term.Quo(term, new(big.Float).SetInt64(k))
		switch k % 4 {
		case 1:
			if k > 1 {
				s.Add(s, term)
			}
		case 2:
			c.Sub(c, term)
		case 3:
			s.Sub(s, term)
		case 0:
			c.Add(c, term)
		}
		if k > 4 && new(big.Float).Abs(term).Cmp(eps) < 0 {
			break
		}
	}
	return new(big.Float).SetPrec(prec).Set(s), new(big.Float).SetPrec(prec).Set(c)
}

// GMAngle returns the angle of the j-th root of the twiddle table, as the
// fraction num/den of pi: for 2^t <= j < 2^(t+1) it is
// (2*rev_t(j-2^t)+1)/2^(t+1), where rev_t reverses t bits. Entry j of the
// table is (cos, sin) of that angle; these are the roots of x^n+1 in the
// bit-reversed order the reference's FFT uses. j ranges over 1..1023; the
// twiddle functions (GMAngle, GMExact, GMBinary64) panic on an index outside
// their table, which only a programming error produces (see Constant).
func GMAngle(j int) (num, den int64) {
	if j < 1 || j >= 1024 {
		panic("arith: twiddle index out of range")
	}
	t := bits.Len(uint(j)) - 1
	r := int64(0)
	if t > 0 {
		r = int64(bits.Reverse64(uint64(j-1<<t)) >> (64 - t))
	}
	return 2*r + 1, int64(1) << (t + 1)
}

// GMExact returns table entry k (0 <= k < 2048; it panics otherwise) at prec bits. Entries 0 and
// 1 are unused and zero; the real part of the root at pi/2 is the exact zero,
// which the reference stores as -0 (GMBinary64 reproduces that).
func GMExact(k int, prec uint) *big.Float {
	j := k >> 1
	if j == 0 {
		return new(big.Float).SetPrec(prec)
	}
	num, den := GMAngle(j)
	if den == 2 {
		if k&1 == 0 {
			return new(big.Float).SetPrec(prec)
		}
		return new(big.Float).SetPrec(prec).SetInt64(1)
	}
	wp := prec + 16
	theta := Pi(wp)
	theta.Mul(theta, new(big.Float).SetInt64(num))
	theta.Quo(theta, new(big.Float).SetInt64(den))
	s, c := SinCos(theta, prec)
	if k&1 == 0 {
		return c
	}
	return s
}

// GMBinary64 returns table entry k rounded to binary64: the values of the
// reference's fpr_gm_tab, computed correctly rounded from the exact roots
// (computeGM, in the tests, which write gm_table.go and check it; a test
// also checks all 2048 entries against the reference's bit patterns). k is
// in 0..2047; it panics otherwise.
//
// The table is a constant of the source rather than computed on first use
// so that this function is a plain load, which the compiler inlines into
// the FFT loops of the backends (a lazy computation's check and call put
// it over the inlining budget).
func GMBinary64(k int) float64 { return gmTab[k] }
