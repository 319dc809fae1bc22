package triword

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// fixed is an exact two's-complement fixed-point accumulator for the error
// checks: bit 0 weighs 2^fixLSB and the top bit is the sign. Every value
// the checks add is a binary32 limb or the exact binary64 product of two
// limbs, so a sum of them is exact as long as it stays within
// 2^-352 .. 2^287: products of subnormal limbs reach 2^-298, and the
// largest checked quantities (quotient times divisor) stay below 2^150.
// Sums of a few dozen such terms are computed exactly here in a few
// hundred nanoseconds, which is what lets the tests check a million
// random operations per operation; TestFixedMatchesBig checks the
// accumulator against math/big.
type fixed [fixW]uint64

const (
	fixW   = 10
	fixLSB = -352
)

// add adds the binary64 value v exactly.
func (f *fixed) add(v float64) {
	if v == 0 {
		return
	}
	b := math.Float64bits(v)
	be := int(b >> 52 & 0x7FF)
	m := b & (1<<52 - 1)
	if be == 0 {
		be = 1
	} else {
		m |= 1 << 52
	}
	pos := be - 1075 - fixLSB
	if pos < 0 || pos > 64*fixW-55 {
		panic(fmt.Sprintf("fixed: %g out of range", v))
	}
	w, sh := pos>>6, uint(pos&63)
	lo, hi := m<<sh, m>>(64-sh) // m>>64 is 0 in Go
	var c uint64
	for i := w; i < fixW; i++ {
		var x uint64
		switch i {
		case w:
			x = lo
		case w + 1:
			x = hi
		}
		if b>>63 == 0 {
			f[i], c = bits.Add64(f[i], x, c)
		} else {
			f[i], c = bits.Sub64(f[i], x, c)
		}
		if i > w && c == 0 {
			break
		}
	}
}

// addTW adds s*x for s = +1 or -1.
func (f *fixed) addTW(x TW, s float64) {
	f.add(s * float64(x.Hi))
	f.add(s * float64(x.Mid))
	f.add(s * float64(x.Lo))
}

// addProd adds s*x*y exactly (nine products of limbs, each exact in
// binary64).
func (f *fixed) addProd(x, y TW, s float64) {
	a := [3]float64{float64(x.Hi), float64(x.Mid), float64(x.Lo)}
	b := [3]float64{float64(y.Hi), float64(y.Mid), float64(y.Lo)}
	for _, ai := range a {
		for _, bj := range b {
			f.add(s * float64(ai*bj))
		}
	}
}

// float returns the accumulated value to about 64 bits.
func (f *fixed) float() float64 {
	g := *f
	neg := g[fixW-1]>>63 == 1
	if neg {
		var c uint64 = 1
		for i := range g {
			g[i], c = bits.Add64(^g[i], 0, c)
		}
	}
	i := fixW - 1
	for i >= 0 && g[i] == 0 {
		i--
	}
	if i < 0 {
		return 0
	}
	v := math.Ldexp(float64(g[i]), 64*i+fixLSB)
	if i > 0 {
		v += math.Ldexp(float64(g[i-1]), 64*(i-1)+fixLSB)
	}
	if neg {
		v = -v
	}
	return v
}

// The exact error checks. Each returns the relative error of the result
// r against the exact mathematical result of the operation on the exact
// inputs, and the magnitude of that exact result (for the underflow
// allowance). None divides or takes a root: the error of a quotient is
// measured on r*x - z, that of a square root on r*r - x.

func relErrAdd(x, y, r TW) (rel, mag float64) {
	var e, v fixed
	v.addTW(x, 1)
	v.addTW(y, 1)
	e = v
	e.addTW(r, -1)
	return relOf(e.float(), v.float())
}

func relErrMul(x, y, r TW) (rel, mag float64) {
	var e, v fixed
	v.addProd(x, y, 1)
	e = v
	e.addTW(r, -1)
	return relOf(e.float(), v.float())
}

