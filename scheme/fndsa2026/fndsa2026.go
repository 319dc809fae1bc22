// Package fndsa2026 registers FN-DSA as rust-fn-dsa 0.4.0 (commit
// 0629bb1) implements the July 2026 draft of FIPS 206 -- package
// fndsa2026 -- as the scheme "fn-dsa-2026": raw messages with an empty
// context, the draft's encodings, hedged signing, keys from the draft's
// integer key generation. The 2025 profile stays
// "fn-dsa" (also "fn-dsa-2025"); a later draft will be another scheme
// under another name. Import it for its side effect where a program looks
// schemes up by name.
package fndsa2026

import (
	"errors"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	draft "github.com/fprlab/fprlab/fndsa2026"
	"github.com/fprlab/fprlab/internal/fips206"
	"github.com/fprlab/fprlab/scheme"
)

func init() { scheme.Register(Scheme) }

// Scheme is FN-DSA, July 2026 draft.
var Scheme scheme.Scheme = fnDSA2026{}

type fnDSA2026 struct{}

func (fnDSA2026) Name() string { return "fn-dsa-2026" }

func (fnDSA2026) Description() string { return "FN-DSA (2026 draft)" }

func (fnDSA2026) Source() string {
	return "FN-DSA, the draft of July 2026 as rust-fn-dsa 0.4.0 implements it, not final"
}

func (fnDSA2026) Title(logn uint) string { return fmt.Sprintf("FN-DSA-%d (2026 draft)", 1<<logn) }

// CheckLogN accepts the standard degrees, 512 and 1024.
func (fnDSA2026) CheckLogN(logn uint) error {
	if logn < draft.MinStdLogN || logn > draft.MaxLogN {
		return fmt.Errorf("scheme fn-dsa-2026 signs with degrees 512 and 1024, not %d", 1<<logn)
	}
	return nil
}

func (fnDSA2026) KeySeedSize() int { return draft.KeygenSeedSize }

// SignSeedSize is the hedged signing seed's size (scheme.SeededSigner).
func (fnDSA2026) SignSeedSize() int { return draft.SignSeedSize }

// KeyGen is the draft's integer key generation (rust-fn-dsa 0.4.0's keys
// bit for bit) as round 3's private key, the form in which campaigns
// sign with it.
func (fnDSA2026) KeyGen(logn uint, seed []byte) (*falcon.PrivateKey, error) {
	k, err := draft.KeyGen(logn, seed)
	if err != nil {
		return nil, err
	}
	return k.PrivateKey(), nil
}

// weak says whether logn is one of the research degrees, which the key
// decoders take only when asked.
func weak(logn uint) bool { return logn < draft.MinStdLogN }

func (s fnDSA2026) Sign(b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng io.Reader) ([]byte, error) {
	return scheme.SignHeld(s, b, sk, msg, rng)
}

var _ scheme.KeyHolder = fnDSA2026{}

// HoldKey decodes sk into the draft's signing key once.
func (fnDSA2026) HoldKey(sk *falcon.PrivateKey) (scheme.Signer, error) {
	k, err := draft.NewSigningKey(sk, weak(sk.LogN))
	if err != nil {
		return nil, err
	}
	return func(b arith.Backend, msg []byte, rng io.Reader) ([]byte, error) {
		sig, err := k.Sign(b, nil, fndsa.None, msg, rng)
		return sig, scheme.MarkEngine(err, draft.ErrSignAttempts)
	}, nil
}

// Verify takes pk as round 3's public key (h in coefficient form, which
// campaigns hold) and checks the draft's signature under the draft's
// encoding of that key.
func (fnDSA2026) Verify(pk *falcon.PublicKey, msg, sig []byte) error {
	vk, err := draft.VerifyingKeyOf(pk.LogN, pk.H, weak(pk.LogN))
	if err != nil {
		return err
	}
	return vk.Verify(nil, fndsa.None, msg, sig)
}

func (fnDSA2026) EncodeKeys(sk *falcon.PrivateKey) (pk, skb []byte, err error) {
	k, err := draft.NewSigningKey(sk, weak(sk.LogN))
	if err != nil {
		return nil, nil, err
	}
	return k.VerifyingKey(), k.Encode(), nil
}

var (
	_ scheme.SignatureReader = fnDSA2026{}
	_ scheme.Attempter       = fnDSA2026{}
)

// SignAttempt runs an attempt of the draft's signing (seed starts its
// attempt stream).
func (fnDSA2026) SignAttempt(b arith.Backend, sk *falcon.PrivateKey, hm []uint16, seed []byte) error {
	_, _, _, err := fips206.SignAttempt2026(b, sk.LogN, sk.SmallF, sk.SmallG, sk.BigF, sk.BigG, hm, scheme.AttemptSeed(seed, fips206.SeedSize2026))
	return err
}

// ReadSignature reads the draft's signature layout (header, nonce,
// compressed s2).
func (fnDSA2026) ReadSignature(logn uint, sig []byte) ([]byte, []int16, error) {
	if len(sig) > 0 && sig[0]&0xF0 == 0x30 && uint(sig[0]&0x0F) != logn {
		return nil, nil, fmt.Errorf("%w: degree %d, want %d", scheme.ErrOtherDegree, 1<<(sig[0]&0x0F), 1<<logn)
	}
	return draft.ReadSignature(logn, sig)
}

// DecodePublicKey reads the draft's verifying key (h in NTT form) into h
// in coefficient form.
func (fnDSA2026) DecodePublicKey(pk []byte) (*falcon.PublicKey, error) {
	if len(pk) == 0 {
		return nil, errors.New("fndsa2026: empty verifying key")
	}
	vk, err := draft.DecodeVerifyingKey(pk, weak(uint(pk[0]&0x0F)))
	if err != nil {
		return nil, err
	}
	return vk.PublicKey(), nil
}

// DecodePrivateKey reads the draft's signing key (its degree from the
// header).
func (fnDSA2026) DecodePrivateKey(sk []byte) (*falcon.PrivateKey, error) {
	if len(sk) == 0 {
		return nil, errors.New("fndsa2026: empty signing key")
	}
	k, err := draft.DecodeSigningKey(sk, weak(uint(sk[0]&0x0F)))
	if err != nil {
		return nil, err
	}
	return k.PrivateKey(), nil
}

// MaxEncodedSizes: the draft's encodings at its degrees, 4 to 1024 (its
// signing key carries the hashed verifying key besides falcon.h's).
func (fnDSA2026) MaxEncodedSizes() (pk, sk, sig int) {
	for logn := uint(2); logn <= 10; logn++ {
		pk = max(pk, draft.VerifyingKeySize(logn))
		sk = max(sk, draft.SigningKeySize(logn))
		sig = max(sig, draft.SignatureSize(logn))
	}
	return pk, sk, sig
}

func (fnDSA2026) FixedInvSigma() bool  { return true }
func (fnDSA2026) ReplaysNISTKAT() bool { return false }

func (fnDSA2026) IdleStage(st arith.PlanStage) string {
	if st == arith.PlanExpm {
		return "no floating-point work in FN-DSA signing: its ApproxExp is integer (its two truncations to fixed point are sampler operations); not tuned, its width changes nothing"
	}
	return ""
}

func (fnDSA2026) CostNote() string {
	return "floating-point work only: FN-DSA's integer ApproxExp (13 64x64-bit products per Bernoulli trial, the same for every plan) is not priced"
}
