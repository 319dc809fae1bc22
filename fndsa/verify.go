package fndsa

import (
	"errors"
	"fmt"

	"github.com/fprlab/fprlab/falcon"
)

// ErrInvalidSignature is wrapped by every error of Verify for a signature
// that is not a valid FN-DSA signature of the data under the key:
// malformed, of another size or degree, or too long a vector.
var ErrInvalidSignature = errors.New("fndsa: invalid signature")

// Verify checks sig, an FN-DSA signature of data under context ctx with
// pre-hash identifier ph (None: data is the message itself). It returns
// nil for a valid signature, an error wrapping ErrInvalidSignature for a
// signature that is not, and another error for a context longer than
// MaxContext or an unknown ph (go-fn-dsa rejects those signatures too).
//
// A signature must have header 0x30+logn with the key's logn, exactly
// SignatureSize bytes, a canonical compressed s2 followed by zero bytes,
// and ||(s1, s2)||^2 within round 3's bound, with s1 = c - s2 h for the
// point c of HashToPoint.
func (k *VerifyingKey) Verify(ctx []byte, ph PreHash, data, sig []byte) error {
	if _, err := hashInput(&k.hvk, ctx, ph, nil); err != nil {
		return err
	}
	logn := k.pk.LogN
	size, _ := SignatureSize(logn)
	if len(sig) != size {
		return fmt.Errorf("%w: %d bytes, want %d for degree %d", ErrInvalidSignature, len(sig), size, 1<<logn)
	}
	if want := byte(0x30 + logn); sig[0] != want {
		return fmt.Errorf("%w: header byte 0x%02x, want 0x%02x", ErrInvalidSignature, sig[0], want)
	}
	s, err := falcon.DecodeSignature(sig)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidSignature, err)
	}
	if s.Format != falcon.Padded || s.LogN != logn {
		// Unreachable after the size and header checks; kept so that a
		// change of the decoder cannot let another format through.
		return fmt.Errorf("%w: not the padded format of degree %d", ErrInvalidSignature, 1<<logn)
	}
	hm, err := hashToPoint(logn, s.Nonce, &k.hvk, ctx, ph, data)
	if err != nil {
		return err
	}
	if !falcon.VerifyHashed(k.pk, hm, s.S2) {
		return fmt.Errorf("%w: ||(s1, s2)||^2 exceeds the bound", ErrInvalidSignature)
	}
	return nil
}

// Verify decodes vkey (a standard degree) and reports whether sig is a
// valid signature of (ctx, ph, data) under it, as go-fn-dsa's Verify does:
// any failure, including an undecodable key, is false.
func Verify(vkey, ctx []byte, ph PreHash, data, sig []byte) bool {
	return verifyBool(vkey, false, ctx, ph, data, sig)
}

// VerifyWeak is Verify for the weak research degrees 4 to 256
// (go-fn-dsa's VerifyWeak).
func VerifyWeak(vkey, ctx []byte, ph PreHash, data, sig []byte) bool {
	return verifyBool(vkey, true, ctx, ph, data, sig)
}

func verifyBool(vkey []byte, weak bool, ctx []byte, ph PreHash, data, sig []byte) bool {
	k, err := DecodeVerifyingKey(vkey, weak)
	if err != nil {
		return false
	}
	return k.Verify(ctx, ph, data, sig) == nil
}
