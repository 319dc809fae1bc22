package falcon

import (
	"errors"
	"fmt"
	"slices"
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
	vk, err := NewVerifyingKey(pk)
	if err != nil {
		return err
	}
	return vk.Verify(msg, sig)
}

// VerifyingKey is a public key prepared for verification: h in NTT form,
// so that each verification transforms only s2. Verify with it does not
// allocate (except to report an error). It is safe for concurrent use.
type VerifyingKey struct {
	logn uint
	hNTT []uint16
}

// NewVerifyingKey prepares pk for Verify; it fails when pk is unusable.
func NewVerifyingKey(pk *PublicKey) (*VerifyingKey, error) {
	if err := pk.Check(); err != nil {
		return nil, err
	}
	h := slices.Clone(pk.H)
	mqNTT(h, pk.LogN)
	return &VerifyingKey{logn: pk.LogN, hNTT: h}, nil
}

// Verify checks the falcon.h signature sig (any of the three formats) of
// msg, as the function Verify does with the key vk was made from.
func (vk *VerifyingKey) Verify(msg, sig []byte) error {
	var s2buf [1024]int16
	s, err := parseSignature(sig, &s2buf)
	if err != nil {
		return err
	}
	if s.LogN != vk.logn {
		return fmt.Errorf("%w: signature is for degree %d, public key for degree %d", ErrInvalidSignature, 1<<s.LogN, 1<<vk.logn)
	}
	var hmbuf [1024]uint16
	hm := hmbuf[:len(s.S2)]
	if s.Format == CT {
		// The reference hashes in constant time for the ct format; the
		// result is the same point.
		hashToPointCTInto(hm, s.Nonce, msg, s.LogN)
	} else {
		hashToPointInto(hm, s.Nonce, msg)
	}
	if !isShortS2(vk.hNTT, hm, s.S2, vk.logn) {
		return fmt.Errorf("%w: ||(s1, s2)||^2 exceeds the bound %d", ErrInvalidSignature, mustParams(vk.logn).L2Bound)
	}
	return nil
}

// VerifyHashed is the core check (the reference's verify_raw): it computes
// s1 = hm - s2 h mod (q, X^n + 1), centres its coefficients into
// -6144..6144, and reports whether ||(s1, s2)||^2 <= Params.L2Bound. It
// returns false when pk is unusable, hm or s2 does not have n coefficients,
// or a coefficient of hm is not below q.
func VerifyHashed(pk *PublicKey, hm []uint16, s2 []int16) bool {
	vk, err := NewVerifyingKey(pk)
	if err != nil {
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
	return isShortS2(vk.hNTT, hm, s2, pk.LogN)
}

// isShortS2 computes s1 = hm - s2 h (exactS1, h in NTT form) and reports
// whether (s1, s2) is short; hm and s2 have n coefficients.
func isShortS2(hNTT, hm []uint16, s2 []int16, logn uint) bool {
	var s1buf [1024]int16
	s1 := s1buf[:len(s2)]
	exactS1(s1, hm, s2, hNTT, logn)
	return IsShort(s1, s2, logn)
}

// IsShort reports whether ||(s1, s2)||^2 <= Params.L2Bound for degree
// 2^logn. Like the reference's is_short, it sums in 32 bits and saturates:
// once a partial sum reaches 2^31 the result counts as too large, so no
// wrap-around can make a long vector look short. It returns false for
// slices of the wrong length or a logn outside 1..10.
func IsShort(s1, s2 []int16, logn uint) bool {
	p, err := params(logn)
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
	p, err := params(logn)
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

// exactS1 replaces s1, the floating-point signer's s1, with
// hm - s2 h mod (q, X^n + 1) with centred coefficients, h given in NTT
// form: what VerifyHashed computes, so that a signer using it never
// returns a signature that does not verify. It returns the number of
// coefficients that changed. It does not allocate.
func exactS1(s1 []int16, hm []uint16, s2 []int16, hNTT []uint16, logn uint) int {
	var buf [1024]uint16
	t := buf[:len(s2)]
	for i, v := range s2 {
		t[i] = mqFromInt16(v)
	}
	mqNTT(t, logn)
	mqPolyMulNTT(t, hNTT)
	mqINTT(t, logn)
	changed := 0
	for i, v := range t {
		e := mqCentre(uint16(mqSub(mqElem(hm[i]), mqElem(v))))
		if e != s1[i] {
			changed++
			s1[i] = e
		}
	}
	return changed
}

// mqFromInt16 maps any int16 to 0..q-1 (its residue modulo q).
func mqFromInt16(v int16) uint16 {
	r := int32(v) % Q
	if r < 0 {
		r += Q
	}
	return uint16(r)
}
