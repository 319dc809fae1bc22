// Package arithtest is the conformance suite and the benchmark set every
// arithmetic backend runs from its own tests, in the manner of
// testing/fstest: a backend's test calls
//
//	arithtest.Run(t, mybackend.Arith{}, arithtest.Options{})
//
// and its benchmark file
//
//	func BenchmarkOps(b *testing.B) { arithtest.Bench(b, mybackend.Arith{}) }
//
// Run checks the contract of the operation set (package arith's
// "Semantics every backend follows", the reference's fpr layer):
// conversions and their round trips, the exact operations (Neg, Half,
// Double), the rounded ones against exact big.Float results, the integer
// roundings and the comparison (the decisions signing takes), the signs
// of zero, the constants and the FFT table, expm_p63's contract, and for a
// backend with a fused multiply-add (arith.Fused) its single rounding. Every
// expected value comes from Go's float64 arithmetic, package math or
// exact big.Float arithmetic, never from a backend: a backend that fails
// here disagrees with mathematics, not with another backend.
//
// It is not a precision measurement (fprlab arith errors is) and it does
// not sign: what Falcon computes over a backend is checked by package
// falcon's tests.
package arithtest

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// Options describe where a backend legitimately departs from binary64.
// The zero Options describe a binary64 backend that follows IEEE 754
// (native, a plugin over the host's double).
type Options struct {
	// Bits is the precision of the rounded operations (Add, Sub, Mul, Sqr,
	// Div, Inv, Sqrt, Of, Scaled, Const, GM): every result is within a
	// relative 2^-Bits of the exact value, and values of at most Bits
	// significant bits convert exactly. Zero means binary64: every
	// rounded result is the binary64 one, compared bit for bit with Go's
	// float64 arithmetic, over the whole exponent range (subnormals
	// included). A backend that rounds toward zero or stochastically at
	// P bits has Bits = P-1; a double-word or triple-word backend the
	// bits its error analysis guarantees.
	Bits int
	// FlushSubnormals: a result below the smallest normal binary64 value
	// is zero, as in the reference's emulated fpr (emu64). Binary64 only.
	FlushSubnormals bool
	// EmulatedZero: -0 compares below +0 (Lt(-0, +0)) and Floor(-0) is
	// -1, as in the reference's emulated fpr (emu64), whose comparison
	// and floor work on the bit patterns.
	EmulatedZero bool
	// UnsignedZeroProducts: a product that is zero is +0 whatever the
	// signs of its factors (IEEE 754 gives -0 for factors of opposite
	// signs), as in the triple words, whose product sums limb products
	// from +0. Signing never depends on it: Neg still gives -0, and the
	// integer roundings and the comparison treat both zeros alike.
	UnsignedZeroProducts bool
	// ExpmBits is the number of correct bits expm_p63 guarantees. Zero
	// means the contract's 45 (package arith), or Bits-3 for a backend
	// of fewer than 48 bits, which cannot hold more.
	ExpmBits int
	// Short runs fewer random operands (a backend whose operations are
	// slow, such as a plugin called through the C ABI under the race
	// detector); testing.Short() does the same.
	Short bool
}

func (o Options) binary64() bool { return o.Bits == 0 }

// precision returns the significant bits every value of the backend holds
// (53 for binary64).
func (o Options) precision() int {
	if o.binary64() {
		return 53
	}
	return o.Bits
}

// tolerance is the relative error bound of the rounded operations.
func (o Options) tolerance() float64 { return math.Ldexp(1, -o.precision()) }

// Run runs the conformance suite over a as subtests of t.
func Run[F any](t *testing.T, a arith.Arith[F], opt Options) {
	t.Helper()
	c := &checker[F]{a: a, opt: opt, n: 1000}
	if opt.Short || testing.Short() {
		c.n = 100
	}
	t.Run("Conversions", c.conversions)
	t.Run("Exact", c.exact)
	t.Run("Rounded", c.rounded)
	t.Run("Integers", c.integers)
	t.Run("Compare", c.compare)
	t.Run("Zeros", c.zeros)
	t.Run("Tables", c.tables)
	t.Run("ExpmP63", c.expm)
	if _, ok := a.(arith.Fused[F]); ok {
		t.Run("Fused", c.fused)
	}
	if opt.binary64() {
		t.Run("Range", c.exponentRange)
	}
}

