package accel

import (
	"fmt"
	"io"
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/oracle"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/pow2"
)

// What an acceptance datapath does to SamplerZ's decisions, measured on
// the attempts of real signing against exact arithmetic.
//
// Each attempt accepts with probability ccs exp(-x). The reference's
// BerExp accepts when a uniform 64-bit word is below
// z = (2 expm_p63(r, ccs) - 1) >> t (x = t ln 2 + r), so with probability
// z / 2^64; the two-Bernoulli design (TwoBernoulliAccept) with probability
// T1 T2 / 2^128, T1 and T2 the thresholds of exp(-x) and ccs. For a design
// of probability P and the exact P*, |P - P*| is the probability that the
// design decides otherwise than an exact sampler under the best coupling
// of their random bits: its mean over the attempts is the rate of changed
// decisions, the quantity a reviewer compares between designs.

// AcceptanceDesignStats is one design's acceptance probabilities against
// the exact ones over the recorded attempts.
type AcceptanceDesignStats struct {
	Design string `json:"design"`
	// MaxRelErr is the largest |P - P*| / P*; MeanAbsDiff the mean of
	// |P - P*| (changed decisions per attempt) and MaxAbsDiff its largest.
	MaxRelErr   float64 `json:"max_rel_err"`
	MeanAbsDiff float64 `json:"mean_abs_diff"`
	MaxAbsDiff  float64 `json:"max_abs_diff"`
}

// AcceptanceComparison is the result of CompareAcceptance.
type AcceptanceComparison struct {
	Params   int                     `json:"params"`
	Records  int                     `json:"records"`
	Attempts int                     `json:"attempts"`
	Designs  []AcceptanceDesignStats `json:"designs"`
}

// acceptTap is emu64 that records, per SamplerZ attempt, the x and ccs of
// its Bernoulli trial: x is the operand the sampler multiplies by 1/ln 2
// (BerExp's reduction t = trunc(x / ln 2)), ccs the second operand of the
// ExpmP63 call that follows. The observer's BerExp event then gives the
// reference's threshold for the same attempt.
type acceptTap struct {
	arith.Arith[emu64.FPR]
	invLog2 emu64.FPR
	x, ccs  emu64.FPR
	stats   *acceptAccum
}

func (a *acceptTap) Mul(x, y emu64.FPR) emu64.FPR {
	if y == a.invLog2 {
		a.x = x
	}
	return a.Arith.Mul(x, y)
}

func (a *acceptTap) ExpmP63(r, ccs emu64.FPR) uint64 {
	a.ccs = ccs
	return a.Arith.ExpmP63(r, ccs)
}

// acceptAccum is the falcon.Observer that compares each trial.
type acceptAccum struct {
	tap      *acceptTap
	attempts int
	d        [2]AcceptanceDesignStats // byte-wise BerExp, two-Bernoulli
	err      error
}

func (s *acceptAccum) Stage(falcon.Stage, int, int, ...[]emu64.FPR)         {}
func (s *acceptAccum) Sample(mu, isigma emu64.FPR, z int64, rejections int) {}
func (s *acceptAccum) Attempt(*falcon.Attempt)                              {}

func (s *acceptAccum) BerExp(expm uint64, shift uint, drawn uint64, nbytes int, accept bool) {
	x := math.Float64frombits(uint64(s.tap.x))
	ccs := math.Float64frombits(uint64(s.tap.ccs))
	if !(x >= 0) || !(ccs > 0 && ccs < 1) {
		if s.err == nil {
			s.err = fmt.Errorf("accel: a trial with x = %v, ccs = %v is outside BerExp's domain", x, ccs)
		}
		return
	}
	const prec = 160
	exact := oracle.ExpRounded(new(big.Float).SetPrec(prec).SetFloat64(-x), prec)
	exact.Mul(exact, new(big.Float).SetPrec(prec).SetFloat64(ccs))
	z := ((expm << 1) - 1) >> shift
	ref := new(big.Float).SetPrec(prec).SetMantExp(new(big.Float).SetUint64(z), -64)
	two := new(big.Float).SetPrec(prec).SetUint64(BernoulliThreshold(ExpNeg(x)))
	two.Mul(two, new(big.Float).SetPrec(prec).SetUint64(BernoulliThreshold(ccs)))
	two.SetMantExp(two, -128)
	s.attempts++
	for i, p := range []*big.Float{ref, two} {
		diff := new(big.Float).SetPrec(prec).Sub(p, exact)
		abs, _ := diff.Abs(diff).Float64()
		rel, _ := new(big.Float).SetPrec(prec).Quo(diff, exact).Float64()
		d := &s.d[i]
		d.MeanAbsDiff += abs
		d.MaxAbsDiff = max(d.MaxAbsDiff, abs)
		d.MaxRelErr = max(d.MaxRelErr, math.Abs(rel))
	}
}

