package falcon

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
)

// Samples at the edge of the sampler's support, for worst-case analyses.
//
// SamplerZ returns z = floor(mu) + b + (2b - 1) z0 with z0 from the base
// sampler, whose support is {0, ..., MaxBaseSample}, and b a random bit,
// then keeps it with probability ccs exp(-x) (sampler.go). A bound on the
// floating-point error of signing that holds for every output of the
// sampler (package analysis/certify) must cover every such z, the largest
// deviations |z - mu| included, which a drawn signature almost never meets
// (the base sampler draws z0 >= 9 with probability below 2 10^-6, z0 = 18
// with probability 2^-72). An instance with edge
// samples fixes z0 at a chosen value instead of drawing and testing it:
// every call returns floor(mu) + b + (2b - 1) dev, b still read from the
// sampler's generator, so the rest of the attempt -- the centres, the
// updates, the merges -- runs on the largest distances between centres and
// samples the support allows. Such attempts are not Falcon's distribution
// and their signatures must never be published; they are inputs at which a
// measurement (analysis/shadow) can show how large the error of signing
// really gets.

// MaxBaseSample is the largest value of the base sampler, z0 in {0, ...,
// MaxBaseSample}: its table has that many entries (Falcon specification
// v1.2, Table 3.1; the July 2026 draft's table also has 18).
const MaxBaseSample = len(rcdt)

// edgeSamples is an instance's choice: off (the sampler draws), or every
// z0 fixed at dev.
type edgeSamples struct {
	on  bool
	dev int32
}

// WithEdgeSamples returns b with its sampler replaced by one that returns
// floor(mu) + b + (2b - 1) dev at every call (see above), dev in [0,
// MaxBaseSample]. b must come from Instantiate.
func WithEdgeSamples(b arith.Backend, dev int) (arith.Backend, error) {
	if dev < 0 || dev > MaxBaseSample {
		return b, fmt.Errorf("falcon: edge sample deviation %d outside the base sampler's support 0 to %d", dev, MaxBaseSample)
	}
	return withInstanceOption(b, "edge samples", func(o *instanceOptions) { o.edge = edgeSamples{on: true, dev: int32(dev)} })
}

// edgeSample is the sampler's call with edge samples: z0 = dev, b one bit
// of the generator (the low bit of a byte, as the reference reads b).
func (s *sampler[F, A]) edgeSample(mu, isigma F) int64 {
	c := int64(s.a.Floor(mu))
	b := int64(s.u8() & 1)
	z := c + b + (2*b-1)*int64(s.edge.dev)
	if s.obs != nil {
		s.obs.Sample(mu, isigma, z, 0)
	}
	return z
}
