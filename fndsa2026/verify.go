package fndsa2026

import (
	"errors"
	"fmt"
)

// ErrInvalidSignature is wrapped by every error of Verify for a signature
// that is not valid: malformed, of another size or degree, or too long a
// vector.
var ErrInvalidSignature = errors.New("fndsa2026: invalid signature")

// Verify checks sig, a signature of data under context ctx with pre-hash
// identifier ph. It returns nil for a valid signature, an error wrapping
// ErrInvalidSignature for one that is not, and another error for a
// context longer than MaxContext or an unknown ph.
func (k *VerifyingKey) Verify(ctx []byte, ph PreHash, data, sig []byte) error {
	mu, err := Mu(&k.hvk, ctx, ph, data)
	if err != nil {
		return err
	}
	return k.VerifyMu(&mu, sig)
}

// VerifyMu checks sig on a computed mu (rust-fn-dsa's HASH_ID_EXTMU):
// header 0x30+logn, exactly SignatureSize bytes, a canonical compressed
// s2, every coefficient of s1 = c - s2 h within BInf and
// ||(s1, s2)||^2 within round 3's bound.
func (k *VerifyingKey) VerifyMu(mu *[MuSize]byte, sig []byte) error {
	logn := k.logn
	nonce, s2, err := readSignature(logn, sig)
	if err != nil {
		return err
	}
	c := HashToPoint(logn, nonce, mu)
	t := modQ16(s2)
	ntt(t)
	t = mulNTT(t, k.hNTT)
	intt(t)
	var norm uint64
	for i := range c {
		s1 := centered(uint16((uint32(c[i]) + q - uint32(t[i])) % q))
		if s1 < -BInf || s1 > BInf {
			return fmt.Errorf("%w: a coefficient of s1 exceeds %d", ErrInvalidSignature, BInf)
		}
		norm += uint64(s1*s1) + uint64(int32(s2[i])*int32(s2[i]))
	}
	if norm > uint64(sqBeta(logn)) {
		return fmt.Errorf("%w: ||(s1, s2)||^2 exceeds the bound", ErrInvalidSignature)
	}
	return nil
}

// Verify decodes vkey (a standard degree) and reports whether sig is a
// valid signature of (ctx, ph, data) under it; any failure, including an
// undecodable key, is false.
func Verify(vkey, ctx []byte, ph PreHash, data, sig []byte) bool {
	return verifyBool(vkey, false, ctx, ph, data, sig)
}

// VerifyWeak is Verify for the weak research degrees 4 to 256.
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

// ReadSignature returns the nonce and s2 of sig, a signature of degree
// 2^logn, after the checks of its layout that VerifyMu makes (size,
// header, canonical s2); it verifies nothing.
func ReadSignature(logn uint, sig []byte) (nonce []byte, s2 []int16, err error) {
	if err := checkDegree("signature", logn, logn < MinStdLogN); err != nil {
		return nil, nil, err
	}
	nonce, s2, err = readSignature(logn, sig)
	if err != nil {
		return nil, nil, err
	}
	return append([]byte(nil), nonce...), s2, nil
}

// readSignature checks sig's layout for degree 2^logn (size, header,
// canonical s2) and returns its nonce (a slice of sig) and s2.
func readSignature(logn uint, sig []byte) (nonce []byte, s2 []int16, err error) {
	if size := SignatureSize(logn); len(sig) != size {
		return nil, nil, fmt.Errorf("%w: %d bytes, want %d for degree %d", ErrInvalidSignature, len(sig), size, 1<<logn)
	}
	if want := byte(0x30 + logn); sig[0] != want {
		return nil, nil, fmt.Errorf("%w: header byte 0x%02x, want 0x%02x", ErrInvalidSignature, sig[0], want)
	}
	s2, ok := decodeS2(sig[1+NonceSize:], 1<<logn)
	if !ok {
		return nil, nil, fmt.Errorf("%w: s2 is not a canonical compressed encoding", ErrInvalidSignature)
	}
	return sig[1 : 1+NonceSize], s2, nil
}
