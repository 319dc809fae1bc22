package falcon

import (
	"encoding/binary"
	"fmt"
)

// The round-3 NIST API (nist.c of the submission, the layout of the KAT
// files) bundles message and signature into one "signed message":
//
//	sm = siglen (2 bytes, big-endian) || nonce (40) || msg || esig
//	esig = 0x20+logn || compressed s2,  siglen = len(esig)
//
// This is not any falcon.h format: the header differs, the nonce is
// separated from s2 by the message, and there is no padding.

// nistCryptoBytes is CRYPTO_BYTES of the round-3 api.h, the largest
// signed-message overhead (2 + 40 + esig) crypto_sign accepts; it bounds
// the compressed s2 the signer may emit.
var nistCryptoBytes = map[uint]int{9: 690, 10: 1330}

// nistMaxCompressed is the largest compressed s2 (without header) that
// crypto_sign emits for degree 2^logn. Only Falcon-512 and Falcon-1024 have
// a NIST parameter set; for the other degrees the bound is the falcon.h
// compressed maximum.
func nistMaxCompressed(p *Params) int {
	if cb, ok := nistCryptoBytes[p.LogN]; ok {
		return cb - 2 - NonceSize - 1
	}
	return p.SigCompressedMaxSize - 1 - NonceSize
}

// EncodeSM builds the round-3 NIST signed message for (nonce, msg, s2).
// It fails when the nonce is not 40 bytes, s2 does not have n coefficients
// or does not compress, or the compressed s2 exceeds what crypto_sign's
// buffer holds (the reference then fails to sign; it has no retry loop).
func EncodeSM(logn uint, nonce, msg []byte, s2 []int16) ([]byte, error) {
	p, err := checkNonceS2(logn, nonce, s2)
	if err != nil {
		return nil, err
	}
	comp, err := compEncode(s2)
	if err != nil {
		return nil, err
	}
	if limit := nistMaxCompressed(p); len(comp) > limit {
		return nil, fmt.Errorf("falcon: compressed s2 is %d bytes, more than the %d the NIST signed-message format allows for n = %d", len(comp), limit, p.N)
	}
	sigLen := 1 + len(comp)
	sm := make([]byte, 0, 2+NonceSize+len(msg)+sigLen)
	sm = binary.BigEndian.AppendUint16(sm, uint16(sigLen))
	sm = append(sm, nonce...)
	sm = append(sm, msg...)
	sm = append(sm, headerNISTSig+byte(logn))
	sm = append(sm, comp...)
	return sm, nil
}

// OpenSM is crypto_sign_open: it splits sm, checks the signature under pk
// and returns a copy of the message. Layout errors (too short, siglen
// larger than what follows the nonce, wrong header, a compressed s2 that is
// non-canonical or does not fill siglen-1 bytes exactly) wrap ErrMalformed;
// a well-formed signature that does not verify wraps ErrInvalidSignature.
func OpenSM(pk *PublicKey, sm []byte) ([]byte, error) {
	const what = "signed message"
	if err := pk.Check(); err != nil {
		return nil, err
	}
	if len(sm) < 2+NonceSize {
		return nil, malformed(what, "%d bytes, shorter than the %d-byte length and nonce", len(sm), 2+NonceSize)
	}
	sigLen := int(binary.BigEndian.Uint16(sm))
	rest := len(sm) - 2 - NonceSize
	if sigLen > rest {
		return nil, malformed(what, "signature length field %d exceeds the %d bytes after the nonce", sigLen, rest)
	}
	if sigLen < 1 {
		return nil, malformed(what, "signature length field is 0")
	}
	nonce := sm[2 : 2+NonceSize]
	msg := sm[2+NonceSize : len(sm)-sigLen]
	esig := sm[len(sm)-sigLen:]
	if esig[0] != headerNISTSig+byte(pk.LogN) {
		return nil, malformed(what, "signature header byte 0x%02x, want 0x%02x", esig[0], headerNISTSig+byte(pk.LogN))
	}
	s2, used, err := compDecode(what, esig[1:], 1<<pk.LogN)
	if err != nil {
		return nil, err
	}
	if used != sigLen-1 {
		return nil, malformed(what, "compressed s2 uses %d of the %d signature bytes", 1+used, sigLen)
	}
	if !VerifyHashed(pk, HashToPoint(nonce, msg, pk.LogN), s2) {
		return nil, fmt.Errorf("%w: ||(s1, s2)||^2 exceeds the bound %d", ErrInvalidSignature, mustParams(pk.LogN).L2Bound)
	}
	return append([]byte(nil), msg...), nil
}