// CompareAcceptance signs the first records NIST KAT requests of degree
// 2^logn over emu64 and compares, for every SamplerZ attempt, the
// acceptance probability of the reference's byte-wise BerExp (with
// emu64's expm_p63) and of the two-Bernoulli design (exp by ExpNeg) with
// the exact ccs exp(-x) of the same attempt.
func CompareAcceptance(logn uint, records int) (*AcceptanceComparison, error) {
	if records < 1 || records > falcon.MaxKATRequests {
		return nil, fmt.Errorf("accel: %d KAT records: want 1 to %d", records, falcon.MaxKATRequests)
	}
	if _, err := falcon.KATName(logn); err != nil {
		return nil, err
	}
	base, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	var e emu64.Arith
	acc := &acceptAccum{d: [2]AcceptanceDesignStats{{Design: "bytewise_berexp"}, {Design: "two_bernoulli64"}}}
	tap := &acceptTap{Arith: e, invLog2: e.Const(arith.InvLog2), stats: acc}
	acc.tap = tap
	sb := falcon.Instantiate(base, arith.Arith[emu64.FPR](tap), falcon.Observer[emu64.FPR](acc))
	reqs := falcon.KATRequests(records)
	for i := range reqs {
		if err := falcon.GenerateKAT(logn, &reqs[i], falcon.KATOptions{Keygen: base, Sign: sb}); err != nil {
			return nil, err
		}
	}
	if acc.err != nil {
		return nil, acc.err
	}
	if acc.attempts == 0 {
		return nil, fmt.Errorf("accel: no SamplerZ attempt was observed")
	}
	out := &AcceptanceComparison{Params: 1 << logn, Records: records, Attempts: acc.attempts}
	for _, d := range acc.d {
		d.MeanAbsDiff /= float64(acc.attempts)
		out.Designs = append(out.Designs, d)
	}
	return out, nil
}

// WriteText writes c as accel ripst --acceptance prints it: each design's
// errors against the exact probabilities as powers of two, and what the
// designs and the measure are.
func (c *AcceptanceComparison) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "SamplerZ acceptance on %d attempts of real signing (Falcon-%d, %d KAT records, emu64), against exact ccs exp(-x)\n\n", c.Attempts, c.Params, c.Records)
	fmt.Fprintf(w, "%-18s %14s %16s %16s\n", "DESIGN", "MAX REL ERR", "MEAN |P - P*|", "MAX |P - P*|")
	for _, d := range c.Designs {
		fmt.Fprintf(w, "%-18s %14s %16s %16s\n", d.Design, pow2.Text(d.MaxRelErr), pow2.Text(d.MeanAbsDiff), pow2.Text(d.MaxAbsDiff))
	}
	_, err := fmt.Fprintln(w, `
bytewise_berexp: the reference's BerExp over emu64's expm_p63 (fixed-point polynomial after range reduction).
two_bernoulli64: exp(-x) in binary64 without range reduction (math.Exp, within one ulp), then two 64-bit
Bernoulli trials. Mean |P - P*| is the rate of decisions an exact sampler would take otherwise (best
coupling). Both see the same x and ccs, computed by emu64: errors upstream of the trial are not included.`)
	return err
}
