package triword

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// checkHalfUlp checks the stronger separation the conversions promise:
// |Mid| <= ulp(Hi)/2 and |Lo| <= ulp(Mid)/2.
func checkHalfUlp(t *testing.T, what string, x TW) {
	t.Helper()
	if err := checkTW(x); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if abs32(x.Mid) > ulp32(x.Hi)/2 || abs32(x.Lo) > ulp32(x.Mid)/2 {
		t.Fatalf("%s = %v: limbs not half-ulp separated", what, x)
	}
}

// TestOf checks the exact conversion of integers: random int64 over the
// whole range, Falcon's +-2^24, and edge values; the limbs must sum
// exactly to the integer and be half-ulp separated.
func TestOf(t *testing.T) {
	var a Arith
	r := rand.New(rand.NewPCG(21, 22))
	ints := []int64{0, 1, -1, 1 << 24, -1 << 24, 1<<24 + 1, -(1<<24 + 1), 1<<53 + 1, math.MaxInt64, math.MinInt64,
		math.MaxInt64 - 1, math.MinInt64 + 1, 1<<48 - 1, 12289, -(1<<31 - 1), 1 << 62}
	n := 200_000
	if testing.Short() {
		n = 5_000
	}
	for range n {
		ints = append(ints, int64(r.Uint64()), int64(r.Uint64())>>r.IntN(64), int64(r.IntN(1<<25))-1<<24)
	}
	for _, i := range ints {
		x := a.Of(i)
		checkHalfUlp(t, "Of", x)
		got, acc := bigTW(x).Int(nil)
		if acc != big.Exact || got.Cmp(big.NewInt(i)) != 0 {
			t.Fatalf("Of(%d) = %v, sum %v", i, x, got)
		}
		if a.Rint(x) != i || a.Floor(x) != i || a.Trunc(x) != i {
			t.Fatalf("Of(%d) = %v: Rint/Floor/Trunc = %d/%d/%d", i, x, a.Rint(x), a.Floor(x), a.Trunc(x))
		}
	}
}

// TestScaled checks i*2^e for exponents that keep every limb normal.
func TestScaled(t *testing.T) {
	var a Arith
	r := rand.New(rand.NewPCG(23, 24))
	for range 20_000 {
		i := int64(r.Uint64()) >> r.IntN(64)
		e := r.IntN(120) - 60 - bitsLen(i)
		x := a.Scaled(i, e)
		want := new(big.Float).SetPrec(200).SetInt64(i)
		want.SetMantExp(want, e)
		if bigTW(x).Cmp(want) != 0 {
			t.Fatalf("Scaled(%d, %d) = %v, want %v", i, e, x, want)
		}
	}
}

func bitsLen(i int64) int {
	if i < 0 {
		i = -i
	}
	return len(big.NewInt(i).Text(2))
}

// TestConstantImport checks that with B64Const every named constant and
// every twiddle factor is imported exactly: the three limbs sum to the
// binary64 value, half-ulp separated, and Float64 returns it.
func TestConstantImport(t *testing.T) {
	a := Arith{B64Const: true}
	check := func(what string, x TW, v float64) {
		t.Helper()
		checkHalfUlp(t, what, x)
		if bigTW(x).Cmp(new(big.Float).SetFloat64(v)) != 0 {
			t.Fatalf("%s = %v: does not sum to %v", what, x, v)
		}
		if f := a.Float64(x); f != v || math.Signbit(f) != math.Signbit(v) {
			t.Fatalf("%s: Float64 = %v, want %v", what, f, v)
		}
	}
	for c := range arith.NumConstants {
		check(arith.Constant(c).String(), a.Const(arith.Constant(c)), arith.Binary64(arith.Constant(c)))
	}
	for k := range 2048 {
		check("GM", a.GM(k), arith.GMBinary64(k))
	}
	// Random binary64 values whose lowest bit is at or above 2^-149.
	r := rand.New(rand.NewPCG(25, 26))
	n := 100_000
	if testing.Short() {
		n = 5_000
	}
	for range n {
		v := math.Ldexp(1+r.Float64(), r.IntN(224)-97)
		if r.IntN(2) == 0 {
			v = -v
		}
		check("FromFloat64", a.FromFloat64(v), v)
	}
}

