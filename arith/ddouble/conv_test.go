package ddouble

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestOfExact checks that Of converts every int64 exactly into a
// normalised double word: the ends of the range, values around 2^53 and
// 2^63 (where Hi rounds up to 2^63, outside int64), and random integers of
// every bit length.
func TestOfExact(t *testing.T) {
	edges := []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 - 1, math.MinInt64 + 1,
		1<<53 + 1, -(1<<53 + 1), 1<<53 - 1, 1<<62 + 1, 1<<63 - 1024, 1<<63 - 1025, 1<<63 - 513, -(1<<63 - 513)}
	r := rand.New(rand.NewPCG(5, 6))
	for range samples(200_000) {
		i := int64(r.Uint64() >> r.IntN(64))
		edges = append(edges, i, -i)
	}
	for k, i := range edges {
		x := dd.Of(i)
		if dd.Big(x).Cmp(new(big.Float).SetInt64(i)) != 0 || !isNormalised(x) {
			t.Fatalf("#%d: Of(%d) = %v", k, i, x)
		}
	}
}

// TestScaledExact checks Scaled(i, e) = i*2^e exactly while the low part
// stays normal, and that a result beyond binary64's range is an infinity
// with a zero low part.
func TestScaledExact(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for k := range samples(200_000) {
		i := int64(r.Uint64() >> r.IntN(64))
		if r.IntN(2) == 0 {
			i = -i
		}
		e := r.IntN(1800) - 900
		want := new(big.Float).SetInt64(i)
		want.SetMantExp(want, e)
		if x := dd.Scaled(i, e); dd.Big(x).Cmp(want) != 0 || !isNormalised(x) {
			t.Fatalf("#%d: Scaled(%d, %d) = %v, want %v", k, i, e, x, want)
		}
	}
	if x := dd.Scaled(math.MaxInt64, 1000); !math.IsInf(x.Hi, 1) || x.Lo != 0 {
		t.Errorf("Scaled(MaxInt64, 1000) = %v, want +Inf", x)
	}
	if x := dd.Scaled(12289, 0); x != (DD{12289, 0}) {
		t.Errorf("Scaled(12289, 0) = %v", x)
	}
}

// TestFromFloat64AndBig checks that FromFloat64 and Big are exact (Big
// also for double words whose parts are far apart, up to a subnormal low
// part) and that Big turns NaN into +Inf as the oracle does.
func TestFromFloat64AndBig(t *testing.T) {
	for _, f := range []float64{0, 1, -1.5, math.MaxFloat64, 0x1p-1074, -0x1p-1022, math.Inf(-1)} {
		if b := dd.Big(dd.FromFloat64(f)); b.Cmp(new(big.Float).SetFloat64(f)) != 0 {
			t.Errorf("Big(FromFloat64(%v)) = %v", f, b)
		}
	}
	// Parts 2000 binades apart: 2^1000 + 2^-1074 needs 2075 bits.
	b := dd.Big(DD{0x1p1000, 0x1p-1074})
	want := new(big.Float).SetMantExp(big.NewFloat(1), 1000).SetPrec(3000)
	want.Add(want, new(big.Float).SetMantExp(big.NewFloat(1), -1074))
	if b.Cmp(want) != 0 {
		t.Errorf("Big(2^1000 + 2^-1074) = %v, inexact", b)
	}
	if b := dd.Big(DD{math.NaN(), 0}); !b.IsInf() || b.Signbit() {
		t.Errorf("Big(NaN) = %v, want +Inf", b)
	}
	if b := dd.Big(DD{math.Copysign(0, -1), 0}); b.Sign() != 0 || !b.Signbit() {
		t.Errorf("Big(-0) = %v, want -0", b)
	}
}

