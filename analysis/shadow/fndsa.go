package shadow

import (
	"crypto/sha3"
	"errors"
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
)

// Scheme names the signature scheme a campaign signs with.
type Scheme string

const (
	// SchemeFalcon is Falcon round 3 (package falcon), compressed
	// signatures.
	SchemeFalcon Scheme = "falcon"
	// SchemeFNDSA is FN-DSA as go-fn-dsa implements the FIPS 206 draft
	// (package fndsa): raw messages, empty context. Its keys are round 3's
	// (falcon.Keygen over the campaign's key backend), since package fndsa
	// generates none yet; the keys only feed signing, whose floating-point
	// path is what the campaign measures.
	SchemeFNDSA Scheme = "fn-dsa"
)

// ParseScheme parses "falcon" or "fn-dsa" ("" is falcon).
func ParseScheme(s string) (Scheme, error) {
	switch Scheme(s) {
	case "", SchemeFalcon:
		return SchemeFalcon, nil
	case SchemeFNDSA:
		return SchemeFNDSA, nil
	}
	return "", fmt.Errorf("scheme %q: want %q or %q", s, SchemeFalcon, SchemeFNDSA)
}

// checkScheme validates Config.Scheme: FN-DSA has no NIST KAT records and
// is defined here at the standard degrees only.
func (c *Config) checkScheme() error {
	if _, err := ParseScheme(string(c.Scheme)); err != nil {
		return err
	}
	if c.Scheme != SchemeFNDSA {
		return nil
	}
	if c.KATMode() {
		return errors.New("scheme fn-dsa has no KAT records (the NIST KATs are round 3's)")
	}
	if c.Sigma != SigmaReference {
		return fmt.Errorf("scheme fn-dsa takes its 1/sigma table (the formula correctly rounded to binary64) on both sides: exact sigma %q is not supported, use %q", c.Sigma, SigmaReference)
	}
	if c.LogN < fndsa.MinStdLogN || c.LogN > fndsa.MaxLogN {
		return fmt.Errorf("scheme fn-dsa signs with degrees 512 and 1024, not %d", 1<<c.LogN)
	}
	return nil
}

func (r *pairRunner[F, X, A, AX]) setScheme(s Scheme) { r.scheme = s }

// ExpmP63FIPS206 implements falcon.FIPS206Expm: FN-DSA's integer
// ApproxExp on the measured side, measured against the exact side's
// 2^63 ccs exp(-x) as ExpmP63 is (the exact threshold of the Bernoulli
// trial that follows).
func (p *PairArith[F, X, A, AX]) ExpmP63FIPS206(x, ccs Pair[F, X]) uint64 {
	return p.noteExpm(falcon.ExpmP63FIPS206(p.b, x.B, ccs.B), x, ccs)
}

// signWith signs msg with sk over b in scheme s, reading the randomness
// from rng; the function it returns verifies the signature.
func signWith(s Scheme, b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng *sha3.SHAKE) (verify func() error, err error) {
	if s != SchemeFNDSA {
		sig, err := falcon.Sign(b, sk, msg, falcon.Compressed, rng)
		if err != nil {
			return nil, err
		}
		pk, err := sk.Public()
		if err != nil {
			return nil, err
		}
		return func() error { return falcon.Verify(pk, msg, sig) }, nil
	}
	k, err := fndsa.NewSigningKey(sk, false)
	if err != nil {
		return nil, err
	}
	sig, err := k.Sign(b, nil, fndsa.None, msg, rng)
	if err != nil {
		return nil, err
	}
	return func() error {
		vk, err := fndsa.DecodeVerifyingKey(k.VerifyingKey(), false)
		if err != nil {
			return err
		}
		return vk.Verify(nil, fndsa.None, msg, sig)
	}, nil
}