type checker[F any] struct {
	a   arith.Arith[F]
	opt Options
	n   int // random operands per check
}

// fits reports whether x has at most the backend's significant bits (so
// that it converts exactly).
func (c *checker[F]) fits(x float64) bool {
	return new(big.Float).SetPrec(uint(c.opt.precision())).SetFloat64(x).Acc() == big.Exact
}

// operand returns a random value of Falcon's range (magnitudes 2^-20 to
// 2^20, both signs) with the backend's significant bits or fewer, so that
// it converts exactly.
func (c *checker[F]) operand(r *rand.Rand) float64 {
	p := min(c.opt.precision(), 53)
	m := r.Uint64()>>(64-p) | 1<<(p-1)
	x := math.Ldexp(float64(m), r.IntN(41)-20-p)
	if r.IntN(2) == 0 {
		x = -x
	}
	return x
}

// same reports whether two binary64 values are equal bit for bit (the
// sign of zero included).
func same(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }

// near checks that the backend's value got is within the rounded
// operations' tolerance of the exact value want.
func (c *checker[F]) near(t *testing.T, what string, got F, want *big.Float) {
	t.Helper()
	g := c.a.Big(got)
	if want.Sign() == 0 {
		if g.Sign() != 0 {
			t.Errorf("%s = %g, want 0", what, g)
		}
		return
	}
	d := new(big.Float).SetPrec(256).Sub(g, want)
	d.Quo(d, want)
	rel, _ := d.Float64()
	if math.Abs(rel) > c.opt.tolerance() {
		t.Errorf("%s = %.25g, want %.25g (relative error %.3g, bound 2^-%d)", what, g, want, rel, c.opt.precision())
	}
}

// conversions: small integers, values of the backend's precision and
// Scaled's powers of two convert exactly, and back (Float64 and Big);
// large integers round.
func (c *checker[F]) conversions(t *testing.T) {
	a := c.a
	r := rand.New(rand.NewPCG(1, 1))
	exactInt := int64(1)<<min(c.opt.precision(), 53) - 1
	for _, i := range []int64{0, 1, -1, 2, -3, 12289, -12289, 1 << 20, exactInt, -exactInt} {
		if got := a.Float64(a.Of(i)); got != float64(i) {
			t.Errorf("Float64(Of(%d)) = %v", i, got)
		}
		if got := a.Big(a.Of(i)); !got.IsInt() || got.Cmp(new(big.Float).SetInt64(i)) != 0 {
			t.Errorf("Big(Of(%d)) = %v", i, got)
		}
	}
	for range c.n {
		i := r.Int64N(exactInt+1) - exactInt/2
		if got := a.Float64(a.Of(i)); got != float64(i) {
			t.Fatalf("Float64(Of(%d)) = %v", i, got)
		}
		x := c.operand(r)
		v := a.FromFloat64(x)
		if got := a.Float64(v); !same(got, x) {
			t.Fatalf("Float64(FromFloat64(%v)) = %v", x, got)
		}
		if got, acc := a.Big(v).Float64(); !same(got, x) || acc != big.Exact {
			t.Fatalf("Big(FromFloat64(%v)) = %v (%v)", x, got, acc)
		}
	}
	// Integers beyond the precision, and Scaled, round once.
	for _, i := range []int64{math.MaxInt64, math.MinInt64, 1<<53 + 1, -(1<<60 + 12345), 3<<58 + 7} {
		want := new(big.Float).SetInt64(i)
		if c.opt.binary64() {
			if got, w := a.Float64(a.Of(i)), float64(i); !same(got, w) {
				t.Errorf("Of(%d) = %v, want %v", i, got, w)
			}
			continue
		}
		c.near(t, fmt.Sprintf("Of(%d)", i), a.Of(i), want)
	}
	for _, s := range []struct {
		i int64
		e int
	}{{3, -2}, {-5, 10}, {1, -60}, {12289, -31}, {-(1<<31 - 1), -31}, {1<<53 + 1, -53}, {math.MaxInt64, -100}, {7, 0}} {
		want := new(big.Float).SetMantExp(new(big.Float).SetInt64(s.i), s.e)
		if c.opt.binary64() {
			w, _ := want.Float64()
			if got := a.Float64(a.Scaled(s.i, s.e)); !same(got, w) {
				t.Errorf("Scaled(%d, %d) = %v, want %v", s.i, s.e, got, w)
			}
			continue
		}
		c.near(t, fmt.Sprintf("Scaled(%d, %d)", s.i, s.e), a.Scaled(s.i, s.e), want)
	}
}

