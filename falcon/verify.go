package falcon

import (
	"errors"
	"fmt"
)

// Verification (Falcon spec v1.2, Algorithm 16): with c = HashToPoint(r, m)
// and the decoded s2, compute s1 = c - s2 h mod (q, X^n + 1) with centred
// coefficients and accept when ||(s1, s2)||^2 <= floor(beta^2). Integer
// arithmetic only.

// ErrInvalidSignature is wrapped by Verify and OpenSM errors for a
// well-formed signature that does not verify under the key (including a
// signature for another degree than the key's).
var ErrInvalidSignature = errors.New("falcon: invalid signature")

// Verify checks the falcon.h signature sig (any of the three formats) of msg
// under pk. It returns nil when the signature is valid, an error wrapping
// ErrInvalidSignature when it is well formed but does not verify, and
// another error (wrapping ErrMalformed for encodings) when pk or sig cannot
// be used at all.
func Verify(pk *PublicKey, msg, sig []byte) error {
	if err := pk.Check(); err != nil {
		return err
	}
	s, err := DecodeSignature(sig)
	if err != nil {
		return err
	}
	if s.LogN != pk.LogN {
		return fmt.Errorf("%w: signature is for degree %d, public key for degree %d", ErrInvalidSignature, 1<<s.LogN, 1<<pk.LogN)
	}
	var hm []uint16
	if s.Format == CT {
		// The reference hashes in constant time for the ct format; the
		// result is the same point.
		hm = hashToPointCT(s.Nonce, msg, s.LogN)
	} else {
		hm = HashToPoint(s.Nonce, msg, s.LogN)
	}
	if !VerifyHashed(pk, hm, s.S2) {
		return fmt.Errorf("%w: ||(s1, s2)||^2 exceeds the bound %d", ErrInvalidSignature, mustParams(pk.LogN).L2Bound)
	}
	return nil
}

// VerifyHashed is the core check (the reference's verify_raw): it computes
// s1 = hm - s2 h mod (q, X^n + 1), centres its coefficients into
// -6144..6144, and reports whether ||(s1, s2)||^2 <= Params.L2Bound. It
// returns false when pk is unusable, hm or s2 does not have n coefficients,
// or a coefficient of hm is not below q.
func VerifyHashed(pk *PublicKey, hm []uint16, s2 []int16) bool {
	if pk.Check() != nil {
		return false
	}
	n := 1 << pk.LogN
	if len(hm) != n || len(s2) != n {
		return false
	}
	for _, v := range hm {
		if v >= Q {
			return false
		}
	}
	s1 := make([]int16, n)
	for i, v := range mqMulPoly(s2, pk.H, pk.LogN) {
		// v = s2 h; hm - v is s1 mod q.
		s1[i] = mqCentre(uint16(mqSub(mqElem(hm[i]), mqElem(v))))
	}
	return IsShort(s1, s2, pk.LogN)
}

// mqMulPoly returns s h mod (q, X^n + 1) for a signed s of any int16 values
// and h in 0..q-1.
func mqMulPoly(s []int16, h []uint16, logn uint) []uint16 {
	t := make([]uint16, len(s))
	for i, v := range s {
		r := int32(v) % Q
		if r < 0 {
			r += Q
		}
		t[i] = uint16(r)
	}
	th := append([]uint16(nil), h...)
	mqNTT(t, logn)
	mqNTT(th, logn)
	mqPolyMulNTT(t, th)
	mqINTT(t, logn)
	return t
}

// IsShort reports whether ||(s1, s2)||^2 <= Params.L2Bound for degree
// 2^logn. Like the reference's is_short, it sums in 32 bits and saturates:
// once a partial sum reaches 2^31 the result counts as too large, so no
// wrap-around can make a long vector look short. It returns false for
// slices of the wrong length or a logn outside 1..10.
func IsShort(s1, s2 []int16, logn uint) bool {
	p, err := ParamsFor(logn)
	if err != nil || len(s1) != p.N || len(s2) != p.N {
		return false
	}
	var s, ng uint32
	for i := range s1 {
		z := int32(s1[i])
		s += uint32(z * z)
		ng |= s
		z = int32(s2[i])
		s += uint32(z * z)
		ng |= s
	}
	s |= -(ng >> 31)
	return s <= p.L2Bound
}

// IsShortHalf is IsShort for a signer that already holds sqn = ||s1||^2
// (itself saturated to at least 2^31 on overflow, as the reference's
// signer does): it adds ||s2||^2 with the same saturation and compares
// with Params.L2Bound.
func IsShortHalf(sqn uint32, s2 []int16, logn uint) bool {
	p, err := ParamsFor(logn)
	if err != nil || len(s2) != p.N {
		return false
	}
	ng := -(sqn >> 31)
	for _, v := range s2 {
		z := int32(v)
		sqn += uint32(z * z)
		ng |= sqn
	}
	sqn |= -(ng >> 31)
	return sqn <= p.L2Bound
}

// publicNTT returns the public key h = g/f mod q of sk in NTT form.
func publicNTT(sk *PrivateKey) ([]uint16, error) {
	h, err := ComputePublic(sk.SmallF, sk.SmallG, sk.LogN)
	if err != nil {
		return nil, err
	}
	mqNTT(h, sk.LogN)
	return h, nil
}

// exactS1 sets s1 = hm - s2 h mod (q, X^n + 1) with centred coefficients,
// h given in NTT form: what VerifyHashed computes, so that a signer using
// it never returns a signature that does not verify.
func exactS1(s1 []int16, hm []uint16, s2 []int16, hNTT []uint16, logn uint) {
	t := make([]uint16, len(s2))
	for i, v := range s2 {
		r := int32(v) % Q
		if r < 0 {
			r += Q
		}
		t[i] = uint16(r)
	}
	mqNTT(t, logn)
	mqPolyMulNTT(t, hNTT)
	mqINTT(t, logn)
	for i, v := range t {
		s1[i] = mqCentre(uint16(mqSub(mqElem(hm[i]), mqElem(v))))
	}
}
