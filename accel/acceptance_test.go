package accel

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestBernoulliThreshold(t *testing.T) {
	for _, c := range []struct {
		q    float64
		want uint64
	}{
		{0, 0}, {-1, 0}, {math.NaN(), 0}, {1, math.MaxUint64}, {2, math.MaxUint64},
		{0.5, 1 << 63}, {0.25, 1 << 62}, {math.Nextafter(1, 0), math.MaxUint64 - (1<<11 - 1)},
		{0x1p-64, 1}, {0x1p-65, 0},
	} {
		if got := BernoulliThreshold(c.q); got != c.want {
			t.Errorf("BernoulliThreshold(%v) = %#x, want %#x", c.q, got, c.want)
		}
	}
}

// TestTwoBernoulliAccept checks the decision rule on chosen words and the
// acceptance frequency against ccs exp(-x) on random ones.
func TestTwoBernoulliAccept(t *testing.T) {
	// x = ln 2: exp(-x) = 1/2 within an ulp, threshold just at 2^63.
	th := BernoulliThreshold(ExpNeg(math.Ln2))
	if d := int64(th - 1<<63); d < -4096 || d > 4096 {
		t.Fatalf("threshold of exp(-ln 2) = %#x", th)
	}
	if !TwoBernoulliAccept(math.Ln2, 0.75, nil, th-1, 3<<62-1) || TwoBernoulliAccept(math.Ln2, 0.75, nil, th, 0) ||
		TwoBernoulliAccept(math.Ln2, 0.75, nil, 0, 3<<62) {
		t.Error("decision rule at the thresholds")
	}
	if TwoBernoulliAccept(0, 0, nil, 0, 0) {
		t.Error("ccs = 0 accepted")
	}
	n := 1000000
	if testing.Short() {
		n = 100000
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ x, ccs float64 }{{0.1, 0.9}, {1.7, 0.75}, {5, 0.6}} {
		acc := 0
		for range n {
			if TwoBernoulliAccept(c.x, c.ccs, nil, rng.Uint64(), rng.Uint64()) {
				acc++
			}
		}
		p := c.ccs * math.Exp(-c.x)
		got := float64(acc) / float64(n)
		if tol := 6 * math.Sqrt(p*(1-p)/float64(n)); math.Abs(got-p) > tol {
			t.Errorf("x %v ccs %v: accepted %.5f of %d, want %.5f", c.x, c.ccs, got, n, p)
		}
	}
}

// TestCompareAcceptance measures both acceptance designs on the attempts of
// two Falcon-512 KAT records (one with -short) against exact arithmetic:
// the reference's BerExp over emu64 is within emu64's expm_p63 accuracy
// (about 2^-50 relative), the two-Bernoulli design within a few ulps of
// binary64 (math.Exp is within one ulp, the 64-bit thresholds truncate at
// 2^-64).
func TestCompareAcceptance(t *testing.T) {
	n := 2
	if testing.Short() {
		n = 1
	}
	c, err := CompareAcceptance(9, n)
	if err != nil {
		t.Fatal(err)
	}
	if c.Attempts < 1700*n || len(c.Designs) != 2 {
		t.Fatalf("%+v", c)
	}
	for _, d := range c.Designs {
		bound := 0x1p-48
		if d.Design == "two_bernoulli64" {
			bound = 0x1p-50
		}
		if !(d.MaxRelErr > 0 && d.MaxRelErr < bound) || !(d.MeanAbsDiff > 0 && d.MeanAbsDiff <= d.MaxAbsDiff) {
			t.Errorf("%+v (bound %g)", d, bound)
		}
		t.Logf("%s: max relative error 2^%.2f, mean |P - P*| 2^%.2f over %d attempts", d.Design, math.Log2(d.MaxRelErr), math.Log2(d.MeanAbsDiff), c.Attempts)
	}
	if _, err := CompareAcceptance(9, 0); err == nil {
		t.Error("0 records accepted")
	}
}

