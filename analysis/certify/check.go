package certify

import (
	"fmt"
	"math"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// Sampled is what signing with the key under compare's shadow measured.
type Sampled struct {
	Signatures int
	// DeltaCMax and DeltaSigmaMax are the largest values over every
	// sampler call of every signature (log2; -Inf when all were exact).
	DeltaCMax, DeltaSigmaMax float64
}

// CheckSignatures signs n messages of scheme sc (nil: round 3) with sk
// over b under the exact shadow against the oracle at oracleBits bits (as
// compare --shadow oracle does; messages and randomness from seed as a
// seeded campaign derives them) and returns the largest delta_c and
// delta_sigma measured: the tightness check of a certificate, whose bound
// no sampled delta_c may exceed.
func CheckSignatures(b arith.Backend, sc scheme.Scheme, sk *falcon.PrivateKey, n int, seed string, oracleBits uint) (Sampled, error) {
	if oracleBits == 0 {
		oracleBits = DefaultOracleBits
	}
	if n < 1 || n > 10_000_000 {
		return Sampled{}, fmt.Errorf("certify: %d signatures out of range 1..10000000", n)
	}
	s, err := shadow.NewSigner(b, shadow.Config{LogN: sk.LogN, Signatures: n, Keys: 1, Seed: seed,
		Shadow: shadow.ShadowOracle, OracleBits: oracleBits, Sigma: shadow.SigmaReference, Scheme: sc})
	if err != nil {
		return Sampled{}, err
	}
	out := Sampled{Signatures: n, DeltaCMax: math.Inf(-1), DeltaSigmaMax: math.Inf(-1)}
	for j := range n {
		rec, err := s.Sign(sk, j)
		if err != nil {
			return Sampled{}, err
		}
		if rec.MaxDeltaC != nil {
			out.DeltaCMax = math.Max(out.DeltaCMax, *rec.MaxDeltaC)
		}
		if rec.MaxDeltaSigma != nil {
			out.DeltaSigmaMax = math.Max(out.DeltaSigmaMax, *rec.MaxDeltaSigma)
		}
	}
	return out, nil
}

// Exceeds reports whether a sampled delta_c lies above the certified bound
// (beyond the 2^-50 relative rounding of the shadow's binary64
// measurement): a bug in the bound or a model the backend does not meet.
func (r *Result) Exceeds(s Sampled) bool {
	return s.DeltaCMax > math.Log2(r.DeltaCBound)+0x1p-50
}
