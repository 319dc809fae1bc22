package oracle

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ALTree/bigfloat"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// testPrecs are the precisions the accuracy tests run at.
var testPrecs = []uint{64, 113, 256, 521}

func mustNew(t testing.TB, prec uint) Arith {
	t.Helper()
	a, err := New(prec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func mustVirtual(t testing.TB, prec uint) Arith {
	t.Helper()
	a, err := NewVirtual(prec)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// taylorExp computes exp(x) for |x| <= 1 by the plain Taylor series at w
// bits, stopping when the terms fall below 2^-w. It is independent of
// bigfloat's Newton-on-AGM-logarithm method.
func taylorExp(x *big.Float, w uint) *big.Float {
	sum := new(big.Float).SetPrec(w).SetInt64(1)
	term := new(big.Float).SetPrec(w).SetInt64(1)
	eps := new(big.Float).SetMantExp(big.NewFloat(1), -int(w))
	for k := int64(1); ; k++ {
		term.Mul(term, x)
		term.Quo(term, new(big.Float).SetInt64(k))
		sum.Add(sum, term)
		if new(big.Float).Abs(term).Cmp(eps) < 0 {
			return sum
		}
	}
}

// relErrLog2 returns log2(|got-want|/|want|) (-Inf when equal).
func relErrLog2(got, want *big.Float) float64 {
	d := new(big.Float).SetPrec(64).Sub(got, want)
	if d.Sign() == 0 {
		return math.Inf(-1)
	}
	d.Quo(d, want)
	m := new(big.Float)
	e := d.MantExp(m)
	f, _ := m.Float64()
	return float64(e) + math.Log2(math.Abs(f))
}

// randFloat returns a random p-bit value in [1/2, 1) times 2^e, with a
// random sign when signed.
func randFloat(rng *rand.Rand, p uint, e int, signed bool) *big.Float {
	m := new(big.Int)
	for m.BitLen() < int(p) {
		m.Lsh(m, 64).Or(m, new(big.Int).SetUint64(rng.Uint64()))
	}
	m.Rsh(m, uint(m.BitLen())-p)
	m.SetBit(m, int(p)-1, 1)
	z := new(big.Float).SetPrec(p).SetInt(m)
	z.SetMantExp(z, e-int(p))
	if signed && rng.IntN(2) == 0 {
		z.Neg(z)
	}
	return z
}

func TestExpMatchesTaylor(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	n := 60
	if testing.Short() {
		n = 10
	}
	for _, p := range testPrecs {
		a := mustNew(t, p)
		for i := 0; i < n; i++ {
			// Falcon's domain is -ln2 < x <= 0; cover -1..1 and a few tiny arguments.
			e := -rng.IntN(3)
			if i%10 == 9 {
				e = -40 - rng.IntN(100)
			}
			x := randFloat(rng, p, e, true)
			got := a.Exp(x)
			want := taylorExp(x, p+128)
			if r := relErrLog2(got, want); r > -float64(p-2) {
				t.Fatalf("P=%d exp(%g): relative error 2^%.2f, want <= 2^-%d", p, x, r, p-2)
			}
			// Correct rounding: the 128-bit-deeper series rounds to the same value.
			if round := new(big.Float).SetPrec(p).Set(want); round.Cmp(got) != 0 {
				t.Errorf("P=%d exp(%g) is not the correctly rounded value", p, x)
			}
		}
	}
}

// TestExpApproxErrorMargin checks the bound expBracket rests on: expApprox
// at w bits is within 2^(expRelErrLog2-w) of exp(x), against the plain
// Taylor series and against bigfloat.Exp (Newton's iteration on an AGM
// logarithm), two independent evaluations. It asks for 8 bits of slack.
func TestExpApproxErrorMargin(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	n := 40
	if testing.Short() {
		n = 8
	}
	worst := math.Inf(-1)
	for _, w := range []uint{75, 128, 320, 577, 1100} {
		for i := 0; i < n; i++ {
			x := randFloat(rng, w, 1-rng.IntN(5), true)
			if i%8 == 7 {
				x = randFloat(rng, w, 3+rng.IntN(6), true) // large arguments: more reduction
			}
			got := expApprox(x, w)
			var want *big.Float
			if x.MantExp(nil) <= 0 {
				want = taylorExp(x, w+128)
			} else {
				want = bigfloat.Exp(new(big.Float).SetPrec(w + 128).Set(x))
			}
			r := relErrLog2(got, want) + float64(w)
			worst = max(worst, r)
			if r > expRelErrLog2-8 {
				t.Fatalf("w=%d: expApprox(%g) has relative error 2^(%.2f-w), margin assumes 2^(%d-w)", w, x, r, expRelErrLog2)
			}
			if w <= 577 {
				bf := bigfloat.Exp(new(big.Float).SetPrec(w).Set(x))
				if r := relErrLog2(bf, want) + float64(w); r > 2 {
					t.Fatalf("w=%d: bigfloat.Exp(%g) and the Taylor series differ by 2^(%.2f-w)", w, x, r)
				}
			}
		}
	}
	t.Logf("worst expApprox error: 2^(%.2f - w)", worst)
}

func TestExpmP63Exact(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	a := mustNew(t, DefaultPrec)
	ln2 := arith.Ln2(200)
	n := 200
	if testing.Short() {
		n = 30
	}
	for i := 0; i < n; i++ {
		u := rng.Float64()
		x := new(big.Float).SetPrec(256).Mul(ln2, big.NewFloat(u))
		x.SetPrec(53)
		ccs := new(big.Float).SetFloat64(rng.Float64())
		got := a.ExpmP63(x, ccs)
		// Independent value: Taylor series at 400 bits, times ccs, times 2^63, floored.
		v := taylorExp(new(big.Float).Neg(x), 400)
		v.Mul(v, ccs)
		v.SetMantExp(v, 63)
		want, _ := v.Uint64()
		if got != want {
			t.Fatalf("expm_p63(%g, %g) = %d, want %d", x, ccs, got, want)
		}
		// The reference binary64 evaluation is within 2^-50 of it (plus truncation).
		xf, _ := x.Float64()
		cf, _ := ccs.Float64()
		nat := native.ExpmP63(xf, cf)
		if d := math.Abs(float64(nat) - float64(want)); d > 1<<14 {
			t.Errorf("native expm_p63(%g, %g) = %d, oracle %d: differ by %g", xf, cf, nat, want, d)
		}
	}
	// Exact corner cases.
	cases := []struct {
		x, ccs float64
		want   uint64
	}{
		{0, 1, 1 << 63},
		{0, 0.5, 1 << 62},
		{0, 0, 0},
		{0.5, 0, 0},
	}
	for _, c := range cases {
		if got := a.ExpmP63(a.FromFloat64(c.x), a.FromFloat64(c.ccs)); got != c.want {
			t.Errorf("expm_p63(%g, %g) = %d, want %d", c.x, c.ccs, got, c.want)
		}
	}
}

// TestVPrecExpmP63 checks vprec:P's documented evaluation: exp(-x) rounded
// to P bits, times ccs rounded to P bits, times 2^63, truncated.
func TestVPrecExpmP63(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, p := range []uint{24, 53, 100} {
		a := mustVirtual(t, p)
		for i := 0; i < 40; i++ {
			x := a.FromFloat64(rng.Float64() * math.Ln2)
			ccs := a.FromFloat64(rng.Float64())
			e := new(big.Float).SetPrec(p).Set(taylorExp(new(big.Float).Neg(x), p+200))
			y := new(big.Float).SetPrec(p).Mul(e, ccs)
			y.SetMantExp(y, 63)
			want, _ := y.Uint64()
			if got := a.ExpmP63(x, ccs); got != want {
				t.Fatalf("vprec:%d expm_p63(%g, %g) = %d, want %d", p, x, ccs, got, want)
			}
		}
	}
}

// TestSqrtCorrectlyRounded checks sqrt two independent ways: against an
// integer square root of the scaled input (agreement to P-2 bits), and
// exactly: the root r must satisfy (r - ulp/2)^2 <= x <= (r + ulp/2)^2,
// with equality excluded unless the tie went to the even neighbour.
func TestSqrtCorrectlyRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := 300
	if testing.Short() {
		n = 50
	}
	for _, p := range testPrecs {
		a := mustNew(t, p)
		for i := 0; i < n; i++ {
			x := randFloat(rng, p, rng.IntN(400)-200, false)
			if i%7 == 0 { // perfect squares
				r := randFloat(rng, p/2, rng.IntN(100)-50, false)
				x = new(big.Float).SetPrec(p).Mul(r, r)
			}
			r := a.Sqrt(x)
			// Integer square root of x*2^(2K), K large: floor(sqrt(x)*2^K).
			const K = 2048
			xs := new(big.Float).SetMantExp(x, 2*K)
			xi, acc := xs.Int(nil)
			if acc != big.Exact {
				t.Fatalf("scaled input not an integer")
			}
			s := new(big.Float).SetInt(new(big.Int).Sqrt(xi))
			s.SetMantExp(s, -K)
			if e := relErrLog2(r, s); e > -float64(p-2) {
				t.Fatalf("P=%d sqrt(%g): relative error 2^%.2f vs integer root", p, x, e)
			}
			// Exact correct-rounding check with squares of (P+1)-bit midpoints.
			ulp := new(big.Float).SetMantExp(big.NewFloat(1), r.MantExp(nil)-int(p))
			half := new(big.Float).SetMantExp(ulp, -1)
			w := 2*p + 16
			lo := new(big.Float).SetPrec(w).Sub(r, half)
			hi := new(big.Float).SetPrec(w).Add(r, half)
			lo.Mul(lo, lo)
			hi.Mul(hi, hi)
			if x.Cmp(lo) < 0 || x.Cmp(hi) > 0 {
				t.Fatalf("P=%d sqrt(%g) = %g is not correctly rounded", p, x, r)
			}
		}
	}
}

// TestDivCorrectlyRounded checks Div and Inv against the exact rational
// quotient: |q - x/y| <= ulp(q)/2.
func TestDivCorrectlyRounded(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 300
	if testing.Short() {
		n = 50
	}
	for _, p := range testPrecs {
		a := mustNew(t, p)
		for i := 0; i < n; i++ {
			x := randFloat(rng, p, rng.IntN(400)-200, true)
			y := randFloat(rng, p, rng.IntN(400)-200, true)
			check := func(name string, q, num, den *big.Float) {
				xr, _ := num.Rat(nil)
				yr, _ := den.Rat(nil)
				exact := new(big.Rat).Quo(xr, yr)
				qr, _ := q.Rat(nil)
				diff := new(big.Rat).Sub(qr, exact)
				diff.Abs(diff)
				ulp := new(big.Float).SetMantExp(big.NewFloat(1), q.MantExp(nil)-int(p)-1)
				halfUlp, _ := ulp.Rat(nil)
				if diff.Cmp(halfUlp) > 0 {
					t.Fatalf("P=%d %s(%g, %g) = %g is not correctly rounded", p, name, num, den, q)
				}
				if e := relErrLog2(q, new(big.Float).SetPrec(p+64).SetRat(exact)); e > -float64(p-2) {
					t.Fatalf("P=%d %s: relative error 2^%.2f", p, name, e)
				}
			}
			check("div", a.Div(x, y), x, y)
			check("inv", a.Inv(y), big.NewFloat(1), y)
		}
	}
}

// TestTwiddlesAreRoots raises each twiddle factor w (a primitive 2^(t+1)-th
// root of -1 laid out as in the reference) to the power den and checks
// w^den = -1 to working precision, with the backend's own multiplication.
func TestTwiddlesAreRoots(t *testing.T) {
	for _, p := range []uint{24, 53, 64, 256, 600} {
		var a Arith
		if p <= MaxVPrec && p < MinPrec {
			a = mustVirtual(t, p)
		} else {
			a = mustNew(t, p)
		}
		for _, j := range []int{1, 2, 3, 6, 100, 511, 512, 777, 1023} {
			re, im := a.GM(2*j), a.GM(2*j+1)
			_, den := arith.GMAngle(j)
			for d := den; d > 1; d >>= 1 {
				re, im = a.Sub(a.Sqr(re), a.Sqr(im)), a.Double(a.Mul(re, im))
			}
			// Each squaring about doubles the relative error and adds a few ulps.
			tol := new(big.Float).SetMantExp(big.NewFloat(1), -int(p)+4+bitsLen(den))
			re = a.Add(re, a.Of(1))
			if new(big.Float).Abs(re).Cmp(tol) > 0 || new(big.Float).Abs(im).Cmp(tol) > 0 {
				t.Errorf("P=%d root %d: w^%d + 1 = (%g, %g)", p, j, den, re, im)
			}
		}
	}
}

func bitsLen(x int64) int {
	n := 0
	for ; x > 0; x >>= 1 {
		n++
	}
	return n
}

// TestTwiddlesMatchReferenceAt53 checks that vprec:53's twiddles are the
// reference's binary64 table (including the -0 of entry 2).
func TestTwiddlesMatchReferenceAt53(t *testing.T) {
	a := mustVirtual(t, 53)
	for k := 2; k < 2048; k++ {
		got := a.Float64(a.GM(k))
		if math.Float64bits(got) != math.Float64bits(arith.GMBinary64(k)) {
			t.Fatalf("gm[%d] = %v, reference %v", k, got, arith.GMBinary64(k))
		}
	}
}

// TestConstants checks the constants by their defining relations at
// working precision, and that vprec:53 holds the reference's binary64
// values.
func TestConstants(t *testing.T) {
	for _, p := range []uint{64, 256, 1000} {
		a := mustNew(t, p)
		tol := -float64(p) + 2
		near := func(name string, got *big.Float, want *big.Float) {
			if e := relErrLog2(got, want); e > tol {
				t.Errorf("P=%d %s: relative error 2^%.2f", p, name, e)
			}
		}
		w := p + 64
		prod := func(x, y *big.Float) *big.Float { return new(big.Float).SetPrec(w).Mul(x, y) }
		near("q*inverse_of_q", prod(a.Const(arith.InvQ), big.NewFloat(12289)), big.NewFloat(1))
		near("2*invsqrt2^2", prod(prod(a.Const(arith.InvSqrt2), a.Const(arith.InvSqrt2)), big.NewFloat(2)), big.NewFloat(1))
		near("8*invsqrt8^2", prod(prod(a.Const(arith.InvSqrt8), a.Const(arith.InvSqrt8)), big.NewFloat(8)), big.NewFloat(1))
		near("exp(log2)", taylorExp(a.Const(arith.Log2), w), big.NewFloat(2))
		near("log2*inv_log2", prod(a.Const(arith.Log2), a.Const(arith.InvLog2)), big.NewFloat(1))
		// 2*sigma_max^2 = 2*18205^2/10^8, both integers exact in binary64.
		near("2*18205^2*inv_2sqrsigma0", prod(a.Const(arith.Inv2SqrSigma0), big.NewFloat(2*18205*18205)), big.NewFloat(1e8))
		for logn := uint(0); logn <= arith.MaxLogN; logn++ {
			want := new(big.Float).SetMantExp(big.NewFloat(1), 1-int(logn))
			if a.Const(arith.P2(logn)).Cmp(want) != 0 {
				t.Errorf("P=%d p2[%d] = %g", p, logn, a.Const(arith.P2(logn)))
			}
			if logn > 0 && a.Float64(a.Const(arith.InvSigma(logn))) != arith.Binary64(arith.InvSigma(logn)) {
				t.Errorf("P=%d inv_sigma[%d] is not the reference's parameter", p, logn)
			}
		}
	}
	v := mustVirtual(t, 53)
	for c := arith.Constant(0); int(c) < arith.NumConstants; c++ {
		got := v.Float64(v.Const(c))
		if math.Float64bits(got) != math.Float64bits(arith.Binary64(c)) {
			t.Errorf("vprec:53 %v = %v, reference %v", c, got, arith.Binary64(c))
		}
		if v.Const(c).Prec() != 53 {
			t.Errorf("vprec:53 %v has precision %d", c, v.Const(c).Prec())
		}
	}
}

// TestIntegerConversions checks Rint, Floor and Trunc exactly: fixed cases
// with ties and large values, and agreement with the native backend (the
// reference's semantics) on random binary64 values.
func TestIntegerConversions(t *testing.T) {
	a := mustNew(t, DefaultPrec)
	p62 := float64(1 << 62)
	cases := []struct {
		x                  *big.Float
		rint, floor, trunc int64
	}{
		{big.NewFloat(0), 0, 0, 0},
		{big.NewFloat(0.5), 0, 0, 0},
		{big.NewFloat(1.5), 2, 1, 1},
		{big.NewFloat(2.5), 2, 2, 2},
		{big.NewFloat(-0.5), 0, -1, 0},
		{big.NewFloat(-1.5), -2, -2, -1},
		{big.NewFloat(-2.5), -2, -3, -2},
		{big.NewFloat(-2.7), -3, -3, -2},
		{big.NewFloat(2.7), 3, 2, 2},
		{big.NewFloat(1e-300), 0, 0, 0},
		{big.NewFloat(-1e-300), 0, -1, 0},
		// Beyond binary64's precision: 2^62 + 1/2 and 2^62 + 3/2 (exact at 256 bits).
		{a.Add(a.FromFloat64(p62), a.FromFloat64(0.5)), 1 << 62, 1 << 62, 1 << 62},
		{a.Add(a.FromFloat64(p62), a.FromFloat64(1.5)), 1<<62 + 2, 1<<62 + 1, 1<<62 + 1},
		{a.Sub(a.FromFloat64(-p62), a.FromFloat64(0.25)), -1 << 62, -1<<62 - 1, -1 << 62},
		// Saturation at the ends of the int64 range.
		{a.Scaled(1, 63), math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{a.Sub(a.Scaled(1, 63), a.FromFloat64(0.5)), math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{a.Sub(a.Scaled(1, 63), a.FromFloat64(1.5)), math.MaxInt64 - 1, math.MaxInt64 - 1, math.MaxInt64 - 1},
		{a.Sub(a.Scaled(1, 63), a.FromFloat64(2.5)), math.MaxInt64 - 1, math.MaxInt64 - 2, math.MaxInt64 - 2},
		{a.Scaled(-1, 63), math.MinInt64, math.MinInt64, math.MinInt64},
		{a.Scaled(-1, 64), math.MinInt64, math.MinInt64, math.MinInt64},
		{a.Inv(a.Of(0)), math.MaxInt64, math.MaxInt64, math.MaxInt64},
	}
	for i, c := range cases {
		if r, f, tr := a.Rint(c.x), a.Floor(c.x), a.Trunc(c.x); r != c.rint || f != c.floor || tr != c.trunc {
			t.Errorf("case %d (%g): rint, floor, trunc = %d, %d, %d; want %d, %d, %d", i, c.x, r, f, tr, c.rint, c.floor, c.trunc)
		}
	}
	rng := rand.New(rand.NewPCG(13, 14))
	var nat native.Arith
	n := 100000
	if testing.Short() {
		n = 5000
	}
	for i := 0; i < n; i++ {
		e := rng.IntN(70) - 8
		x := math.Ldexp(rng.Float64()+0.5, e)
		if e > 62 {
			x = math.Ldexp(rng.Float64()+0.5, 61)
		}
		if i%4 == 0 { // ties
			x = float64(rng.Int64N(1<<40)) + 0.5
		}
		if rng.IntN(2) == 0 {
			x = -x
		}
		b := a.FromFloat64(x)
		if a.Rint(b) != nat.Rint(x) || a.Floor(b) != nat.Floor(x) || a.Trunc(b) != nat.Trunc(x) {
			t.Fatalf("x = %v: oracle (%d, %d, %d), native (%d, %d, %d)", x,
				a.Rint(b), a.Floor(b), a.Trunc(b), nat.Rint(x), nat.Floor(x), nat.Trunc(x))
		}
	}
}

// TestNoNaNPanics checks that the NaN-producing cases return +Inf rather
// than panicking inside math/big.
func TestNoNaNPanics(t *testing.T) {
	a := mustNew(t, 64)
	zero, inf, ninf := a.Of(0), a.Inv(a.Of(0)), a.Neg(a.Inv(a.Of(0)))
	results := map[string]*big.Float{
		"0/0":       a.Div(zero, zero),
		"inf/inf":   a.Div(inf, inf),
		"inf-inf":   a.Sub(inf, inf),
		"inf+-inf":  a.Add(inf, ninf),
		"0*inf":     a.Mul(zero, inf),
		"sqrt(-1)":  a.Sqrt(a.Of(-1)),
		"NaN":       a.FromFloat64(math.NaN()),
		"const(-1)": a.Const(-1),
		"gm(5000)":  a.GM(5000),
	}
	for name, r := range results {
		if !r.IsInf() || r.Sign() < 0 {
			t.Errorf("%s = %g, want +Inf", name, r)
		}
	}
	if got := a.ExpmP63(a.FromFloat64(1e300), a.Of(1)); got != 0 {
		t.Errorf("expm_p63(1e300, 1) = %d, want 0", got)
	}
	if got := a.ExpmP63(a.FromFloat64(-1e300), a.Of(1)); got != math.MaxUint64 {
		t.Errorf("expm_p63(-1e300, 1) = %d, want 2^64-1", got)
	}
	if got := a.ExpmP63(a.FromFloat64(-3), a.Of(1)); got != math.MaxUint64 {
		t.Errorf("expm_p63(-3, 1) = %d, want 2^64-1 (saturated)", got)
	}
	if got := a.Exp(a.FromFloat64(1e300)); !got.IsInf() {
		t.Errorf("exp(1e300) = %g", got)
	}
}

// TestImmutable checks that no operation modifies its operands.
func TestImmutable(t *testing.T) {
	a := mustVirtual(t, 30)
	x, y := a.FromFloat64(math.Pi), a.FromFloat64(-math.E)
	xs, ys := x.Text('p', 0), y.Text('p', 0)
	a.Add(x, y)
	a.Sub(x, y)
	a.Mul(x, x)
	a.Sqr(y)
	a.Div(x, y)
	a.Inv(y)
	a.Sqrt(x)
	a.Neg(x)
	a.Half(y)
	a.Double(x)
	a.Rint(x)
	a.Floor(y)
	a.ExpmP63(a.Half(x), a.Half(a.Half(x)))
	a.Big(x).SetInt64(7)
	if x.Text('p', 0) != xs || y.Text('p', 0) != ys {
		t.Fatalf("operands changed: %s -> %s, %s -> %s", xs, x.Text('p', 0), ys, y.Text('p', 0))
	}
	g := a.GM(6)
	gs := g.Text('p', 0)
	a.Add(g, g)
	a.Big(g).SetInt64(1)
	if a.GM(6).Text('p', 0) != gs {
		t.Fatal("twiddle table changed")
	}
}

func TestRegistry(t *testing.T) {
	for _, name := range []string{"oracle", "oracle:64", "oracle:512", "vprec:11", "vprec:53", "vprec:256"} {
		b, err := arith.Lookup(name)
		if err != nil {
			t.Errorf("Lookup(%q): %v", name, err)
			continue
		}
		if b.Name != name {
			t.Errorf("Lookup(%q).Name = %q", name, b.Name)
		}
		a, ok := b.Impl.(arith.Arith[*big.Float])
		if !ok {
			t.Errorf("%s: Impl is %T", name, b.Impl)
			continue
		}
		if got := a.Of(1).Prec(); got != uint(b.Bits) {
			t.Errorf("%s: values have %d bits, backend says %d", name, got, b.Bits)
		}
		if strings.HasPrefix(name, "vprec") && !strings.Contains(b.Description, "unbounded") {
			t.Errorf("%s: description %q does not say the exponent range is unbounded", name, b.Description)
		}
	}
	for _, name := range []string{"vprec:10", "vprec:257", "vprec:abc", "vprec:", "oracle:63", "oracle:5000", "oracle:", "vprec:53.5"} {
		_, err := arith.Lookup(name)
		if err == nil {
			t.Errorf("Lookup(%q) succeeded", name)
			continue
		}
		if !strings.Contains(err.Error(), "<= P <=") {
			t.Errorf("Lookup(%q): error %q does not state the accepted range", name, err)
		}
	}
}

// TestOfAndScaledRound checks that Of and Scaled round to P bits like a
// P-bit binary format: vprec:53 against float64 conversion, vprec:24
// against float32.
func TestOfAndScaledRound(t *testing.T) {
	v53, v24 := mustVirtual(t, 53), mustVirtual(t, 24)
	rng := rand.New(rand.NewPCG(15, 16))
	for i := 0; i < 20000; i++ {
		k := rng.IntN(64)
		x := int64(rng.Uint64() >> (63 - k) >> 1)
		if rng.IntN(2) == 0 {
			x = -x
		}
		if got := v53.Float64(v53.Of(x)); got != float64(x) {
			t.Fatalf("vprec:53 of(%d) = %v, float64 %v", x, got, float64(x))
		}
		if got := v24.Float64(v24.Of(x)); got != float64(float32(x)) {
			t.Fatalf("vprec:24 of(%d) = %v, float32 %v", x, got, float32(x))
		}
		e := rng.IntN(200) - 100
		if got := v53.Float64(v53.Scaled(x, e)); got != math.Ldexp(float64(x), e) {
			t.Fatalf("vprec:53 scaled(%d, %d) = %v", x, e, got)
		}
	}
}

// TestScaledRounds: Scaled rounds i*2^e to P bits in the format's
// rounding (it once kept all 64 bits of i).
func TestScaledRounds(t *testing.T) {
	i := int64(1)<<40 + 1<<16 + 1 // 41 bits; at 24 bits: 2^40 + 2^17 to nearest, 2^40 toward zero
	for name, want := range map[string]int64{"vprec:24": 1<<40 + 1<<17, "vprec:24:e11": 1<<40 + 1<<17, "vprec:24:e11:rz": 1 << 40} {
		b, err := arith.Lookup("vprecbig" + strings.TrimPrefix(name, "vprec"))
		if err != nil {
			t.Fatal(err)
		}
		a := b.Impl.(Arith)
		got := a.Scaled(i, -3)
		w := new(big.Float).SetInt64(want)
		w.SetMantExp(w, -3)
		if got.Cmp(w) != 0 || got.Prec() != 24 {
			t.Errorf("%s: Scaled(%d, -3) = %s (prec %d), want %s", name, i, got.Text('p', 0), got.Prec(), w.Text('p', 0))
		}
	}
}

// TestScaledFlushes: a Scaled result whose exact value is below the
// format's smallest normal flushes to zero even when rounding brings it up
// to 2^emin, as every other rounded operation's.
func TestScaledFlushes(t *testing.T) {
	b, err := arith.Lookup("vprecbig:11:e8")
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Impl.(Arith).Scaled(1<<33-1, -159); got.Sign() != 0 { // (2^33-1)*2^-159 < 2^-126
		t.Errorf("Scaled(2^33-1, -159) = %s, want 0", got.Text('p', 0))
	}
}
