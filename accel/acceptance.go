package accel

import "math"

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
