package fndsa2026

import (
	"errors"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/fndsa"
	draft "github.com/fprlab/fprlab/fndsa2026"
	"github.com/fprlab/fprlab/scheme"
)

// The 2026 profile signs with a context and a pre-hash (sign and verify's
// --context and --prehash), its keys and signatures in the draft's
// encodings; its pre-hash identifiers are the 2025 profile's.
var _ scheme.ContextSigner = fnDSA2026{}

func (fnDSA2026) MaxContext() int { return draft.MaxContext }

func (fnDSA2026) PreHash(name string) (string, int, error) {
	ph, err := fndsa.ParsePreHash(name)
	if err != nil {
		return "", 0, err
	}
	return ph.String(), ph.DigestSize(), nil
}

// weakKey says whether an encoded key's header names a research degree.
func weakKey(b []byte) bool { return len(b) > 0 && weak(uint(b[0]&0x0F)) }

func (fnDSA2026) SignContext(b arith.Backend, sk, ctx []byte, preHash string, msg []byte, rng io.Reader) ([]byte, uint, error) {
	ph, err := fndsa.ParsePreHash(preHash)
	if err != nil {
		return nil, 0, err
	}
	k, err := draft.DecodeSigningKey(sk, weakKey(sk))
	if err != nil {
		return nil, 0, err
	}
	sig, err := k.Sign(b, ctx, ph, msg, rng)
	return sig, k.LogN(), scheme.MarkEngine(err, draft.ErrSignAttempts)
}

// VerifyContext: the draft's Verify checks the length and header of its
// one signature format before decoding, so every malformed signature is
// an invalid one.
func (fnDSA2026) VerifyContext(pk, ctx []byte, preHash string, msg, sig []byte) (uint, error) {
	ph, err := fndsa.ParsePreHash(preHash)
	if err != nil {
		return 0, err
	}
	vk, err := draft.DecodeVerifyingKey(pk, weakKey(pk))
	if err != nil {
		return 0, err
	}
	err = vk.Verify(ctx, ph, msg, sig)
	if errors.Is(err, draft.ErrInvalidSignature) {
		err = scheme.MarkInvalid(err)
	}
	return vk.LogN(), err
}