// exact: Neg, Half and Double are exact, and so are the rounded
// operations whose exact result the backend holds.
func (c *checker[F]) exact(t *testing.T) {
	a := c.a
	r := rand.New(rand.NewPCG(2, 2))
	for range c.n {
		x := c.operand(r)
		v := a.FromFloat64(x)
		for _, o := range []struct {
			name string
			got  F
			want float64
		}{{"Neg", a.Neg(v), -x}, {"Half", a.Half(v), x / 2}, {"Double", a.Double(v), x * 2}} {
			if got := a.Float64(o.got); !same(got, o.want) {
				t.Fatalf("%s(%v) = %v, want %v", o.name, x, got, o.want)
			}
		}
	}
	f := a.FromFloat64
	for _, o := range []struct {
		name string
		got  F
		want float64
	}{
		{"Add(3, 4)", a.Add(f(3), f(4)), 7},
		{"Add(0.75, -2)", a.Add(f(0.75), f(-2)), -1.25},
		{"Sub(10, 12.5)", a.Sub(f(10), f(12.5)), -2.5},
		{"Mul(1.5, 2.5)", a.Mul(f(1.5), f(2.5)), 3.75},
		{"Mul(-3, 2^-10)", a.Mul(f(-3), f(0x1p-10)), -3 * 0x1p-10},
		{"Sqr(-3)", a.Sqr(f(-3)), 9},
		{"Div(7, 2)", a.Div(f(7), f(2)), 3.5},
		{"Div(-1, 8)", a.Div(f(-1), f(8)), -0.125},
		{"Inv(4)", a.Inv(f(4)), 0.25},
		{"Inv(-0.5)", a.Inv(f(-0.5)), -2},
		{"Sqrt(49)", a.Sqrt(f(49)), 7},
		{"Sqrt(2^-20)", a.Sqrt(f(0x1p-20)), 0x1p-10},
		{"Sqrt(0.5625)", a.Sqrt(f(0.5625)), 0.75},
		{"Sqrt(0)", a.Sqrt(f(0)), 0},
	} {
		if got := a.Float64(o.got); !same(got, o.want) {
			t.Errorf("%s = %v, want %v", o.name, got, o.want)
		}
	}
	// The square roots of perfect squares of up to half the precision.
	for range c.n {
		k := r.Int64N(1<<(min(c.opt.precision(), 62)/2)) + 1
		if got := a.Float64(a.Sqrt(a.Of(k * k))); got != float64(k) {
			t.Fatalf("Sqrt(%d) = %v, want %d", k*k, got, k)
		}
	}
}

// rounded: Add, Sub, Mul, Sqr, Div, Inv and Sqrt of random operands are
// the correctly rounded binary64 results (binary64 backends: Go's float64
// arithmetic), or within the tolerance of the exact ones (big.Float, 64
// bits beyond the backend's precision).
func (c *checker[F]) rounded(t *testing.T) {
	a := c.a
	r := rand.New(rand.NewPCG(3, 3))
	prec := uint(c.opt.precision() + 64)
	exact := func(f func(z, x, y *big.Float) *big.Float, x, y float64) *big.Float {
		return f(new(big.Float).SetPrec(prec), big.NewFloat(x), big.NewFloat(y))
	}
	sqrt := func(z, x, _ *big.Float) *big.Float { return z.Sqrt(x) }
	for range c.n {
		x, y := c.operand(r), c.operand(r)
		vx, vy := a.FromFloat64(x), a.FromFloat64(y)
		ax := math.Abs(x)
		for _, o := range []struct {
			name  string
			got   F
			float float64
			exact func(z, x, y *big.Float) *big.Float
			x, y  float64
		}{
			{"Add", a.Add(vx, vy), x + y, (*big.Float).Add, x, y},
			{"Sub", a.Sub(vx, vy), x - y, (*big.Float).Sub, x, y},
			{"Mul", a.Mul(vx, vy), x * y, (*big.Float).Mul, x, y},
			{"Sqr", a.Sqr(vx), x * x, (*big.Float).Mul, x, x},
			{"Div", a.Div(vx, vy), x / y, (*big.Float).Quo, x, y},
			{"Inv", a.Inv(vy), 1 / y, (*big.Float).Quo, 1, y},
			{"Sqrt", a.Sqrt(a.FromFloat64(ax)), math.Sqrt(ax), sqrt, ax, 0},
		} {
			what := fmt.Sprintf("%s(%v, %v)", o.name, o.x, o.y)
			if c.opt.binary64() {
				if got := a.Float64(o.got); !same(got, o.float) {
					t.Fatalf("%s = %v, want %v", what, got, o.float)
				}
				continue
			}
			c.near(t, what, o.got, exact(o.exact, o.x, o.y))
			if t.Failed() {
				return
			}
		}
	}
}