// TestFloat64Big checks that Float64 is the correctly rounded exact sum
// and Big the exact sum, on random triple words.
func TestFloat64Big(t *testing.T) {
	var a Arith
	r := rand.New(rand.NewPCG(27, 28))
	n := 50_000
	if testing.Short() {
		n = 5_000
	}
	for range n {
		x := randTW(r, -140, 120)
		want, _ := bigTW(x).Float64()
		if got := a.Float64(x); got != want {
			t.Fatalf("Float64(%v) = %v, want %v", x, got, want)
		}
		if a.Big(x).Cmp(bigTW(x)) != 0 {
			t.Fatalf("Big(%v) = %v, want %v", x, a.Big(x), bigTW(x))
		}
	}
}

// TestLimbwise checks Neg, Half and Double: exact, limb by limb.
func TestLimbwise(t *testing.T) {
	var a Arith
	r := rand.New(rand.NewPCG(29, 30))
	n := 50_000
	if testing.Short() {
		n = 5_000
	}
	for range n {
		x := randTW(r, -60, 100)
		bx := bigTW(x)
		if bigTW(a.Neg(x)).Cmp(new(big.Float).Neg(bx)) != 0 {
			t.Fatalf("Neg(%v) = %v", x, a.Neg(x))
		}
		if bigTW(a.Half(x)).Cmp(new(big.Float).SetMantExp(bx, -1)) != 0 {
			t.Fatalf("Half(%v) = %v", x, a.Half(x))
		}
		if bigTW(a.Double(x)).Cmp(new(big.Float).SetMantExp(bx, 1)) != 0 {
			t.Fatalf("Double(%v) = %v", x, a.Double(x))
		}
	}
}

// TestLt checks the comparison against math/big, including equal values
// held in different limbs and values that differ only in the last limb.
func TestLt(t *testing.T) {
	var a Arith
	r := rand.New(rand.NewPCG(31, 32))
	n := 200_000
	if testing.Short() {
		n = 10_000
	}
	for i := range n {
		x := randTW(r, -105, 34)
		var y TW
		switch i % 4 {
		case 0:
			y = randTW(r, -105, 34)
		case 1:
			// The same value with the head moved by one ulp.
			h := ulp32(x.Hi)
			if x.Mid < 0 {
				h = -h
			}
			y = TW{x.Hi + h, x.Mid - h, x.Lo}
		case 2:
			y = toTW(x.Hi, x.Mid, x.Lo+ulp32(x.Lo)*float32(r.IntN(3)-1))
		default:
			y = x
		}
		want := bigTW(x).Cmp(bigTW(y)) < 0
		if got := a.Lt(x, y); got != want {
			t.Fatalf("Lt(%v, %v) = %v, want %v", x, y, got, want)
		}
	}
}

// bigFloor returns floor(v) for an exact v.
func bigFloor(v *big.Float) *big.Int {
	i, acc := v.Int(nil) // toward zero
	if acc == big.Above {
		i.Sub(i, big.NewInt(1))
	}
	return i
}

// bigRint returns v rounded to the nearest integer, ties to even.
func bigRint(v *big.Float) *big.Int {
	f := bigFloor(v)
	d := new(big.Float).SetPrec(2000).Sub(v, new(big.Float).SetInt(f))
	switch d.Cmp(big.NewFloat(0.5)) {
	case 1:
		f.Add(f, big.NewInt(1))
	case 0:
		if f.Bit(0) == 1 {
			f.Add(f, big.NewInt(1))
		}
	}
	return f
}