// checkRounded checks that x is v rounded to a double word: Hi is v
// rounded to binary64 (compared with big.Float's own rounding) and
// |Hi + Lo - v| <= 2^-105 |v|, the error of rounding Hi and then Lo to
// nearest.
func checkRounded(t *testing.T, what string, x DD, v *big.Float) {
	t.Helper()
	if f, _ := v.Float64(); x.Hi != f || (v.Sign() == 0 && x.Lo != 0) {
		t.Errorf("%s: Hi = %v, want %v", what, x.Hi, f)
	}
	if e := relErr(dd.Big(x), v); e > 0x1p-105 {
		t.Errorf("%s = %v: relative error 2^%.1f", what, x, math.Log2(e))
	}
}

// TestConstants checks every constant against arith.Exact at 256 bits,
// that its high part is the reference's binary64 constant (the reference
// rounds every constant to nearest), and that the constants the reference
// defines as binary64 values (the sigmas, the keygen bound, the powers of
// two) have a zero low part.
func TestConstants(t *testing.T) {
	for c := arith.Constant(0); int(c) < arith.NumConstants; c++ {
		x := dd.Const(c)
		checkRounded(t, c.String(), x, arith.Exact(c, 256))
		if x.Hi != arith.Binary64(c) {
			t.Errorf("%v: Hi = %v, want the reference's binary64 value %v", c, x.Hi, arith.Binary64(c))
		}
		switch c {
		case arith.InvSqrt2, arith.InvSqrt8, arith.InvQ, arith.Inv2SqrSigma0, arith.Log2, arith.InvLog2:
			if x.Lo == 0 {
				t.Errorf("%v: zero low part for an irrational/non-dyadic constant", c)
			}
		default:
			if x.Lo != 0 || x.Hi != arith.Binary64(c) {
				t.Errorf("%v = %v, want the reference's binary64 value %v", c, x, arith.Binary64(c))
			}
		}
	}
	if x := dd.Const(-1); !math.IsNaN(x.Hi) {
		t.Errorf("Const(-1) = %v, want NaN", x)
	}
	if dd.Const(arith.Log2) != ln2 {
		t.Errorf("the reduction constant ln2 = %v differs from Const(Log2) = %v", ln2, dd.Const(arith.Log2))
	}
}

// TestTwiddles checks all 2048 twiddle entries against arith.GMExact at
// 256 bits, and that their high parts are the reference's fpr_gm_tab
// (arith.GMBinary64, itself checked against the reference's bit patterns),
// down to the -0 of entry 2.
func TestTwiddles(t *testing.T) {
	for k := range 2048 {
		x := dd.GM(k)
		checkRounded(t, "GM("+itoa(k)+")", x, arith.GMExact(k, 256))
		if math.Float64bits(x.Hi) != math.Float64bits(arith.GMBinary64(k)) {
			t.Errorf("GM(%d).Hi = %v, want the reference's %v", k, x.Hi, arith.GMBinary64(k))
		}
	}
	if x := dd.GM(2048); !math.IsNaN(x.Hi) {
		t.Errorf("GM(2048) = %v, want NaN", x)
	}
}

func itoa(k int) string { return big.NewInt(int64(k)).String() }

// TestFromBig checks that FromBig returns double words unchanged and
// rounds 256-bit values as Const does (Hi to nearest, then Lo), and that
// values beyond binary64's range become infinities.
func TestFromBig(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for k := range samples(100_000) {
		x := randDD(r, minExp, maxExp)
		if got := dd.FromBig(dd.Big(x)); got != x {
			t.Fatalf("#%d: FromBig(Big(%v)) = %v", k, x, got)
		}
		v := ora.Div(dd.Big(x), ora.Of(int64(3+r.IntN(1000))))
		checkRounded(t, "FromBig(x/k)", dd.FromBig(v), v)
	}
	huge := new(big.Float).SetMantExp(big.NewFloat(-1), 2000)
	if got := dd.FromBig(huge); !math.IsInf(got.Hi, -1) || got.Lo != 0 {
		t.Errorf("FromBig(-2^2000) = %v, want -Inf", got)
	}
}
