package falcon

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
)

// Replacing SamplerZ's acceptance test.
//
// The reference's BerExp (Falcon specification v1.2, Algorithm 14) is one
// design of the sampler's Bernoulli trial of probability ccs exp(-x);
// hardware samplers use others. Vojáček and Novotný's pipelined SamplerZ
// (TCHES 2026/4), for instance, evaluates exp(-x) over the whole range in a
// binary64 unit and decides by two 64-bit Bernoulli trials, of exp(-x) and
// of ccs. An Acceptance is such a design: installed in an instantiated
// backend (WithAcceptance), it replaces BerExp in every sampler call of
// real signing, so that the rest of Falcon, and the measurements made on
// it (package analysis/shadow), run unchanged around it. Package accel
// holds the pipelined design's model.
//
// The replacement changes the random stream: the sampler draws the
// design's Words() 64-bit words from its generator (prng_get_u64) in place
// of BerExp's bytes, so signatures differ from the reference's.

// Acceptance is an acceptance test of SamplerZ that replaces BerExp.
type Acceptance interface {
	// Name names the design, e.g. "two-bernoulli".
	Name() string
	// Words is the number of uniform 64-bit words one decision consumes,
	// 1 to MaxAcceptanceWords; the sampler draws them before calling
	// Accept.
	Words() int
	// Accept decides one attempt of probability ccs exp(-x) from x >= 0
	// and ccs as binary64 values (the backend's, rounded to binary64 at
	// the datapath's boundary) and the random words.
	Accept(x, ccs float64, words []uint64) bool
}

// MaxAcceptanceWords bounds Acceptance.Words.
const MaxAcceptanceWords = 4

// AcceptanceObserver is implemented by an Observer that wants the
// decisions of a replacing Acceptance (which make no BerExp event): x and
// ccs as the sampler computed them, the words drawn and the outcome. The
// sampler looks for it once per signing attempt.
type AcceptanceObserver[F any] interface {
	Acceptance(x, ccs F, words []uint64, accept bool)
}

// WithAcceptance returns b with its sampler's acceptance test replaced by
// acc (nil restores BerExp). b must come from Instantiate: the acceptance
// belongs to the instance, beside its observer.
func WithAcceptance(b arith.Backend, acc Acceptance) (arith.Backend, error) {
	if acc != nil {
		if w := acc.Words(); w < 1 || w > MaxAcceptanceWords {
			return b, fmt.Errorf("falcon: acceptance %q draws %d words per decision, want 1 to %d", acc.Name(), w, MaxAcceptanceWords)
		}
	}
	return withInstanceOption(b, "an acceptance test", func(o *instanceOptions) { o.acc = acc })
}

// setAcceptance installs acc (nil for BerExp) and, when the observer
// implements AcceptanceObserver, that view of it.
func (s *sampler[F, A]) setAcceptance(acc Acceptance) {
	s.acc = acc
	s.aobs = nil
	if acc != nil {
		s.aobs, _ = s.obs.(AcceptanceObserver[F])
	}
}

// accept is the sampler's trial when an Acceptance replaces BerExp: draw
// the design's words, decide on x and ccs in binary64.
func (s *sampler[F, A]) accept(x, ccs F) bool {
	w := s.words[:s.acc.Words()]
	for i := range w {
		w[i] = s.u64()
	}
	ok := s.acc.Accept(s.a.Float64(x), s.a.Float64(ccs), w)
	if s.aobs != nil {
		s.aobs.Acceptance(x, ccs, w, ok)
	}
	return ok
}
