package shadow

import (
	"crypto/sha3"
	"errors"
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/fips206"
	"github.com/fprlab/fprlab/scheme"
)

// KeySource names the key generation of a campaign's keys: the name of
// the scheme whose key generation makes them.
type KeySource string

// KeysFalcon is round 3's key generation (falcon.Keygen over the
// campaign's key backend, KeygenBackend's rule): the keys of every round-3
// campaign, the zero value's choice, and what campaigns of another scheme
// made before that scheme had key generation of its own used.
const KeysFalcon KeySource = "falcon"

// KeysOf is the key source of scheme s's own key generation (s.KeyGen
// from SchemeKeySeed; for FN-DSA, "fn-dsa": fndsa.KeyGen, go-fn-dsa's keys
// bit for bit). No floating point is involved, so no key generation is
// shadowed and every backend signs with the same keys.
func KeysOf(s scheme.Scheme) KeySource { return KeySource(s.Name()) }

// ParseKeySource parses a key source for scheme s: s's own (when it has
// key generation of its own) or "falcon".
func ParseKeySource(v string, s scheme.Scheme) (KeySource, error) {
	ks := KeySource(v)
	if ks == KeysFalcon || (s.KeySeedSize() > 0 && ks == KeysOf(s)) {
		return ks, nil
	}
	if s.KeySeedSize() == 0 {
		return "", fmt.Errorf("key source %q: scheme %s signs with round 3's keys: want %q", v, s.Name(), KeysFalcon)
	}
	return "", fmt.Errorf("key source %q: want %q (%s's key generation) or %q (round 3's)", v, KeysOf(s), s.Description(), KeysFalcon)
}

// SchemeKeySeed returns the seed of s's own key generation (s.KeySeedSize
// bytes) of key i of a seeded campaign with seed seed: the first bytes of
//
//	SHAKE256("fprlab compare " || s.Name() || " key" || 0x00 || BE64(len(seed)) || seed || BE64(i))
//
// (the derivation of the campaign's other inputs, with its own label).
func SchemeKeySeed(s scheme.Scheme, seed string, i int) []byte {
	out := make([]byte, s.KeySeedSize())
	derive(s.Name()+" key", seed, i).Read(out)
	return out
}

// SchemeOf is the campaign's scheme: Config.Scheme, or the default
// (scheme.Default, round 3) when it is nil and the program links it; nil
// otherwise (Check says why).
func (c *Config) SchemeOf() scheme.Scheme {
	if c.Scheme != nil {
		return c.Scheme
	}
	s, _ := scheme.Lookup("")
	return s
}

// ownKeys reports whether the campaign signs with its scheme's own keys.
func (c *Config) ownKeys() bool {
	s := c.SchemeOf()
	return s != nil && s.KeySeedSize() > 0 && c.KeySource == KeysOf(s)
}

// ownKey generates key i of a seeded campaign with its scheme's own key
// generation.
func (c *Config) ownKey(i int) (*falcon.PrivateKey, error) {
	s := c.SchemeOf()
	return s.KeyGen(c.LogN, SchemeKeySeed(s, c.Seed, i))
}

// SeededKey returns key i of the seeded campaign over backend b as the
// campaign makes it (a shadow never changes the key it follows): by its
// scheme's own key generation when it signs with its scheme's keys, else
// by round 3's over KeygenBackendOf(b) from the key's stream.
func (c *Config) SeededKey(b arith.Backend, i int) (*falcon.PrivateKey, error) {
	if c.ownKeys() {
		return c.ownKey(i)
	}
	kb, err := arith.Lookup(c.KeygenBackendOf(b))
	if err != nil {
		return nil, err
	}
	sk, _, err := falcon.Keygen(kb, c.LogN, derive("key", c.Seed, i))
	return sk, err
}

// KeySourceOf is the key source a summary of the campaign records: ""
// for the default scheme, round 3 (whose keys are always round 3's), else
// the scheme's own (KeysOf) or KeysFalcon (the zero value's).
func (c *Config) KeySourceOf() KeySource {
	switch {
	case scheme.IsDefault(c.SchemeOf()):
		return ""
	case c.ownKeys():
		return KeysOf(c.SchemeOf())
	}
	return KeysFalcon
}

// SchemeName is the "scheme" a summary or campaign identity records: ""
// (absent) for the default scheme, round 3, as before there was a choice;
// else the scheme's name.
func (c *Config) SchemeName() string {
	if s := c.SchemeOf(); !scheme.IsDefault(s) {
		return s.Name()
	}
	return ""
}

// ModeName is the "mode" a summary or campaign identity records: ""
// (absent) for falcon.Dyn, the signing procedure of every campaign made
// before there was a choice; else the mode's name ("tree").
func (c *Config) ModeName() string {
	if c.Mode == falcon.Dyn {
		return ""
	}
	return c.Mode.String()
}

