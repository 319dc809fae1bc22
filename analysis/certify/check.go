package certify

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// Sampled is what signing with the key under compare's shadow measured.
type Sampled struct {
	// Signatures counts the signatures signed (CheckSignatures) or the
	// attempts run (CheckChosen).
	Signatures int
	// DeltaCMax and DeltaSigmaMax are the largest values over every
	// sampler call of every signature (log2; -Inf when all were exact).
	DeltaCMax, DeltaSigmaMax float64
	// Shadow is the exact side the signatures were measured against;
	// Slack bounds how far that side's centres may lie from the oracle's
	// (0 for the oracle, the certificate's own exact side).
	Shadow shadow.Kind
	Slack  float64
	// Edge is CheckChosen's Check.Edge (shadow.Drawn for signatures).
	Edge int
}

// Check says how CheckSignatures signs.
type Check struct {
	// Sigma is the exact 1/sigma of the certificates and of the shadow
	// that checks them (Options.Sigma; "" is the reference's table).
	Sigma shadow.ExactSigma
	// Signatures is how many messages are signed with the key; Seed
	// derives them and the signing randomness as a seeded campaign does.
	Signatures int
	Seed       string
	// Chosen is how many signing attempts CheckChosen runs on hashed
	// points chosen for the key (ChosenPointsOf), their sampler seeds
	// derived from Seed.
	Chosen int
	// Edge is where the sampler outputs of CheckChosen's attempts lie: at
	// deviation Edge from their centres, the base sampler's value fixed
	// at z0 = Edge (0 to falcon.MaxBaseSample; falcon.WithEdgeSamples),
	// or drawn by the sampler as signing draws them (shadow.Drawn).
	// fprlab certify's default is falcon.MaxBaseSample, the edge of the
	// support the certificate covers.
	Edge int
	// Shadow is the exact side the backend's centres are measured
	// against: shadow.ShadowOracle (the zero value; the certificate's own
	// exact side, at OracleBits bits, 0 for DefaultOracleBits) or
	// shadow.ShadowDD, some 13 times cheaper. dd's centres are within
	// dd's own certified bound of the oracle's (about 2^-80 for the KAT
	// keys), which Exceeds adds, doubled, to the bound. (dd's certificate
	// takes dd's centre within 19 of each integer sampled; the shadow
	// follows the backend's integers, which moves that distance by the
	// backend's error, some 2^-30 of it, and the certificate's terms,
	// which grow with it, by as little: doubling is a wide margin for
	// that.) The dd shadow cannot check dd itself.
	Shadow     shadow.Kind
	OracleBits uint
	// Progress, when set, gives for each (backend, key) and check
	// ("signatures" or "chosen") a function All calls after each
	// signature or attempt with the number done and the total.
	Progress func(b arith.Backend, k KeyRef, check string) func(done, total int)
}

// CheckSignatures signs c.Signatures messages of scheme sc (nil: round 3)
// with sk over b under compare's exact shadow (c.Shadow) and returns the
// largest delta_c and delta_sigma measured: the tightness check of a
// certificate, whose bound no sampled delta_c may exceed.
//
// progress, when not nil, is called after each signature. It stops with
// ctx's error when ctx is cancelled between signatures.
func CheckSignatures(ctx context.Context, b arith.Backend, sc scheme.Scheme, sk *falcon.PrivateKey, c Check, progress func(done, total int)) (Sampled, error) {
	return c.sample(ctx, b, sc, sk, c.Signatures, "signatures", func(s *shadow.Signer, j int) (*shadow.Record, error) {
		return s.Sign(sk, j)
	}, progress)
}

// sample runs n shadowed signatures or attempts with sk over b -- one(s,
// j) runs the j-th with the check's signer -- and returns their maxima.
// what names them in the range error. It stops with ctx's error when ctx
// is cancelled between them.
func (c Check) sample(ctx context.Context, b arith.Backend, sc scheme.Scheme, sk *falcon.PrivateKey, n int, what string, one func(s *shadow.Signer, j int) (*shadow.Record, error), progress func(done, total int)) (Sampled, error) {
	if n < 1 || n > 10_000_000 {
		return Sampled{}, fmt.Errorf("certify: %d %s out of range 1..10000000", n, what)
	}
	s, out, err := c.signer(b, sc, sk)
	if err != nil {
		return Sampled{}, err
	}
	out.Signatures = n
	for j := range n {
		if err := ctx.Err(); err != nil {
			return Sampled{}, err
		}
		rec, err := one(s, j)
		if err != nil {
			return Sampled{}, err
		}
		out.add(rec.MaxDeltaC, rec.MaxDeltaSigma)
		if progress != nil {
			progress(j+1, n)
		}
	}
	return out, nil
}

// add takes one signature's (or attempt's) maxima into s.
func (s *Sampled) add(deltaC, deltaSigma *float64) {
	if deltaC != nil {
		s.DeltaCMax = math.Max(s.DeltaCMax, *deltaC)
	}
	if deltaSigma != nil {
		s.DeltaSigmaMax = math.Max(s.DeltaSigmaMax, *deltaSigma)
	}
}

// signer returns the shadowed signer of a check of sk over b and the
// empty Sampled it fills: c.Shadow's exact side, and with the dd shadow
// the slack of dd's own certificate of sk.
func (c Check) signer(b arith.Backend, sc scheme.Scheme, sk *falcon.PrivateKey) (*shadow.Signer, Sampled, error) {
	out := Sampled{DeltaCMax: math.Inf(-1), DeltaSigmaMax: math.Inf(-1), Shadow: c.Shadow, Edge: shadow.Drawn}
	cfg := shadow.Config{LogN: sk.LogN, Signatures: 1, Keys: 1, Seed: c.Seed,
		Shadow: shadow.ShadowOracle, OracleBits: c.OracleBits, Sigma: c.Sigma, Scheme: sc}
	if cfg.Sigma == "" {
		cfg.Sigma = shadow.SigmaReference
	}
	if cfg.OracleBits == 0 {
		cfg.OracleBits = DefaultOracleBits
	}
	switch c.Shadow {
	case "", shadow.ShadowOracle:
		out.Shadow = shadow.ShadowOracle
	case shadow.ShadowDD:
		if b.Name == "dd" {
			return nil, out, errors.New("certify: the dd shadow cannot check dd's certificate (it would measure dd against itself): check it against the oracle")
		}
		dd, err := arith.Lookup("dd")
		if err != nil {
			return nil, out, err
		}
		m, err := ModelFor(dd, "")
		if err != nil {
			return nil, out, err
		}
		r, err := Certify(dd, sk, Options{Model: m, Scheme: sc, Sigma: c.Sigma})
		if err != nil {
			return nil, out, fmt.Errorf("certify: dd's certificate, the dd shadow's margin: %w", err)
		}
		out.Slack = mul(2, r.DeltaCBound)
		cfg.Shadow = shadow.ShadowDD
	default:
		return nil, out, fmt.Errorf("certify: unknown shadow %q (want oracle or dd)", c.Shadow)
	}
	s, err := shadow.NewSigner(b, cfg)
	return s, out, err
}

// Exceeds reports whether a sampled delta_c lies above the certified bound
// plus the shadow's slack (beyond the 2^-50 relative rounding of the
// shadow's binary64 measurement): a bug in the bound or a model the
// backend does not meet.
func (r *Result) Exceeds(s Sampled) bool {
	return s.DeltaCMax > math.Log2(add(r.DeltaCBound, s.Slack))+0x1p-50
}
