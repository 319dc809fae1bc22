package emu64_test

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ALTree/bigfloat"
)

// expNegFixed returns exp(-x) * 2^expFrac, truncated, for 0 <= x < 1, by
// its Taylor series in fixed point: each term is the previous one times
// x/k, truncated, so with about 40 terms for x < ln 2 the total error is a
// few units of 2^-expFrac. It is much faster than a big.Float exponential,
// which lets the accuracy test use 100,000 inputs; TestExpNegFixed checks
// it against bigfloat.Exp.
const expFrac = 192

func expNegFixed(x float64) *big.Int {
	mant, exp := math.Frexp(x)
	// X = x * 2^expFrac; exact as long as x >= 2^-139, negligible otherwise.
	X, _ := new(big.Float).SetMantExp(big.NewFloat(mant), exp+expFrac).Int(nil)
	sum := new(big.Int).Lsh(big.NewInt(1), expFrac)
	term := new(big.Int).Set(sum)
	k := new(big.Int)
	for i := int64(1); term.Sign() != 0; i++ {
		term.Mul(term, X)
		term.Rsh(term, expFrac)
		term.Quo(term, k.SetInt64(i))
		if i&1 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
	return sum
}

// expmTruth returns 2^63 * ccs * exp(-x) to about 180 bits.
func expmTruth(x, ccs float64) *big.Float {
	t := new(big.Float).SetPrec(256).SetInt(expNegFixed(x))
	t.Mul(t, new(big.Float).SetFloat64(ccs))
	return t.SetMantExp(t, 63-expFrac)
}

func TestExpNegFixed(t *testing.T) {
	for k, x := range []float64{0, 0x1p-60, 1e-9, 0.1, 0.25, 1.0 / 3, 0.5, 0.6931471805599452} {
		want := bigfloat.Exp(new(big.Float).SetPrec(200).SetFloat64(-x))
		got := new(big.Float).SetPrec(200).SetInt(expNegFixed(x))
		got.SetMantExp(got, -expFrac)
		d := new(big.Float).Sub(got, want)
		d.Quo(d, want)
		if e, _ := d.Float64(); math.Abs(e) > 0x1p-180 {
			t.Errorf("#%d: exp(-%v): relative difference %g from bigfloat.Exp", k, x, e)
		}
	}
}

// expmErr returns |got - truth| / truth for an ExpmP63 output.
func expmErr(got uint64, truth *big.Float) float64 {
	d := new(big.Float).SetPrec(256).SetUint64(got)
	d.Sub(d, truth)
	if truth.Sign() == 0 {
		f, _ := d.Float64()
		return math.Abs(f)
	}
	d.Quo(d, truth)
	f, _ := d.Float64()
	return math.Abs(f)
}

// TestExpmP63Accuracy measures both backends' ExpmP63 against
// 2^63*ccs*exp(-x) over random x in [0, ln 2) and ccs in [0, 1), plus the
// ends of those ranges (ccs = 1 is excluded: emu64 maps it to 0, see
// TestEdgeCases). Half of the ccs values are drawn from [0.7, 1), the
// range Falcon uses (sigma_min/sigma for sigma up to 1.8205). The maximum
// errors are logged over all inputs, over ccs >= 2^-10 (where the integer
// output's own granularity is below 2^-52) and over Falcon's range.
//
// The requirement is 45 correct bits. The result is an integer and both
// evaluations truncate at the end, so the assertion allows 2 units of the
// output on top of the relative 2^-45 (it matters only for ccs < 2^-16,
// where 2^63*ccs*exp(-x) is below 2^47).
func TestExpmP63Accuracy(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 5_000
	}
	type input struct{ x, ccs float64 }
	const belowLn2 = 0.6931471805599452 // largest binary64 below ln 2
	ins := []input{{0, 0}, {0, 0.5}, {0, 1 - 0x1p-53}, {belowLn2, 1 - 0x1p-53}, {belowLn2, 0x1p-20},
		{0x1p-60, 0.75}, {math.Ln2 / 2, 1 - 0x1p-53}}
	r := rand.New(rand.NewPCG(0x65787070, 63))
	for k := range n {
		in := input{x: r.Float64() * belowLn2, ccs: r.Float64()}
		if k%2 == 0 {
			in.ccs = 0.7 + 0.3*r.Float64()
		}
		ins = append(ins, in)
	}

	type stats struct{ all, big, falcon float64 }
	var se, sn stats
	agree := 0
	for k, in := range ins {
		truth := expmTruth(in.x, in.ccs)
		ge := emu.ExpmP63(ef(in.x), ef(in.ccs))
		gn := nat.ExpmP63(in.x, in.ccs)
		if ge == gn {
			agree++
		}
		for _, c := range []struct {
			name string
			got  uint64
			s    *stats
		}{{"emu64", ge, &se}, {"native", gn, &sn}} {
			e := expmErr(c.got, truth)
			c.s.all = math.Max(c.s.all, e)
			if in.ccs >= 0x1p-10 {
				c.s.big = math.Max(c.s.big, e)
			}
			if in.ccs >= 0.7 {
				c.s.falcon = math.Max(c.s.falcon, e)
			}
			abs := new(big.Float).SetUint64(c.got)
			abs.Sub(abs, truth).Abs(abs)
			limit := new(big.Float).SetMantExp(truth, -45)
			limit.Add(limit, big.NewFloat(2))
			if abs.Cmp(limit) > 0 {
				t.Errorf("#%d: %s ExpmP63(%v, %v) = %d, truth %.3f: error %g (2^%.2f relative)",
					k, c.name, in.x, in.ccs, c.got, truth, abs, math.Log2(e))
			}
		}
	}
	t.Logf("%d inputs; max relative error (log2) over all / ccs >= 2^-10 / ccs in [0.7, 1):", len(ins))
	for _, c := range []struct {
		name string
		s    stats
	}{{"emu64", se}, {"native", sn}} {
		t.Logf("  %-6s  %.2f / %.2f / %.2f", c.name, math.Log2(c.s.all), math.Log2(c.s.big), math.Log2(c.s.falcon))
	}
	t.Logf("emu64 and native ExpmP63 agree exactly on %d of %d inputs (%.2f%%)",
		agree, len(ins), 100*float64(agree)/float64(len(ins)))
}