// fused: a backend with a fused multiply-add (arith.Fused) rounds x*y + z
// once: math.FMA's result for binary64, within 2^-Bits of the exact value
// otherwise. The operands include products that cancel z almost entirely,
// where one rounding and two differ most.
func (c *checker[F]) fused(t *testing.T) {
	a := c.a
	f := a.(arith.Fused[F])
	r := rand.New(rand.NewPCG(9, 9))
	prec := uint(3*c.opt.precision() + 64)
	for i := range c.n {
		x, y := c.operand(r), c.operand(r)
		z := c.operand(r)
		if i%2 == 0 {
			// z near -x*y: the product's low bits decide the result.
			z = -x * y
			if !c.fits(z) {
				continue
			}
		}
		got := f.FMA(a.FromFloat64(x), a.FromFloat64(y), a.FromFloat64(z))
		what := fmt.Sprintf("FMA(%v, %v, %v)", x, y, z)
		if c.opt.binary64() {
			if g, want := a.Float64(got), math.FMA(x, y, z); !same(g, want) {
				t.Fatalf("%s = %v, want %v", what, g, want)
			}
			continue
		}
		exact := new(big.Float).SetPrec(prec).Mul(big.NewFloat(x), big.NewFloat(y))
		exact.Add(exact, big.NewFloat(z))
		c.near(t, what, got, exact)
		if t.Failed() {
			return
		}
	}
}

// integers: Rint rounds half to even, Floor toward -inf, Trunc toward
// zero, on halves, near-halves, integers and random values (math's
// RoundToEven, Floor and Trunc).
func (c *checker[F]) integers(t *testing.T) {
	a := c.a
	xs := []float64{0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, -3.5, 0.25, -0.75, 2.4990234375, -2.5009765625,
		7, -7, 1 << 20, -(1<<20 + 0.5), 12288.5, -12289.5, 0x1p-30, -0x1p-30, 1<<40 + 0.5, -(1<<40 + 1.5)}
	r := rand.New(rand.NewPCG(4, 4))
	for range c.n {
		xs = append(xs, c.operand(r))
	}
	for _, x := range xs {
		if !c.fits(x) {
			continue
		}
		v := a.FromFloat64(x)
		if got, want := a.Rint(v), int64(math.RoundToEven(x)); got != want {
			t.Errorf("Rint(%v) = %d, want %d", x, got, want)
		}
		if got, want := a.Floor(v), int64(math.Floor(x)); got != want {
			t.Errorf("Floor(%v) = %d, want %d", x, got, want)
		}
		if got, want := a.Trunc(v), int64(math.Trunc(x)); got != want {
			t.Errorf("Trunc(%v) = %d, want %d", x, got, want)
		}
	}
}

// compare: Lt is the strict order of the values.
func (c *checker[F]) compare(t *testing.T) {
	a := c.a
	r := rand.New(rand.NewPCG(5, 5))
	pairs := [][2]float64{{1, 2}, {2, 1}, {-1, 0}, {0, -1}, {-2, -1}, {3, 3}, {-3, -3}, {0x1p-20, 0x1p-19}, {-0x1p-20, 0x1p-20}, {1, 1 + 0x1p-40}}
	for range c.n {
		x := c.operand(r)
		pairs = append(pairs, [2]float64{x, c.operand(r)}, [2]float64{x, x}, [2]float64{x, -x})
	}
	for _, p := range pairs {
		x, y := p[0], p[1]
		if !c.fits(x) || !c.fits(y) {
			continue
		}
		if got := a.Lt(a.FromFloat64(x), a.FromFloat64(y)); got != (x < y) {
			t.Errorf("Lt(%v, %v) = %v", x, y, got)
		}
	}
}

