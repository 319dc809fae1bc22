// Package fndsa2025 registers FN-DSA as pornin's go-fn-dsa (e24833f,
// March 2025) implements the FIPS 206 draft -- package fndsa -- as the
// scheme "fn-dsa": raw messages with an empty context, padded signatures,
// keys from FN-DSA's own integer key generation. FIPS 206 is not final;
// a later draft is another scheme under another name. Import it for its
// side effect where a program looks schemes up by name.
//
// Its name stays "fn-dsa", the name its campaign directories record; it
// is also looked up as "fn-dsa-2025", the name with its draft's year,
// beside "fn-dsa-2026" (scheme/fndsa2026). Bare "fn-dsa" will always mean
// this profile.
package fndsa2025

import (
	"errors"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/internal/fips206"
	"github.com/fprlab/fprlab/scheme"
)

func init() {
	scheme.Register(Scheme)
	scheme.RegisterAlias(Alias, Scheme.Name())
}

// Alias is the profile's name with its draft's year.
const Alias = "fn-dsa-2025"

// Scheme is FN-DSA, 2025 profile.
var Scheme scheme.Scheme = fnDSA{}

type fnDSA struct{}

func (fnDSA) Name() string { return "fn-dsa" }

func (fnDSA) Description() string { return "FN-DSA" }

func (fnDSA) Source() string {
	return "FN-DSA, the FIPS 206 draft as go-fn-dsa e24833f implements it, March 2025, not final"
}

func (fnDSA) Title(logn uint) string { return fmt.Sprintf("FN-DSA-%d", 1<<logn) }

// CheckLogN accepts the standard degrees, 512 and 1024: the weak degrees
// fndsa offers for research have their own entry points and no campaign.
func (fnDSA) CheckLogN(logn uint) error {
	if logn < fndsa.MinStdLogN || logn > fndsa.MaxLogN {
		return fmt.Errorf("scheme fn-dsa signs with degrees 512 and 1024, not %d", 1<<logn)
	}
	return nil
}

func (fnDSA) KeySeedSize() int { return fndsa.KeygenSeedSize }

// KeyGen is fndsa.KeyGen (go-fn-dsa's keys bit for bit) as round 3's
// private key, the form in which campaigns sign with it (the two schemes
// share the key format).
func (fnDSA) KeyGen(logn uint, seed []byte) (*falcon.PrivateKey, error) {
	kp, err := fndsa.KeyGen(logn, seed)
	if err != nil {
		return nil, err
	}
	return &falcon.PrivateKey{LogN: kp.LogN, SmallF: kp.SmallF, SmallG: kp.SmallG, BigF: kp.BigF, BigG: kp.BigG}, nil
}

// weak says whether logn is one of fndsa's research degrees, which its
// key decoders take only when asked.
func weak(logn uint) bool { return logn < fndsa.MinStdLogN }

func (s fnDSA) Sign(b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng io.Reader) ([]byte, error) {
	return scheme.SignHeld(s, b, sk, msg, rng)
}

var _ scheme.KeyHolder = fnDSA{}

// HoldKey encodes sk as FN-DSA's signing key once. (go-fn-dsa itself
// decodes its key again at every signature; accel counts counts that.)
func (fnDSA) HoldKey(sk *falcon.PrivateKey) (scheme.Signer, error) {
	k, err := fndsa.NewSigningKey(sk, weak(sk.LogN))
	if err != nil {
		return nil, err
	}
	return func(b arith.Backend, msg []byte, rng io.Reader) ([]byte, error) {
		sig, err := k.Sign(b, nil, fndsa.None, msg, rng)
		return sig, scheme.MarkEngine(err, fndsa.ErrSignAttempts)
	}, nil
}

func (fnDSA) Verify(pk *falcon.PublicKey, msg, sig []byte) error {
	vk, err := fndsa.DecodeVerifyingKey(pk.Encode(), weak(pk.LogN))
	if err != nil {
		return err
	}
	return vk.Verify(nil, fndsa.None, msg, sig)
}

func (fnDSA) EncodeKeys(sk *falcon.PrivateKey) (pk, skb []byte, err error) {
	k, err := fndsa.NewSigningKey(sk, weak(sk.LogN))
	if err != nil {
		return nil, nil, err
	}
	return k.VerifyingKey(), sk.Encode(), nil
}

var (
	_ scheme.SignatureReader = fnDSA{}
	_ scheme.Attempter       = fnDSA{}
)

// SignAttempt runs an attempt of go-fn-dsa's signing.
func (fnDSA) SignAttempt(b arith.Backend, sk *falcon.PrivateKey, hm []uint16, seed []byte) error {
	_, _, err := fips206.SignAttempt(b, sk.LogN, sk.SmallF, sk.SmallG, sk.BigF, sk.BigG, hm, scheme.AttemptSeed(seed, fips206.SeedSize))
	return err
}

// ReadSignature reads the padded format of falcon.h, FN-DSA 2025's.
func (fnDSA) ReadSignature(logn uint, sig []byte) ([]byte, []int16, error) {
	return scheme.ReadFalconSignature(logn, sig)
}

// DecodePublicKey reads falcon.h's public-key encoding, FN-DSA 2025's
// verifying key.
func (fnDSA) DecodePublicKey(pk []byte) (*falcon.PublicKey, error) { return falcon.DecodePublicKey(pk) }

// DecodePrivateKey reads go-fn-dsa's signing key (its degree from the
// header).
func (fnDSA) DecodePrivateKey(sk []byte) (*falcon.PrivateKey, error) {
	if len(sk) == 0 {
		return nil, errors.New("fndsa: empty signing key")
	}
	k, err := fndsa.DecodeSigningKey(sk, weak(uint(sk[0]&0x0F)))
	if err != nil {
		return nil, err
	}
	return k.PrivateKey(), nil
}

// MaxEncodedSizes: FN-DSA's keys are falcon.h's, its signatures
// falcon.h's padded format.
func (fnDSA) MaxEncodedSizes() (pk, sk, sig int) { return falcon.MaxEncodedSizes() }

func (fnDSA) FixedInvSigma() bool  { return true }
func (fnDSA) ReplaysNISTKAT() bool { return false }

func (fnDSA) IdleStage(st arith.PlanStage) string {
	if st == arith.PlanExpm {
		return "no floating-point work in FN-DSA signing: its ApproxExp is integer (its two truncations to fixed point are sampler operations); not tuned, its width changes nothing"
	}
	return ""
}

func (fnDSA) CostNote() string {
	return "floating-point work only: FN-DSA's integer ApproxExp (13 64x64-bit products per Bernoulli trial, the same for every plan) is not priced"
}
