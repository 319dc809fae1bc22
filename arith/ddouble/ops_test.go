package ddouble

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// opCase is one arithmetic operation checked against the oracle: the
// double-word operation, the oracle's (correctly rounded at 256 bits), and
// the operand generator.
type opCase struct {
	name string
	dd   func(x, y DD) DD
	ora  func(x, y *big.Float) *big.Float
	gen  func(r *rand.Rand) (DD, DD)
}

// general draws both operands over Falcon's exponent range.
func general(r *rand.Rand) (DD, DD) { return randDD(r, minExp, maxExp), randDD(r, minExp, maxExp) }

// positive draws x > 0 (for the square root); y is unused.
func positive(r *rand.Rand) (DD, DD) {
	x := randDD(r, minExp, maxExp)
	if x.Hi < 0 {
		x = neg(x)
	}
	return x, DD{}
}

// cancelling draws y close to -x (for x + y) so that the sum cancels
// from none to all of the 106 bits: y = -x perturbed in its low part, or
// in its high part by a few ulps, or with an unrelated low part; one pair
// in 64 is an exact opposite.
func cancelling(r *rand.Rand) (DD, DD) {
	x := randDD(r, minExp, maxExp)
	y := neg(x)
	_, e := math.Frexp(x.Hi)
	switch r.IntN(4) {
	case 0:
		y.Lo += randFloat(r, e-160, e-54)
	case 1:
		y.Hi = math.Nextafter(y.Hi, math.Inf(r.IntN(2)*2-1))
		y.Lo = randFloat(r, e-110, e-54)
	case 2:
		y.Lo = randFloat(r, e-110, e-54)
	}
	if r.IntN(64) == 0 {
		y = neg(x)
	}
	s, t := twoSum(y.Hi, y.Lo)
	return x, DD{s, t}
}

func mixed(gens ...func(*rand.Rand) (DD, DD)) func(*rand.Rand) (DD, DD) {
	return func(r *rand.Rand) (DD, DD) { return gens[r.IntN(len(gens))](r) }
}

var opCases = []opCase{
	{"add", dd.Add, ora.Add, mixed(general, cancelling)},
	{"sub", dd.Sub, ora.Sub, mixed(general, func(r *rand.Rand) (DD, DD) { x, y := cancelling(r); return x, neg(y) })},
	{"mul", dd.Mul, ora.Mul, general},
	{"sqr", func(x, _ DD) DD { return dd.Sqr(x) }, func(x, _ *big.Float) *big.Float { return ora.Sqr(x) }, general},
	{"inv", func(x, _ DD) DD { return dd.Inv(x) }, func(x, _ *big.Float) *big.Float { return ora.Inv(x) }, general},
	{"div", dd.Div, ora.Div, general},
	{"sqrt", func(x, _ DD) DD { return dd.Sqrt(x) }, func(x, _ *big.Float) *big.Float { return ora.Sqrt(x) }, positive},
}

// TestRelativeErrorVsOracle runs every arithmetic operation on 1,000,000
// random operand pairs (20,000 with -short) over Falcon's exponent range,
// additions and subtractions half of them under cancellation, and checks
// the relative error against the oracle's 256-bit result: it must stay
// within the proven bound that RelErrBound reports, and every result must
// be a normalised double word. The largest error seen is logged in units
// of u^2 = 2^-106 and as a power of two.
func TestRelativeErrorVsOracle(t *testing.T) {
	n := samples(1_000_000)
	for k, c := range opCases {
		t.Run(c.name, func(t *testing.T) {
			bound, ok := dd.RelErrBound(c.name)
			if !ok || bound <= 0 {
				t.Fatalf("no error bound for %s", c.name)
			}
			r := rand.New(rand.NewPCG(uint64(k), 0xdd))
			worst := 0.0
			var worstX, worstY DD
			for i := range n {
				x, y := c.gen(r)
				z := c.dd(x, y)
				if !isNormalised(z) {
					t.Fatalf("#%d %s(%v, %v) = %v is not normalised", i, c.name, x, y, z)
				}
				e := relErr(dd.Big(z), c.ora(dd.Big(x), dd.Big(y)))
				if e > worst {
					worst, worstX, worstY = e, x, y
				}
				if e > bound {
					t.Fatalf("#%d %s(%v, %v) = %v: relative error %.3g u^2 exceeds the bound %.3g u^2", i, c.name, x, y, z, inU2(e), inU2(bound))
				}
			}
			t.Logf("%s: %d samples, max relative error %.3f u^2 = 2^%.2f (bound %.3f u^2 = 2^%.2f) at (%v, %v)",
				c.name, n, inU2(worst), math.Log2(worst), inU2(bound), math.Log2(bound), worstX, worstY)
		})
	}
}

// TestExactOperations checks that Neg, Half and Double are exact on the
// value and that Float64 rounds it correctly, on random double words.
func TestExactOperations(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	half := big.NewFloat(0.5)
	for i := range samples(200_000) {
		x := randDD(r, minExp, maxExp)
		bx := dd.Big(x)
		if dd.Big(dd.Neg(x)).Cmp(new(big.Float).Neg(bx)) != 0 {
			t.Fatalf("#%d: Neg(%v) inexact", i, x)
		}
		if dd.Big(dd.Half(x)).Cmp(new(big.Float).SetPrec(bx.Prec()).Mul(bx, half)) != 0 {
			t.Fatalf("#%d: Half(%v) inexact", i, x)
		}
		if dd.Big(dd.Double(x)).Cmp(new(big.Float).SetPrec(bx.Prec()).Add(bx, bx)) != 0 {
			t.Fatalf("#%d: Double(%v) inexact", i, x)
		}
		if f, _ := bx.Float64(); dd.Float64(x) != f {
			t.Fatalf("#%d: Float64(%v) = %v, want %v", i, x, dd.Float64(x), f)
		}
	}
}