// zeros: the signs of zero that signing can produce (Neg of 0, a product
// with a negative factor), x-x is +0, and what the integer roundings and
// the comparison make of -0.
func (c *checker[F]) zeros(t *testing.T) {
	a := c.a
	zero, negZero := a.Of(0), a.Neg(a.Of(0))
	if got := a.Float64(zero); !same(got, 0) {
		t.Errorf("Of(0) = %v", got)
	}
	if got := a.Float64(negZero); !same(got, math.Copysign(0, -1)) {
		t.Errorf("Neg(Of(0)) = %v, want -0", got)
	}
	if got := a.Float64(a.Mul(a.Of(-3), zero)); !same(got, math.Copysign(0, -1)) && !(c.opt.UnsignedZeroProducts && same(got, 0)) {
		t.Errorf("Mul(-3, 0) = %v, want -0", got)
	}
	if got := a.Float64(a.FromFloat64(math.Copysign(0, -1))); !same(got, math.Copysign(0, -1)) {
		t.Errorf("FromFloat64(-0) = %v, want -0", got)
	}
	x := a.FromFloat64(-1.25)
	if got := a.Float64(a.Sub(x, x)); !same(got, 0) {
		t.Errorf("Sub(-1.25, -1.25) = %v, want +0", got)
	}
	if got := a.Float64(a.Add(x, a.Neg(x))); !same(got, 0) {
		t.Errorf("Add(-1.25, 1.25) = %v, want +0", got)
	}
	for _, v := range []F{zero, negZero} {
		if a.Lt(v, zero) && a.Lt(zero, v) {
			t.Errorf("Lt: zeros %v and +0 each below the other", a.Float64(v))
		}
		if a.Rint(v) != 0 || a.Trunc(v) != 0 {
			t.Errorf("Rint, Trunc(%v) = %d, %d", a.Float64(v), a.Rint(v), a.Trunc(v))
		}
	}
	if a.Floor(zero) != 0 || a.Lt(zero, negZero) {
		t.Errorf("Floor(+0) = %d, Lt(+0, -0) = %v", a.Floor(zero), a.Lt(zero, negZero))
	}
	// IEEE 754: -0 = +0; the reference's emulated fpr orders the bit
	// patterns.
	wantLt, wantFloor := false, int64(0)
	if c.opt.EmulatedZero {
		wantLt, wantFloor = true, -1
	}
	if got := a.Lt(negZero, zero); got != wantLt {
		t.Errorf("Lt(-0, +0) = %v, want %v", got, wantLt)
	}
	if got := a.Floor(negZero); got != wantFloor {
		t.Errorf("Floor(-0) = %d, want %d", got, wantFloor)
	}
}

// tables: the named constants and the FFT table are their exact values
// rounded (bit for bit the reference's binary64 values, for binary64
// backends).
func (c *checker[F]) tables(t *testing.T) {
	a := c.a
	tol := max(c.opt.tolerance(), 0x1p-52) // a wider backend may return the binary64 constant
	check := func(what string, got F, exact *big.Float) {
		t.Helper()
		g := a.Big(got)
		d := new(big.Float).SetPrec(256).Sub(g, exact)
		if exact.Sign() != 0 {
			d.Quo(d, exact)
		}
		if rel, _ := d.Float64(); math.Abs(rel) > tol {
			t.Errorf("%s = %.20g, want %.20g (relative error %.3g)", what, g, exact, rel)
		}
	}
	for k := range arith.NumConstants {
		cst := arith.Constant(k)
		if c.opt.binary64() {
			if got, want := a.Float64(a.Const(cst)), arith.Binary64(cst); !same(got, want) {
				t.Errorf("Const(%v) = %v, want %v", cst, got, want)
			}
			continue
		}
		check(fmt.Sprintf("Const(%v)", cst), a.Const(cst), exactConstants()[k])
	}
	// The FFT table against the reference's binary64 one (fpr_gm_tab),
	// itself within 2^-53 of the exact twiddles: absolute 2^-51 bounds a
	// wider backend's exact twiddle and a narrower one's rounding.
	for k := range 2048 {
		got, want := a.Float64(a.GM(k)), arith.GMBinary64(k)
		if c.opt.binary64() && !same(got, want) || math.Abs(got-want) > max(tol, 0x1p-51) {
			t.Errorf("GM(%d) = %v, want %v", k, got, want)
		}
	}
}