// relErrDiv measures r ~ z/x: (r - z/x)/(z/x) = (r*x - z)/z.
func relErrDiv(z, x, r TW) (rel, mag float64) {
	var e, v fixed
	v.addTW(z, 1)
	e.addProd(r, x, 1)
	e.addTW(z, -1)
	zf, xf := v.float(), float64(x.Hi)+float64(x.Mid)
	if zf == 0 {
		if e.float() != 0 {
			return math.Inf(1), 0
		}
		return 0, 0
	}
	return math.Abs(e.float() / zf), math.Abs(zf / xf)
}

// relErrInv measures r ~ 1/x: r*x - 1.
func relErrInv(x, _, r TW) (rel, mag float64) {
	var e fixed
	e.addProd(r, x, 1)
	e.add(-1)
	return math.Abs(e.float()), math.Abs(1 / (float64(x.Hi) + float64(x.Mid)))
}

// relErrSqrt measures r ~ sqrt(x): with d = (r^2 - x)/x, the relative
// error is sqrt(1+d) - 1 = d/(sqrt(1+d) + 1).
func relErrSqrt(x, _, r TW) (rel, mag float64) {
	var e, v fixed
	v.addTW(x, 1)
	e.addProd(r, r, 1)
	e.addTW(x, -1)
	xf := v.float()
	d := e.float() / xf
	return math.Abs(d / (math.Sqrt(1+d) + 1)), math.Sqrt(xf)
}

// relOf is |e|/|v|, with 0/0 = 0 (an exact zero result).
func relOf(e, v float64) (rel, mag float64) {
	if v == 0 {
		if e == 0 {
			return 0, 0
		}
		return math.Inf(1), 0
	}
	return math.Abs(e / v), math.Abs(v)
}

// bigTW is the exact value of x (independent of Arith.Big).
func bigTW(x TW) *big.Float {
	s := new(big.Float).SetPrec(2000)
	for _, l := range [3]float32{x.Hi, x.Mid, x.Lo} {
		s.Add(s, new(big.Float).SetFloat64(float64(l)))
	}
	return s
}

// bigRelErr is the relative error of r against ref, in math/big.
func bigRelErr(r TW, ref *big.Float) float64 {
	d := new(big.Float).SetPrec(2000).Sub(bigTW(r), ref)
	if ref.Sign() == 0 {
		if d.Sign() == 0 {
			return 0
		}
		return math.Inf(1)
	}
	d.Quo(d, ref)
	f, _ := d.Float64()
	return math.Abs(f)
}

// TestFixedMatchesBig checks the exact fixed-point error computations
// against math/big: exact sums and products at 2000 bits, quotients and
// square roots correctly rounded at 300 bits.
func TestFixedMatchesBig(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewPCG(11, 12))
	var a Arith
	agree := func(op string, i int, fix, ref float64) {
		t.Helper()
		if fix == ref {
			return
		}
		if math.Abs(fix-ref) > 1e-12*ref {
			t.Errorf("%s #%d: fixed-point rel. error %g, math/big %g", op, i, fix, ref)
		}
	}
	for i := range n {
		x, y := randTW(rng, falconEmin, falconEmax), randTW(rng, falconEmin, falconEmax)
		bx, by := bigTW(x), bigTW(y)

		r := a.Add(x, y)
		fix, _ := relErrAdd(x, y, r)
		agree("add", i, fix, bigRelErr(r, new(big.Float).SetPrec(2000).Add(bx, by)))

		r = a.Mul(x, y)
		fix, _ = relErrMul(x, y, r)
		agree("mul", i, fix, bigRelErr(r, new(big.Float).SetPrec(2000).Mul(bx, by)))

		r = a.Inv(x)
		fix, _ = relErrInv(x, TW{}, r)
		agree("inv", i, fix, bigRelErr(r, new(big.Float).SetPrec(300).Quo(big.NewFloat(1), bx)))

		z, d := genDiv(rng, falconEmin)
		r = a.Div(z, d)
		fix, _ = relErrDiv(z, d, r)
		agree("div", i, fix, bigRelErr(r, new(big.Float).SetPrec(300).Quo(bigTW(z), bigTW(d))))

		x = absTW(x)
		r = a.Sqrt(x)
		fix, _ = relErrSqrt(x, TW{}, r)
		agree("sqrt", i, fix, bigRelErr(r, new(big.Float).SetPrec(300).Sqrt(bigTW(x))))
	}
}