// TestSpecialValues checks signed zeros and the square root's domain.
func TestSpecialValues(t *testing.T) {
	nz := math.Copysign(0, -1)
	if z := dd.Sqrt(DD{nz, 0}); z.Hi != 0 || !math.Signbit(z.Hi) {
		t.Errorf("Sqrt(-0) = %v, want -0", z)
	}
	if z := dd.Sqrt(DD{}); z != (DD{}) || math.Signbit(z.Hi) {
		t.Errorf("Sqrt(0) = %v", z)
	}
	if z := dd.Sqrt(DD{-1, 0}); !math.IsNaN(z.Hi) {
		t.Errorf("Sqrt(-1) = %v, want NaN", z)
	}
	if z := dd.Sqrt(DD{math.Inf(1), 0}); !math.IsInf(z.Hi, 1) {
		t.Errorf("Sqrt(+Inf) = %v", z)
	}
	if z := dd.Sqrt(DD{4, 0}); z != (DD{2, 0}) {
		t.Errorf("Sqrt(4) = %v", z)
	}
	// Signed zeros follow IEEE-754 (as the native backend's do).
	for k, c := range []struct {
		name string
		z    DD
		neg  bool
	}{
		{"-0 + -0", dd.Add(DD{nz, 0}, DD{nz, 0}), true},
		{"-0 + +0", dd.Add(DD{nz, 0}, DD{}), false},
		{"-0 - +0", dd.Sub(DD{nz, 0}, DD{}), true},
		{"x - x", dd.Sub(DD{1, 0x1p-60}, DD{1, 0x1p-60}), false},
		{"-0 * 2", dd.Mul(DD{nz, 0}, DD{2, 0}), true},
		{"-0 * -2", dd.Mul(DD{nz, 0}, DD{-2, 0}), false},
		{"0 * -2", dd.Mul(DD{}, DD{-2, 1e-17}), true},
		{"-0 / 3", dd.Div(DD{nz, 0}, DD{3, 0}), true},
		{"0 / -3", dd.Div(DD{}, DD{-3, 0}), true},
		{"half(-0)", dd.Half(DD{nz, 0}), true},
		{"neg(0)", dd.Neg(DD{}), true},
	} {
		if c.z.Hi != 0 || c.z.Lo != 0 || math.Signbit(c.z.Hi) != c.neg {
			t.Errorf("#%d %s = %v, want a zero with sign bit %v", k, c.name, c.z, c.neg)
		}
		if math.Signbit(dd.Float64(c.z)) != c.neg {
			t.Errorf("#%d Float64(%s) loses the sign", k, c.name)
		}
	}
}

// TestNonFinite checks that infinities and NaNs propagate as IEEE-754
// binary64 arithmetic propagates them (the native backend's results), with
// a zero low part, including overflow of finite operands.
func TestNonFinite(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	huge := DD{math.MaxFloat64, 0x1p969}
	for k, c := range []struct {
		name string
		z    DD
		want float64
	}{
		{"inf + 1", dd.Add(DD{inf, 0}, DD{1, 0x1p-60}), inf},
		{"-inf - 1", dd.Sub(DD{-inf, 0}, DD{1, 0}), -inf},
		{"inf - inf", dd.Sub(DD{inf, 0}, DD{inf, 0}), nan},
		{"max + max", dd.Add(huge, huge), inf},
		{"inf * -2", dd.Mul(DD{inf, 0}, DD{-2, 1e-17}), -inf},
		{"inf * 0", dd.Mul(DD{inf, 0}, DD{}), nan},
		{"max * 2", dd.Mul(huge, DD{2, 0}), inf},
		{"sqr(inf)", dd.Sqr(DD{-inf, 0}), inf},
		{"1 / 0", dd.Div(DD{1, 1e-20}, DD{}), inf},
		{"-1 / 0", dd.Div(DD{-1, 0}, DD{}), -inf},
		{"0 / 0", dd.Div(DD{}, DD{}), nan},
		{"inf / 3", dd.Div(DD{inf, 0}, DD{3, 0}), inf},
		{"inv(0)", dd.Inv(DD{}), inf},
		{"inv(-0)", dd.Inv(DD{math.Copysign(0, -1), 0}), -inf},
		{"inv(-inf)", dd.Inv(DD{-inf, 0}), math.Copysign(0, -1)},
		{"nan + 1", dd.Add(DD{nan, 0}, DD{1, 0}), nan},
		{"nan * 1", dd.Mul(DD{nan, 0}, DD{1, 0}), nan},
	} {
		ok := math.Float64bits(c.z.Hi) == math.Float64bits(c.want) || (math.IsNaN(c.want) && math.IsNaN(c.z.Hi))
		if !ok || c.z.Lo != 0 {
			t.Errorf("#%d %s = %v, want {%v 0}", k, c.name, c.z, c.want)
		}
	}
}