// exactConstants are the named constants to 128 bits, computed once per
// test binary (some take a series evaluation each).
var exactConstants = sync.OnceValue(func() []*big.Float {
	v := make([]*big.Float, arith.NumConstants)
	for k := range v {
		v[k] = arith.Exact(arith.Constant(k), 128)
	}
	return v
})

// expm: ExpmP63(x, ccs) is 2^63*ccs*exp(-x) to the contract's bits, for
// 0 <= x < ln 2 and 0 <= ccs < 1.
func (c *checker[F]) expm(t *testing.T) {
	a := c.a
	bits := c.opt.ExpmBits
	if bits == 0 {
		bits = min(45, c.opt.precision()-3)
	}
	r := rand.New(rand.NewPCG(6, 6))
	xs := [][2]float64{{0, 0.5}, {0, 0.999}, {0.693, 0.999}, {0.5, 0}, {0.25, 0.75}}
	for range c.n {
		xs = append(xs, [2]float64{r.Float64() * math.Ln2, r.Float64()})
	}
	for _, p := range xs {
		x, ccs := p[0], p[1]
		if !c.fits(x) || !c.fits(ccs) {
			x, ccs = math.Round(x*0x1p20)*0x1p-20, math.Round(ccs*0x1p20)*0x1p-20
		}
		got := a.ExpmP63(a.FromFloat64(x), a.FromFloat64(ccs))
		want := math.Ldexp(ccs*math.Exp(-x), 63) // within 2^-51 relative, far below the contract
		if d := math.Abs(float64(got) - want); d > math.Ldexp(1, 63-bits) {
			t.Errorf("ExpmP63(%v, %v) = %d, want %.0f within 2^%d (off by 2^%.1f)", x, ccs, got, want, 63-bits, math.Log2(d))
		}
	}
}

// exponentRange (binary64 backends): subnormal results (or zero, when
// the backend flushes them), integers at the edge of int64, and the
// largest and smallest normal values.
func (c *checker[F]) exponentRange(t *testing.T) {
	a := c.a
	sub := func(x float64) float64 {
		if c.opt.FlushSubnormals && x != 0 && math.Abs(x) < 0x1p-1022 {
			return math.Copysign(0, x)
		}
		return x
	}
	tiny, big1 := 0x1p-1022, math.MaxFloat64
	for _, o := range []struct {
		name string
		got  F
		want float64
	}{
		{"Half(2^-1022)", a.Half(a.FromFloat64(tiny)), sub(tiny / 2)},
		{"Mul(2^-600, -2^-450)", a.Mul(a.FromFloat64(0x1p-600), a.FromFloat64(-0x1p-450)), sub(-0x1p-1050)},
		{"Mul(2^-600, 2^-600)", a.Mul(a.FromFloat64(0x1p-600), a.FromFloat64(0x1p-600)), 0},
		{"Sub(1.5*2^-1022, 2^-1022)", a.Sub(a.FromFloat64(1.5*tiny), a.FromFloat64(tiny)), sub(tiny / 2)},
		{"Scaled(3, -1074)", a.Scaled(3, -1074), sub(3 * 0x1p-1074)},
		{"Half(MaxFloat64)", a.Half(a.FromFloat64(big1)), big1 / 2},
		{"Mul(2^500, 2^500)", a.Mul(a.FromFloat64(0x1p500), a.FromFloat64(0x1p500)), 0x1p1000},
		{"Inv(2^-1000)", a.Inv(a.FromFloat64(0x1p-1000)), 0x1p1000},
		{"Sqrt(2^-1022)", a.Sqrt(a.FromFloat64(tiny)), 0x1p-511},
		{"Of(MinInt64)", a.Of(math.MinInt64), -0x1p63},
		{"FromFloat64(2^-1022)", a.FromFloat64(tiny), tiny},
	} {
		if got := a.Float64(o.got); !same(got, o.want) {
			t.Errorf("%s = %v, want %v", o.name, got, o.want)
		}
	}
	for _, x := range []float64{0x1p62, -0x1p62, 0x1p62 - 1024, 4503599627370497.5 - 0.5} {
		v := a.FromFloat64(x)
		if got, want := a.Rint(v), int64(x); got != want {
			t.Errorf("Rint(%v) = %d, want %d", x, got, want)
		}
		if got, want := a.Trunc(v), int64(x); got != want {
			t.Errorf("Trunc(%v) = %d, want %d", x, got, want)
		}
	}
}
