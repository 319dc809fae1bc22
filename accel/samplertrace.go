package accel

import "github.com/fprlab/fprlab/arith"

// SamplerTrace is an arith.Arith[F] that forwards every call to the
// backend it wraps and records the rejection structure of Falcon's
// SamplerZ from the calls the sampler makes: each sample begins with one
// Floor of its centre (floor(mu); signing calls Floor nowhere else) and
// each attempt makes one ExpmP63 call (BerExp). The number of ExpmP63
// calls between two Floor calls is the number of attempts of a sample, the
// last one accepted.
//
// This reads the sampler's structure from the arithmetic it requests,
// which holds for the sampler as written (Falcon-impl-20211101, sign.c;
// falcon/sampler.go) and would silently break if it changed; an observer
// of sampler calls in package falcon is the sturdier source, and Attempts
// is the form both give (see Pipeline.SimulatePairs). Results are those of
// the wrapped backend, bit for bit. Not safe for concurrent use.
type SamplerTrace[F any] struct {
	arith.Arith[F]
	attempts []int
}

// NewSamplerTrace returns a trace around a with no samples recorded.
func NewSamplerTrace[F any](a arith.Arith[F]) *SamplerTrace[F] {
	return &SamplerTrace[F]{Arith: a}
}

// Backend returns b with its implementation replaced by s, named
// "<b.Name>+trace".
func (s *SamplerTrace[F]) Backend(b arith.Backend) arith.Backend {
	b.Name += "+trace"
	b.Impl = s
	return b
}

// Floor starts a sample.
func (s *SamplerTrace[F]) Floor(x F) int64 {
	s.attempts = append(s.attempts, 0)
	return s.Arith.Floor(x)
}

// ExpmP63 counts an attempt of the current sample.
func (s *SamplerTrace[F]) ExpmP63(x, ccs F) uint64 {
	if n := len(s.attempts); n > 0 {
		s.attempts[n-1]++
	}
	return s.Arith.ExpmP63(x, ccs)
}

// Attempts returns the attempts per sample recorded so far, in sampling
// order (z1, z0 of the first leaf, then the next leaf's). A sample with
// zero attempts cannot come from a sampler that returned: it means the
// trace was reset in the middle of one or the structure assumption failed.
func (s *SamplerTrace[F]) Attempts() []int { return append([]int(nil), s.attempts...) }

// Reset forgets the recorded samples.
func (s *SamplerTrace[F]) Reset() { s.attempts = s.attempts[:0] }