// TestTwoBernoulliExact checks the design's exact decision and margin on
// words placed by hand around exact thresholds, and, on 100,000 random
// attempts, that the binary64 datapath (Accept) and the exact decision
// differ only where the exact margin is below 2^-50 (math.Exp is within
// an ulp, 2^-52 relative).
func TestTwoBernoulliExact(t *testing.T) {
	var tb TwoBernoulli
	if tb.Name() != "two-bernoulli" || tb.Words() != 2 {
		t.Fatalf("%s, %d words", tb.Name(), tb.Words())
	}
	bf := func(v float64) *big.Float { return new(big.Float).SetFloat64(v) }
	for _, c := range []struct {
		x, ccs float64
		u1, u2 uint64
		want   bool
		margin float64 // log2, worked out by hand
	}{
		// u2 + 1 = 3 2^62 = ccs 2^64: on the threshold, accepted with
		// no margin at all.
		{0, 0.75, 0, 3<<62 - 1, true, math.Inf(-1)},
		// One word above: rejected by 2^-64.
		{0, 0.75, 0, 3 << 62, false, -64},
		// exp(0) = 1: floor(2^64) is above every word, the largest with
		// no margin.
		{0, 0.75, 1<<64 - 1, 0, true, math.Inf(-1)},
		// Margins 1 - (2^62+1)/2^64 and 1/2 - (2^61+1)/2^64: the
		// nearer is 3/8 - 2^-64.
		{0, 0.5, 1 << 62, 1 << 61, true, math.Log2(0.375)},
		// math.Ln2 is 2.3192e-17 below ln 2, so exp(-x) 2^64 =
		// 2^63 + 213.9: the word 2^63 + 4096 fails the first trial by
		// 3883.1 / 2^64 = 2^-52.077, the second trial passes.
		{math.Ln2, 0.5, 1<<63 + 4096, 1 << 62, false, -52.077},
		// and 2^63 passes it.
		{math.Ln2, 0.5, 1 << 63, 1 << 62, true, math.Log2(213.9/0x1p64 - 0x1p-64)},
	} {
		ok, m := tb.ExactAccept(bf(c.x), bf(c.ccs), []uint64{c.u1, c.u2})
		if ok != c.want {
			t.Errorf("x %v ccs %v words %#x %#x: accept %v, want %v", c.x, c.ccs, c.u1, c.u2, ok, c.want)
		}
		if !(m == c.margin || math.Abs(m-c.margin) < 0.01) {
			t.Errorf("x %v ccs %v words %#x %#x: margin 2^%.3f, want 2^%.0f", c.x, c.ccs, c.u1, c.u2, m, c.margin)
		}
		if got := tb.Accept(c.x, c.ccs, []uint64{c.u1, c.u2}); got != TwoBernoulliAccept(c.x, c.ccs, nil, c.u1, c.u2) {
			t.Errorf("Accept and TwoBernoulliAccept differ")
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	differ := 0
	for range 100000 {
		x, ccs := 20*r.Float64(), 0.5+0.5*r.Float64()
		w := []uint64{r.Uint64(), r.Uint64()}
		ok, m := tb.ExactAccept(bf(x), bf(ccs), w)
		if ok != tb.Accept(x, ccs, w) {
			differ++
			if m > -50 {
				t.Errorf("x %v ccs %v: datapath and exact decision differ with margin 2^%.1f", x, ccs, m)
			}
		}
	}
	if differ > 10 {
		t.Errorf("%d of 100000 decisions differ", differ)
	}
}

// TestAcceptanceComparisonText prints a comparison made by hand: a row
// per design with its errors as powers of two (2^-50 exactly, 3 x 2^-54 =
// 2^-52.42, 2^-51.5, and a zero), under the attempts, degree and records.
func TestAcceptanceComparisonText(t *testing.T) {
	c := &AcceptanceComparison{Params: 1024, Records: 3, Attempts: 5000, Designs: []AcceptanceDesignStats{
		{Design: "bytewise_berexp", MaxRelErr: 0x1p-50, MeanAbsDiff: 3 * 0x1p-54, MaxAbsDiff: math.Sqrt2 * 0x1p-52},
		{Design: "two_bernoulli64"},
	}}
	text := writeText(t, func(b *strings.Builder) error { return c.WriteText(b) })
	wantText(t, text, "SamplerZ acceptance on 5000 attempts of real signing (Falcon-1024, 3 KAT records, emu64), against exact ccs exp(-x)",
		"MAX REL ERR", "MEAN |P - P*|")
	rows := map[string][]string{"bytewise_berexp": {"2^-50.00", "2^-52.42", "2^-51.50"}, "two_bernoulli64": {"0", "0", "0"}}
	for l := range strings.Lines(text) {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if want, ok := rows[f[0]]; ok {
			if !slices.Equal(f[1:], want) {
				t.Errorf("%s: %v, want %v", f[0], f[1:], want)
			}
			delete(rows, f[0])
		}
	}
	if len(rows) != 0 {
		t.Errorf("no row of %v:\n%s", rows, text)
	}
}