// TestRintFloorTrunc checks the integer conversions against math/big on
// random triple words over Falcon's ranges (rint in keygen up to 2^31,
// floor of the sampler's centres, trunc of 2^63-scaled values) and on
// exact ties, near-ties and near-integers, whose rounding is decided by
// the second or third limb.
func TestRintFloorTrunc(t *testing.T) {
	var a Arith
	r := rand.New(rand.NewPCG(33, 34))
	n := 500_000
	if testing.Short() {
		n = 20_000
	}
	ties, byLower := 0, 0
	tiny := func() TW {
		return TW{ldexp32(float32(1+r.IntN(3)), -r.IntN(100)-1) * float32(2*r.IntN(2)-1), 0, 0}
	}
	for i := range n {
		var x TW
		ni := int64(r.Uint64()) >> (1 + r.IntN(63))
		switch i % 6 {
		case 0: // random values up to 2^62
			x = randTW(r, -30, 62)
		case 1: // exact ties n + 1/2
			x = a.Add(a.Of(ni>>10), TW{0.5, 0, 0})
		case 2: // near-ties n + 1/2 +- tiny
			x = a.Add(a.Add(a.Of(ni>>10), TW{0.5, 0, 0}), tiny())
		case 3: // near-integers n +- tiny
			x = a.Add(a.Of(ni), tiny())
		case 4: // Falcon's floor(mu) and rint range
			x = randTW(r, -20, 31)
		default: // 2^63-scaled values in [0, 2^63), as ExpmP63 truncates
			x = a.Mul(absTW(randTW(r, -40, -1)), TW{0x1p63, 0, 0})
		}
		if err := checkTW(x); err != nil {
			t.Fatal(err)
		}
		v := bigTW(x)
		if v.Cmp(big.NewFloat(0x1p62)) >= 0 || v.Cmp(big.NewFloat(-0x1p62)) <= 0 {
			continue
		}
		fl := bigFloor(v)
		tr, _ := v.Int(nil)
		ri := bigRint(v)
		if new(big.Float).Sub(v, new(big.Float).SetInt(fl)).Cmp(big.NewFloat(0.5)) == 0 {
			ties++
		}
		if hr := bigRint(bigTW(TW{x.Hi, 0, 0})); hr.Cmp(ri) != 0 {
			byLower++
		}
		if got := a.Rint(x); got != ri.Int64() {
			t.Fatalf("Rint(%v) = %d, want %v (x = %s)", x, got, bigRint(v), v.Text('g', 40))
		}
		if got := a.Floor(x); got != fl.Int64() {
			t.Fatalf("Floor(%v) = %d, want %v", x, got, fl)
		}
		if got := a.Trunc(x); got != tr.Int64() {
			t.Fatalf("Trunc(%v) = %d, want %v", x, got, tr)
		}
	}
	t.Logf("%d values, %d exact ties, %d whose rint differs from that of the head limb alone", n, ties, byLower)
	if ties == 0 || byLower == 0 {
		t.Error("the generated values miss ties or lower-limb decisions")
	}
}

// expBig returns exp(-x) at prec bits for 0 <= x < 1 (Taylor series).
func expBig(x *big.Float, prec uint) *big.Float {
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	mx := new(big.Float).SetPrec(prec).Neg(x)
	for k := int64(1); k < 200; k++ {
		term.Mul(term, mx)
		term.Quo(term, new(big.Float).SetInt64(k))
		sum.Add(sum, term)
		if term.Sign() == 0 || term.MantExp(nil)-sum.MantExp(nil) < -int(prec) {
			break
		}
	}
	return sum
}

// TestExpmP63 checks 2^63*ccs*exp(-x) for x in [0, ln 2) and ccs in
// Falcon's range [0.5, 1) against a 200-bit evaluation: the contract is 45
// bits; the measured worst is logged.
func TestExpmP63(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 36))
	n := 50_000
	if testing.Short() {
		n = 3_000
	}
	for _, a := range []Arith{{}, {Accurate: true}} {
		worst := 0.0
		for i := range n {
			var x TW
			if i%2 == 0 {
				x = a.FromFloat64(r.Float64() * math.Ln2)
			} else {
				x = absTW(randTW(r, -60, -1))
				if x.Hi >= math.Ln2 {
					continue
				}
			}
			ccs := absTW(randTW(r, -1, -1))
			for ccs.Hi >= 1 {
				ccs = absTW(randTW(r, -1, -1))
			}
			if i == 0 {
				x, ccs = TW{}, a.FromFloat64(0.5)
			}
			got := a.ExpmP63(x, ccs)
			want := expBig(bigTW(x), 200)
			want.Mul(want, bigTW(ccs))
			want.SetMantExp(want, 63)
			d := new(big.Float).SetPrec(200).SetUint64(got)
			d.Sub(d, want).Quo(d, want)
			rel, _ := d.Float64()
			rel = math.Abs(rel)
			if rel > 0x1p-45 {
				t.Fatalf("ExpmP63(%v, %v) = %d, want %s (rel. error 2^%.1f)", x, ccs, got, want.Text('f', 3), math.Log2(rel))
			}
			worst = math.Max(worst, rel)
		}
		t.Logf("Accurate=%v: %d inputs, worst rel. error %.3g = 2^%.2f (contract 2^-45)", a.Accurate, n, worst, math.Log2(worst))
	}
}

