package accel

import (
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith/oracle"
)

// The acceptance test of Vojáček and Novotný's pipelined SamplerZ (TCHES
// 2026/4), as a functional model that can stand in for the reference's
// BerExp (Falcon specification v1.2, Algorithm 14): where the reference
// reduces x modulo ln 2, evaluates 2^63 ccs exp(-r) in fixed point
// (fpr_expm_p63) and compares the shifted product with random bytes, their
// datapath evaluates exp(-x) for the whole range of x in a binary64 unit
// (relative error 2^-52.8 in their design), and decides by two independent
// 64-bit Bernoulli trials, one of probability exp(-x) and one of
// probability ccs, accepting when both succeed: the product of the two
// probabilities is the reference's ccs exp(-x), without the product ever
// being formed.

// ExpUnit evaluates exp(-x) for x >= 0 in binary64, as a hardware exp unit
// does. ExpNeg is the default.
type ExpUnit func(x float64) float64

// ExpNeg is exp(-x) by math.Exp, which Go documents as accurate to within
// one ulp: the same accuracy class as the published unit's 2^-52.8, not
// its exact rounding (the unit's polynomial is not published in the
// abstract this package follows), so decisions agree with their hardware
// except where a threshold lands within an ulp of a random word.
func ExpNeg(x float64) float64 { return math.Exp(-x) }

// BernoulliThreshold returns the 64-bit threshold of a Bernoulli trial of
// probability q: a uniform 64-bit word u succeeds when u < threshold,
// which has probability threshold / 2^64 = floor(q 2^64) / 2^64. q >= 1
// saturates at 2^64 - 1 (success unless u is all ones); q <= 0 and NaN give
// 0 (never).
func BernoulliThreshold(q float64) uint64 {
	switch {
	case !(q > 0):
		return 0
	case q >= 1:
		return math.MaxUint64
	}
	// q 2^64 < 2^64 is exact (a power-of-two scaling) and the conversion
	// truncates.
	return uint64(math.Ldexp(q, 64))
}

// TwoBernoulliAccept is the acceptance decision of the pipelined design
// for one attempt: exp(-x) by exp (ExpNeg when nil), then a trial of that
// probability against the uniform word u1 and a trial of probability ccs
// against u2. Both words are drawn for every attempt (the trials run side
// by side), so an attempt consumes 128 random bits here.
func TwoBernoulliAccept(x, ccs float64, exp ExpUnit, u1, u2 uint64) bool {
	if exp == nil {
		exp = ExpNeg
	}
	return u1 < BernoulliThreshold(exp(x)) && u2 < BernoulliThreshold(ccs)
}

// TwoBernoulli is the pipelined design's acceptance test as a
// falcon.Acceptance: installed with falcon.WithAcceptance it replaces the
// reference's BerExp in real signing, drawing two 64-bit words per attempt
// (u1 for the exp(-x) trial, u2 for the ccs trial). Exp is its exp unit
// (ExpNeg when nil). It also decides exactly (ExactAccept), which is how
// the shadow of package analysis/shadow counts the decisions that the
// design's binary64 datapath takes otherwise than exact arithmetic would
// with the same words.
type TwoBernoulli struct{ Exp ExpUnit }

// TwoBernoulliName is the design's name (fprlab compare --acceptance).
const TwoBernoulliName = "two-bernoulli"

// Name implements falcon.Acceptance.
func (TwoBernoulli) Name() string { return TwoBernoulliName }

// Words implements falcon.Acceptance: two 64-bit words per attempt.
func (TwoBernoulli) Words() int { return 2 }

// Accept implements falcon.Acceptance.
func (t TwoBernoulli) Accept(x, ccs float64, words []uint64) bool {
	return TwoBernoulliAccept(x, ccs, t.Exp, words[0], words[1])
}

// exactPrec is the precision of ExactAccept's exponential: 64 bits of
// threshold plus a margin far below any word's spacing.
const exactPrec = 192

// ExactAccept decides as the design would with exact arithmetic: x and
// ccs are the exact values of the attempt, exp(-x) is exact (to 192 bits),
// and the trials compare u1 with floor(exp(-x) 2^64) and u2 with
// floor(ccs 2^64), the thresholds BernoulliThreshold forms. The
// margin is how far the outcome was from changing, log2 of a probability:
// the distance of the deciding word from its exact threshold, over 2^64
// (for an acceptance the nearer of the two trials; for a rejection by one
// trial that trial; by both the farther, since both must change).
func (TwoBernoulli) ExactAccept(x, ccs *big.Float, words []uint64) (accept bool, marginLog2 float64) {
	neg := new(big.Float).SetPrec(exactPrec).Neg(x)
	p1 := oracle.ExpRounded(neg, exactPrec)
	p2 := new(big.Float).SetPrec(exactPrec).Set(ccs)
	// Trial i succeeds when u_i < floor(q_i 2^64), that is when
	// d_i = q_i - (u_i + 1) / 2^64 >= 0 (BernoulliThreshold with exact q).
	ulp := new(big.Float).SetMantExp(big.NewFloat(1), -64)
	d := func(q *big.Float, u uint64) float64 {
		w := new(big.Float).SetPrec(exactPrec).SetMantExp(new(big.Float).SetUint64(u), -64)
		w.Add(w, ulp)
		v, _ := w.Sub(q, w).Float64()
		return v
	}
	d1, d2 := d(p1, words[0]), d(p2, words[1])
	ok1, ok2 := d1 >= 0, d2 >= 0
	var m float64
	switch {
	case ok1 && ok2:
		m = math.Min(d1, d2)
	case ok1:
		m = -d2
	case ok2:
		m = -d1
	default:
		m = math.Max(-d1, -d2)
	}
	return ok1 && ok2, math.Log2(m)
}