// KeygenBackendOf is the backend that generates the campaign's keys over
// b (Config.KeygenBackend, else KeygenBackend(b)); "" when the scheme's
// own integer key generation makes them.
func (c *Config) KeygenBackendOf(b arith.Backend) string {
	switch {
	case c.ownKeys():
		return ""
	case c.KeygenBackend != "":
		return c.KeygenBackend
	}
	return KeygenBackend(b)
}

// checkScheme validates Config.Scheme and KeySource: the scheme's
// degrees, its own 1/sigma table when it fixes one, and KAT records only
// for a scheme whose signatures are the NIST round-3 KAT's.
func (c *Config) checkScheme() error {
	s := c.SchemeOf()
	if s == nil {
		_, err := scheme.Lookup("")
		return err
	}
	switch {
	case c.KeySource == "" || c.KeySource == KeysFalcon:
	case s.KeySeedSize() > 0 && c.KeySource == KeysOf(s):
	default:
		if o, err := scheme.Lookup(string(c.KeySource)); err == nil && o.KeySeedSize() > 0 {
			who := "round 3"
			if !scheme.IsDefault(s) {
				who = "scheme " + s.Name()
			}
			return fmt.Errorf("%s keys are for scheme %s only (%s signs with round 3's keys)", o.Description(), o.Name(), who)
		}
		_, err := ParseKeySource(string(c.KeySource), s)
		return err
	}
	switch c.Mode {
	case falcon.Dyn:
	case falcon.Tree:
		if _, ok := s.(scheme.Formatter); !ok {
			return fmt.Errorf("signing mode tree is the reference's falcon_sign_tree, round 3's; scheme %s signs in one mode", s.Name())
		}
	default:
		return fmt.Errorf("signing mode %v: want dyn or tree", c.Mode)
	}
	if scheme.IsDefault(s) {
		return nil
	}
	if c.KATMode() && !s.ReplaysNISTKAT() {
		return fmt.Errorf("scheme %s has no KAT records (the NIST KATs are round 3's)", s.Name())
	}
	if s.FixedInvSigma() && c.Sigma != SigmaReference {
		return fmt.Errorf("scheme %s takes its 1/sigma table (the formula correctly rounded to binary64) on both sides: exact sigma %q is not supported, use %q", s.Name(), c.Sigma, SigmaReference)
	}
	return s.CheckLogN(c.LogN)
}

// SigmaFor returns the exact 1/sigma of a campaign of scheme s whose
// --exact-sigma is v (given says the user gave it): v itself, checked, or
// for a scheme that fixes its 1/sigma table (FN-DSA) the reference's, the
// only one such a scheme supports, when v was not given. compare and
// certify take it so, so that certify's delta_sigma is compare's.
func SigmaFor(s scheme.Scheme, v string, given bool) (ExactSigma, error) {
	e := ExactSigma(v)
	switch {
	case e != SigmaFormula && e != SigmaReference:
		return "", fmt.Errorf("--exact-sigma %q: want %s or %s", v, SigmaFormula, SigmaReference)
	case s.FixedInvSigma() && !given:
		return SigmaReference, nil
	case s.FixedInvSigma() && e != SigmaReference:
		return "", fmt.Errorf("--exact-sigma %s is not supported by %s, which fixes its 1/sigma table (the formula correctly rounded to binary64) on both sides: its exact 1/sigma is the reference's (--exact-sigma reference, the default)", v, s.Description())
	}
	return e, nil
}

func (r *pairRunner[F, X, A, AX]) setScheme(s scheme.Scheme, m falcon.Mode) { r.scheme, r.mode = s, m }

// ExpmP63FIPS206 implements fips206.Expm: FN-DSA's integer ApproxExp on
// the measured side, measured against the exact side's 2^63 ccs exp(-x)
// as ExpmP63 is (the exact threshold of the Bernoulli trial that
// follows). The engine calls it for the schemes whose sampler uses that
// ApproxExp, whichever they are.
func (p *PairArith[F, X, A, AX]) ExpmP63FIPS206(x, ccs Pair[F, X]) uint64 {
	return p.noteExpm(fips206.ExpmP63(p.b, x.B, ccs.B), x, ccs)
}

// signWith signs msg with sk over b in scheme s by the signing procedure
// m (falcon.Dyn: the scheme's Sign), reading the randomness from rng; it
// returns the signature and a function that verifies it.
func signWith(s scheme.Scheme, m falcon.Mode, b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng *sha3.SHAKE) (sig []byte, verify func() error, err error) {
	if s == nil {
		return nil, nil, errors.New("shadow: no scheme")
	}
	if f, ok := s.(scheme.Formatter); ok && m != falcon.Dyn {
		sig, err = f.SignFormat(b, sk, msg, falcon.Compressed, m, rng)
	} else if m != falcon.Dyn {
		return nil, nil, fmt.Errorf("shadow: scheme %s has no signing mode %v", s.Name(), m)
	} else {
		sig, err = s.Sign(b, sk, msg, rng)
	}
	if err != nil {
		return nil, nil, err
	}
	pk, err := sk.Public()
	if err != nil {
		return nil, nil, err
	}
	return sig, func() error { return s.Verify(pk, msg, sig) }, nil
}
