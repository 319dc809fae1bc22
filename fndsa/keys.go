package fndsa

import (
	"errors"
	"fmt"

	"github.com/fprlab/fprlab/falcon"
)

// Degrees. FN-DSA standardises n = 512 and 1024 (logn 9 and 10); go-fn-dsa
// also runs the insecure degrees 4 to 256 (logn 2 to 8) for research, on
// separate entry points so that no caller gets them by accident. Here the
// key decoders take the choice: weak = false accepts only the standard
// degrees, weak = true only the weak ones.
const (
	MinLogN     = 2
	MinStdLogN  = 9
	MaxLogN     = 10
	NonceSize   = falcon.NonceSize
	SeedSize    = 40 // the caller's randomness for one signature
	maxAttempts = 256
)

// checkDegree reports whether logn is in the class weak selects.
func checkDegree(what string, logn uint, weak bool) error {
	switch {
	case !weak && (logn < MinStdLogN || logn > MaxLogN):
		return fmt.Errorf("fndsa: %s has degree %d, not a standard FN-DSA degree (512 or 1024; weak degrees need the weak entry points)", what, 1<<logn)
	case weak && (logn < MinLogN || logn >= MinStdLogN):
		return fmt.Errorf("fndsa: %s has degree %d, not a weak research degree (4 to 256)", what, 1<<logn)
	}
	return nil
}

// SignatureSize returns the size of every FN-DSA signature of degree
// 2^logn (falcon.h's padded size: 666 bytes for 512, 1280 for 1024).
func SignatureSize(logn uint) (int, error) {
	p, err := falcon.ParamsFor(logn)
	if err != nil {
		return 0, err
	}
	return p.SigPaddedSize, nil
}

// VerifyingKey is a decoded FN-DSA verifying (public) key with the digest
// hash-to-point absorbs.
type VerifyingKey struct {
	pk  *falcon.PublicKey
	vk  *falcon.VerifyingKey
	hvk [HashedKeySize]byte
}

// DecodeVerifyingKey decodes an encoded verifying key (header 0x00+logn,
// 14 bits per coefficient of h, falcon.h's public-key encoding) of the
// degree class weak selects (see checkDegree).
func DecodeVerifyingKey(b []byte, weak bool) (*VerifyingKey, error) {
	pk, err := falcon.DecodePublicKey(b)
	if err != nil {
		return nil, keyFormat("verifying key", err)
	}
	if err := checkDegree("verifying key", pk.LogN, weak); err != nil {
		return nil, err
	}
	vk, err := falcon.NewVerifyingKey(pk)
	if err != nil {
		return nil, err
	}
	return &VerifyingKey{pk: pk, vk: vk, hvk: hashKey(b)}, nil
}

// LogN returns the key's degree exponent.
func (k *VerifyingKey) LogN() uint { return k.pk.LogN }

// SigningKey is a decoded FN-DSA signing (private) key: f, g, F (and G
// recomputed), with the encoding of its verifying key.
type SigningKey struct {
	sk   *falcon.PrivateKey
	vkey []byte
	hvk  [HashedKeySize]byte
}

// DecodeSigningKey decodes an encoded signing key (header 0x50+logn, the
// trim encodings of f, g and F, falcon.h's private-key encoding) of the
// degree class weak selects. It recomputes G (which must fit 8 bits) and
// the verifying key h = g/f mod q (f must be invertible), as go-fn-dsa's
// signer does before every signature.
func DecodeSigningKey(b []byte, weak bool) (*SigningKey, error) {
	sk, err := falcon.DecodePrivateKey(b)
	if err != nil {
		return nil, keyFormat("signing key", err)
	}
	if err := checkDegree("signing key", sk.LogN, weak); err != nil {
		return nil, err
	}
	h, err := falcon.ComputePublic(sk.SmallF, sk.SmallG, sk.LogN)
	if err != nil {
		return nil, err
	}
	vkey := (&falcon.PublicKey{LogN: sk.LogN, H: h}).Encode()
	return &SigningKey{sk: sk, vkey: vkey, hvk: hashKey(vkey)}, nil
}

// LogN returns the key's degree exponent.
func (k *SigningKey) LogN() uint { return k.sk.LogN }

// VerifyingKey returns the encoding of the key's verifying key.
func (k *SigningKey) VerifyingKey() []byte { return append([]byte(nil), k.vkey...) }

// PrivateKey returns the key as round 3's private key (a copy).
func (k *SigningKey) PrivateKey() *falcon.PrivateKey {
	c := *k.sk
	return &c
}

// NewSigningKey returns the FN-DSA signing key of a round-3 private key
// (the two schemes share the key encoding): the measurement campaigns hold
// their keys, FN-DSA's (KeyGen) or round 3's (falcon.Keygen, their
// --key-source falcon), in that form. weak selects the degree class as in
// DecodeSigningKey.
func NewSigningKey(sk *falcon.PrivateKey, weak bool) (*SigningKey, error) {
	if err := sk.Check(); err != nil {
		return nil, err
	}
	return DecodeSigningKey(sk.Encode(), weak)
}

// keyFormatError is a key encoding error of round 3's decoder, which FN-DSA
// shares, told in FN-DSA's words (its keys are "verifying" and "signing"
// keys); it still wraps falcon.ErrMalformed.
type keyFormatError struct {
	what string
	fe   *falcon.FormatError
}

func (e *keyFormatError) Error() string { return "fndsa: malformed " + e.what + ": " + e.fe.Reason }
func (e *keyFormatError) Unwrap() error { return e.fe }

// keyFormat names err, an error of decoding a key, as FN-DSA's what.
func keyFormat(what string, err error) error {
	var fe *falcon.FormatError
	if errors.As(err, &fe) {
		return &keyFormatError{what: what, fe: fe}
	}
	return err
}
