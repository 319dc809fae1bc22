package ddouble

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// randExpArg returns a double word x with 0 <= x < ln 2: uniform over the
// interval, or (one in four) tiny, with a random low part.
func randExpArg(r *rand.Rand) DD {
	var h float64
	if r.IntN(4) == 0 {
		h = math.Abs(randFloat(r, -110, -2))
	} else {
		h = float64(r.Float64() * ln2.Hi)
	}
	x := DD{h, 0}
	if h != 0 && r.IntN(8) != 0 {
		_, e := math.Frexp(h)
		s, t := twoSum(h, randFloat(r, e-60, e-54))
		x = DD{s, t}
	}
	if x.Hi < 0 || !dd.Lt(x, ln2) {
		return DD{}
	}
	return x
}

// randCcs returns a double word in (0, 1]: mostly in [1/2, 1] (Falcon's
// sigma_min/sigma lies in [0.7, 1]), sometimes smaller, sometimes 1.
func randCcs(r *rand.Rand) DD {
	switch r.IntN(8) {
	case 0:
		return DD{1, 0}
	case 1:
		return randUnit(r, -60, -2)
	}
	return randUnit(r, -1, -1)
}

// randUnit returns a positive double word with exponent in [lo, hi] (<= -1).
func randUnit(r *rand.Rand, lo, hi int) DD {
	x := randDD(r, lo, hi)
	if x.Hi < 0 {
		x = neg(x)
	}
	return x
}

// TestExpNegVsOracle measures the relative error of 1 + expm1Neg(x),
// the double-word exp(-x) of ExpmP63, and of expm1Neg(x) itself, against
// exp(-x) correctly rounded to 256 bits, over 200,000 arguments in
// [0, ln 2) (4,000 with -short; TestExpmP63VsOracle checks the final
// results on 1,000,000 more). The analysis at expm1Neg bounds them by
// 20u^2 and 36u^2.
func TestExpNegVsOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	one := big.NewFloat(1)
	n := samples(200_000)
	worstE, worstT := 0.0, 0.0
	var worstX DD
	for k := range n {
		x := randExpArg(r)
		tm := expm1Neg(x)
		e := addFP(tm, 1)
		want := oracle.ExpRounded(new(big.Float).Neg(dd.Big(x)), 256)
		ee := relErr(dd.Big(e), want)
		et := relErr(dd.Big(tm), new(big.Float).SetPrec(256).Sub(want, one))
		if x.Hi == 0 {
			et = 0 // expm1(0) = 0 exactly; relErr reports 0 too, but be explicit
		}
		if ee > worstE {
			worstE, worstX = ee, x
		}
		worstT = max(worstT, et)
		if ee > 20*u*u || et > 36*u*u {
			t.Fatalf("#%d: x = %v: exp(-x) relative error %.2f u^2, expm1(-x) %.2f u^2", k, x, inU2(ee), inU2(et))
		}
	}
	t.Logf("%d samples: exp(-x) max relative error %.2f u^2 = 2^%.2f (at x = %v); expm1(-x) %.2f u^2 = 2^%.2f",
		n, inU2(worstE), math.Log2(worstE), worstX, inU2(worstT), math.Log2(worstT))
}

// expmChecker compares ExpmP63 with the oracle's exact
// floor(2^63 ccs exp(-x)). The two may differ only by one, and only where
// the true value v = 2^63 ccs exp(-x) lies within 2^-90 v of an integer
// (the double-word value is within about 2^-100 v of v, so its floor can
// fall on the other side of such an integer).
type expmChecker struct {
	t      *testing.T
	n, off int
}

func (c *expmChecker) check(x, ccs DD) {
	c.t.Helper()
	c.n++
	bx, bc := dd.Big(x), dd.Big(ccs)
	got, want := dd.ExpmP63(x, ccs), ora.ExpmP63(bx, bc)
	if got == want {
		return
	}
	c.off++
	v := oracle.ExpRounded(new(big.Float).Neg(bx), 400)
	v.Mul(v, bc)
	v.SetMantExp(v, 63)
	nearest, _ := new(big.Float).Add(v, big.NewFloat(0.5)).Int(nil)
	dist := new(big.Float).SetPrec(400).Sub(v, new(big.Float).SetInt(nearest))
	rel := relErr(new(big.Float).SetInt(nearest), v)
	if d := int64(got - want); (d != 1 && d != -1) || rel > 0x1p-90 {
		c.t.Fatalf("ExpmP63(%v, %v) = %d, oracle %d; true value %s, %.3g from an integer (2^%.1f relative)",
			x, ccs, got, want, v.Text('g', 40), dist, math.Log2(rel))
	}
	c.t.Logf("ExpmP63(%v, %v) = %d, oracle %d: true value %.3g from an integer (2^%.1f relative)", x, ccs, got, want, dist, math.Log2(rel))
}

// TestExpmP63VsOracle runs ExpmP63 on 1,000,000 random (x, ccs) of the
// sampler's domain (20,000 with -short) and on its edges, against the
// oracle's exact floor(2^63 ccs exp(-x)), and logs how many differ.
func TestExpmP63VsOracle(t *testing.T) {
	c := &expmChecker{t: t}
	for _, x := range []DD{{}, {0x1p-110, 0}, {0x1p-60, 0}, {ln2.Hi, 0}, {ln2.Hi, ln2.Lo / 2}, {0.5, 0}} {
		for _, ccs := range []DD{{1, 0}, {0.5, 0}, {0x1p-60, 0}, {1 - 0x1p-53, 0}, {1, -0x1p-60}, dd.Div(dd.Const(arith.SigmaMin(9)), DD{1.8205, 0})} {
			c.check(x, ccs)
		}
	}
	if got := dd.ExpmP63(DD{}, DD{1, 0}); got != 1<<63 {
		t.Errorf("ExpmP63(0, 1) = %d, want 2^63", got)
	}
	if got := dd.ExpmP63(DD{}, DD{0.75, 0}); got != 3<<61 {
		t.Errorf("ExpmP63(0, 0.75) = %d, want 3*2^61", got)
	}
	r := rand.New(rand.NewPCG(15, 16))
	for range samples(1_000_000) {
		c.check(randExpArg(r), randCcs(r))
	}
	t.Logf("%d inputs: %d results differ from the oracle's", c.n, c.off)
}

// TestExpmP63OutsideDomain checks that outside the sampler's domain
// ExpmP63 still agrees with the oracle: arguments up to |x| = 30 (reduced
// by multiples of ln 2), ccs up to 8, results beyond 2^64 (saturated), and
// the saturation rules for zero, negative, huge and non-finite inputs.
func TestExpmP63OutsideDomain(t *testing.T) {
	c := &expmChecker{t: t}
	r := rand.New(rand.NewPCG(17, 18))
	for range samples(100_000) {
		x := randDD(r, -8, 4)
		ccs := randUnit(r, -20, 2)
		c.check(x, ccs)
	}
	inf, nan := math.Inf(1), math.NaN()
	for _, x := range []DD{{-50, 0}, {-0x1p12, 0}, {0x1p12, 0}, {5000, 0}, {-5000, 0}, {inf, 0}, {-inf, 0}, {nan, 0}, {1, 0}, {-1, 0}} {
		for _, ccs := range []DD{{0, 0}, {-1, 0}, {0x1p12, 0}, {3, 0}, {1, 0}, {inf, 0}} {
			c.check(x, ccs)
		}
	}
	t.Logf("%d inputs: %d results differ from the oracle's", c.n, c.off)
}