// TestNonFinite checks that values beyond binary32's range neither panic
// nor lose their sign: an overflowing import is the infinity of its sign
// (before the fix it was {Inf, -Inf, NaN}, and Big panicked on it), an
// overflowed operation reads as non-finite (its limbs are NaN, or an
// infinite head over NaN), and a NaN is NaN to Float64 and +Inf to Big,
// as in the oracle.
func TestNonFinite(t *testing.T) {
	inf, ninf, nan := math.Inf(1), math.Inf(-1), math.NaN()
	for _, a := range []Arith{{}, {Accurate: true}} {
		big2 := a.FromFloat64(0x1p100)
		nbig2 := a.FromFloat64(-0x1p100)
		cases := []struct {
			what string
			x    TW
			want float64 // Float64; NaN also accepts an infinity (overflow)
		}{
			{"FromFloat64(2^150)", a.FromFloat64(0x1p150), inf},
			{"FromFloat64(-2^150)", a.FromFloat64(-0x1p150), ninf},
			{"FromFloat64(-Inf)", a.FromFloat64(ninf), ninf},
			{"-(2^150)+1", a.Add(a.FromFloat64(-0x1p150), a.Of(1)), nan},
			{"2^100*2^100", a.Mul(big2, big2), nan},
			{"-2^100*2^100", a.Mul(nbig2, big2), nan},
			{"sqr(-2^100)", a.Sqr(nbig2), nan},
			{"1/2^-150", a.Inv(a.FromFloat64(0x1p-140)), nan},
			{"inf head", TW{float32(ninf), float32(nan), float32(inf)}, ninf},
			{"NaN", TW{float32(nan), 0, 0}, nan},
			{"finite head, NaN limb", TW{1, float32(nan), 0}, nan},
		}
		for _, c := range cases {
			got := a.Float64(c.x)
			ok := got == c.want || math.IsNaN(c.want) && (math.IsNaN(got) || math.IsInf(got, 0))
			if !ok {
				t.Errorf("Accurate=%v: Float64(%s = %v) = %v, want %v", a.Accurate, c.what, c.x, got, c.want)
			}
			b := a.Big(c.x) // must not panic
			want := got
			if math.IsNaN(want) {
				want = inf
			}
			if !b.IsInf() || b.Signbit() != math.Signbit(want) {
				t.Errorf("Accurate=%v: Big(%s = %v) = %v, want %v", a.Accurate, c.what, c.x, b, want)
			}
		}
	}
}

// TestConstants72 checks TWFalcon's constants: every constant and twiddle
// factor of the default backends is its defined value to 72 bits (within
// 2^-71 relative of the 256-bit value), 1/sigma and sigma_min included,
// which round to binary64 as the specification's formulas do: sigma_min to
// the reference's table, 1/sigma one ulp below it (the reference's table
// is one ulp above the formula). Those that binary64 cannot hold differ
// from the imported ones.
func TestConstants72(t *testing.T) {
	near := func(what string, x TW, want *big.Float) {
		t.Helper()
		checkHalfUlp(t, what, x)
		d := new(big.Float).SetPrec(300).Sub(bigTW(x), want)
		lim := new(big.Float).SetPrec(300).Mul(want, big.NewFloat(0x1p-71))
		if d.Abs(d).Cmp(lim.Abs(lim)) > 0 {
			t.Errorf("%s = %v: off by %g from %g", what, x, d, want)
		}
	}
	for _, a := range []Arith{{}, {Accurate: true}} {
		for c := range arith.NumConstants {
			near(arith.Constant(c).String(), a.Const(arith.Constant(c)), arith.Defined(arith.Constant(c), 256))
		}
		for k := 2; k < 2048; k++ {
			near(fmt.Sprintf("GM(%d)", k), a.GM(k), arith.GMExact(k, 256))
		}
		for logn := uint(1); logn <= arith.MaxLogN; logn++ {
			is, sm := a.Const(arith.InvSigma(logn)), a.Const(arith.SigmaMin(logn))
			if table := arith.Binary64(arith.InvSigma(logn)); a.Float64(is) != math.Nextafter(table, 0) {
				t.Errorf("inv_sigma[%d] = %v, want one binary64 ulp below the reference's %v", logn, a.Float64(is), table)
			}
			if a.Float64(sm) != arith.Binary64(arith.SigmaMin(logn)) {
				t.Errorf("sigma_min[%d] rounds to %v, want the reference's %v", logn, a.Float64(sm), arith.Binary64(arith.SigmaMin(logn)))
			}
			if b := (Arith{B64Const: true}); sm == b.Const(arith.SigmaMin(logn)) {
				t.Errorf("sigma_min[%d] is the binary64 value", logn)
			}
		}
		b := Arith{B64Const: true, Accurate: a.Accurate}
		for _, c := range []arith.Constant{arith.InvQ, arith.Log2, arith.InvLog2, arith.InvSqrt2, arith.BnormMax} {
			if a.Const(c) == b.Const(c) {
				t.Errorf("%v: the 72-bit constant is the binary64 one", c)
			}
		}
		if a.GM(5) == b.GM(5) {
			t.Error("GM(5): the 72-bit twiddle is the binary64 one")
		}
	}
}
