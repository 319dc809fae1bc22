package shadow

import (
	"crypto/sha3"
	"errors"
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/internal/fips206"
)

// Scheme names the signature scheme a campaign signs with.
type Scheme string

const (
	// SchemeFalcon is Falcon round 3 (package falcon), compressed
	// signatures.
	SchemeFalcon Scheme = "falcon"
	// SchemeFNDSA is FN-DSA as go-fn-dsa implements the FIPS 206 draft
	// (package fndsa): raw messages, empty context. Its keys come from
	// Config.KeySource.
	SchemeFNDSA Scheme = "fn-dsa"
)

// KeySource names the key generation of an FN-DSA campaign's keys.
type KeySource string

const (
	// KeysFalcon is round 3's key generation (falcon.Keygen over the
	// campaign's key backend, KeygenBackend's rule); also the zero
	// value's choice, and what campaign directories written before
	// KeysFNDSA existed used.
	KeysFalcon KeySource = "falcon"
	// KeysFNDSA is FN-DSA's own integer key generation (fndsa.KeyGen, go-fn-dsa's
	// keys bit for bit): key i of a seeded campaign is
	// fndsa.KeyGen(logn, FNDSAKeySeed(seed, i)). No floating point is
	// involved, so no key generation is shadowed and every backend signs
	// with the same keys.
	KeysFNDSA KeySource = "fn-dsa"
)

// ParseKeySource parses "fn-dsa" or "falcon".
func ParseKeySource(s string) (KeySource, error) {
	switch KeySource(s) {
	case KeysFNDSA, KeysFalcon:
		return KeySource(s), nil
	}
	return "", fmt.Errorf("key source %q: want %q (FN-DSA's key generation) or %q (round 3's)", s, KeysFNDSA, KeysFalcon)
}

// FNDSAKeySeed returns the 32-byte fndsa.KeyGen seed of key i of a seeded
// campaign with seed seed: the first 32 bytes of
//
//	SHAKE256("fprlab compare fn-dsa key" || 0x00 || BE64(len(seed)) || seed || BE64(i))
//
// (the derivation of the campaign's other inputs, with its own label).
func FNDSAKeySeed(seed string, i int) []byte {
	out := make([]byte, fndsa.KeygenSeedSize)
	derive("fn-dsa key", seed, i).Read(out)
	return out
}

// fndsaKey generates key i of a seeded campaign with FN-DSA's key
// generation.
func fndsaKey(logn uint, seed string, i int) (*falcon.PrivateKey, error) {
	return fndsaKeyOfSeed(logn, FNDSAKeySeed(seed, i))
}

// fndsaKeyOfSeed is fndsa.KeyGen's key of a 32-byte seed as round 3's
// private key (the two schemes share the key format), the form in which
// a campaign signs with it.
func fndsaKeyOfSeed(logn uint, seed []byte) (*falcon.PrivateKey, error) {
	kp, err := fndsa.KeyGen(logn, seed)
	if err != nil {
		return nil, err
	}
	return &falcon.PrivateKey{LogN: kp.LogN, SmallF: kp.SmallF, SmallG: kp.SmallG, BigF: kp.BigF, BigG: kp.BigG}, nil
}

// fndsaKeys reports whether the campaign signs with FN-DSA's own keys.
func (c *Config) fndsaKeys() bool { return c.KeySource == KeysFNDSA }

// KeySourceOf is the key source a summary of the campaign records: ""
// for round 3 (whose keys are always round 3's), else KeysFNDSA or
// KeysFalcon (the zero value's).
func (c *Config) KeySourceOf() KeySource {
	switch {
	case c.Scheme != SchemeFNDSA:
		return ""
	case c.fndsaKeys():
		return KeysFNDSA
	}
	return KeysFalcon
}

// KeygenBackendOf is the backend that generates the campaign's keys over
// b (Config.KeygenBackend, else KeygenBackend(b)); "" when FN-DSA's
// integer key generation makes them.
func (c *Config) KeygenBackendOf(b arith.Backend) string {
	switch {
	case c.fndsaKeys():
		return ""
	case c.KeygenBackend != "":
		return c.KeygenBackend
	}
	return KeygenBackend(b)
}

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
	switch c.KeySource {
	case "", KeysFalcon, KeysFNDSA:
	default:
		_, err := ParseKeySource(string(c.KeySource))
		return err
	}
	if c.Scheme != SchemeFNDSA {
		if c.fndsaKeys() {
			return errors.New("FN-DSA keys are for scheme fn-dsa only (round 3 signs with round 3's keys)")
		}
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

// ExpmP63FIPS206 implements fips206.Expm: FN-DSA's integer
// ApproxExp on the measured side, measured against the exact side's
// 2^63 ccs exp(-x) as ExpmP63 is (the exact threshold of the Bernoulli
// trial that follows).
func (p *PairArith[F, X, A, AX]) ExpmP63FIPS206(x, ccs Pair[F, X]) uint64 {
	return p.noteExpm(fips206.ExpmP63(p.b, x.B, ccs.B), x, ccs)
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
