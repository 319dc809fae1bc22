package fndsa2026

import (
	"crypto/sha3"
	"errors"
	"fmt"

	"github.com/fprlab/fprlab/falcon"
)

// VerifyingKey is a decoded verifying key: h in NTT form and its digest.
type VerifyingKey struct {
	logn uint
	hNTT []uint16
	hvk  [HashedKeySize]byte
}

// DecodeVerifyingKey decodes an encoded verifying key (header 0x00+logn,
// h in NTT form on 14 bits per value) of the degree class weak selects.
func DecodeVerifyingKey(b []byte, weak bool) (*VerifyingKey, error) {
	if len(b) == 0 || b[0]&0xF0 != 0x00 {
		return nil, errors.New("fndsa2026: not a verifying key (header)")
	}
	logn := uint(b[0] & 0x0F)
	if err := checkDegree("verifying key", logn, weak); err != nil {
		return nil, err
	}
	if len(b) != VerifyingKeySize(logn) {
		return nil, fmt.Errorf("fndsa2026: verifying key of degree %d is %d bytes, want %d", 1<<logn, len(b), VerifyingKeySize(logn))
	}
	h, ok := decodeModQ(b[1:], 1<<logn)
	if !ok {
		return nil, errors.New("fndsa2026: verifying key holds a value not below q")
	}
	return &VerifyingKey{logn: logn, hNTT: h, hvk: hashKey(b)}, nil
}

// LogN returns the key's degree exponent.
func (k *VerifyingKey) LogN() uint { return k.logn }

// encodeVerifyingKey encodes h (NTT form).
func encodeVerifyingKey(logn uint, hNTT []uint16) []byte {
	return append([]byte{byte(logn)}, encodeModQ(hNTT)...)
}

// SigningKey is a decoded signing key: f, g, F and the recomputed G, the
// encoded verifying key, its digest, and the digest of the encodings of
// f and g that hedged signing mixes into its seed.
type SigningKey struct {
	sk   *falcon.PrivateKey
	vkey []byte
	hvk  [HashedKeySize]byte
	hsk  [HashedSignKeySize]byte
}

// DecodeSigningKey decodes an encoded signing key (header 0x50+logn, f
// and g on fgBits bits, F on 8 bits, then SHAKE256 of the verifying key)
// of the degree class weak selects. It recomputes h = g/f (f must be
// invertible modulo q) and G = h F, which must fit 8 bits, as
// rust-fn-dsa's decoder does; the digest it holds is taken as is, as
// theirs is.
func DecodeSigningKey(b []byte, weak bool) (*SigningKey, error) {
	if len(b) == 0 || b[0]&0xF0 != 0x50 {
		return nil, errors.New("fndsa2026: not a signing key (header)")
	}
	logn := uint(b[0] & 0x0F)
	if err := checkDegree("signing key", logn, weak); err != nil {
		return nil, err
	}
	if len(b) != SigningKeySize(logn) {
		hint := ""
		if len(b) == SigningKeySize(logn)-64 {
			hint = " (the length of a falcon.h or FN-DSA 2025 private key, without the 2026 draft's hashed verifying key: give its own --scheme)"
		}
		return nil, fmt.Errorf("fndsa2026: signing key of degree %d is %d bytes, want %d%s", 1<<logn, len(b), SigningKeySize(logn), hint)
	}
	n, nb := 1<<logn, int(fgBits(logn))
	j := 1
	f, u1, ok1 := decodeSmall(b[j:], n, nb)
	j += u1
	g, u2, ok2 := decodeSmall(b[j:], n, nb)
	j += u2
	F, u3, ok3 := decodeSmall(b[j:], n, 8)
	if !ok1 || !ok2 || !ok3 {
		return nil, errors.New("fndsa2026: signing key holds a coefficient out of range")
	}
	k, err := newSigningKey(logn, f, g, F)
	if err != nil {
		return nil, err
	}
	copy(k.hvk[:], b[j+u3:])
	return k, nil
}

// newSigningKey completes (f, g, F) of degree 2^logn: G, h, the
// encodings and digests.
func newSigningKey(logn uint, f, g, F []int8) (*SigningKey, error) {
	h, ok := publicNTT(f, g)
	if !ok {
		return nil, errors.New("fndsa2026: f is not invertible modulo q")
	}
	Fn := modQ(F)
	ntt(Fn)
	Gq := mulNTT(Fn, h)
	intt(Gq)
	G := make([]int8, len(Gq))
	for i, x := range Gq {
		v := centered(x)
		if v < -127 || v > 127 {
			return nil, errors.New("fndsa2026: G = g F / f does not fit 8 bits")
		}
		G[i] = int8(v)
	}
	vkey := encodeVerifyingKey(logn, h)
	k := &SigningKey{
		sk:   &falcon.PrivateKey{LogN: logn, SmallF: f, SmallG: g, BigF: F, BigG: G},
		vkey: vkey,
		hvk:  hashKey(vkey),
	}
	d := sha3.NewSHAKE256()
	d.Write(encodeSmall(f, int(fgBits(logn))))
	d.Write(encodeSmall(g, int(fgBits(logn))))
	d.Read(k.hsk[:])
	return k, nil
}

// NewSigningKey returns the signing key of a private key (f, g, F; G is
// recomputed), the form in which campaigns hold keys. weak selects the
// degree class as in DecodeSigningKey.
func NewSigningKey(sk *falcon.PrivateKey, weak bool) (*SigningKey, error) {
	if err := checkDegree("signing key", sk.LogN, weak); err != nil {
		return nil, err
	}
	n := 1 << sk.LogN
	if len(sk.SmallF) != n || len(sk.SmallG) != n || len(sk.BigF) != n {
		return nil, errors.New("fndsa2026: private key polynomials of the wrong size")
	}
	lim := int8(1<<(fgBits(sk.LogN)-1) - 1)
	for i := range n {
		if sk.SmallF[i] < -lim || sk.SmallF[i] > lim || sk.SmallG[i] < -lim || sk.SmallG[i] > lim || sk.BigF[i] == -128 {
			return nil, fmt.Errorf("fndsa2026: private key coefficient beyond the encoding's range (f and g within +-%d, F within +-127)", lim)
		}
	}
	return newSigningKey(sk.LogN, sk.SmallF, sk.SmallG, sk.BigF)
}

// Encode returns the signing key's encoding.
func (k *SigningKey) Encode() []byte {
	nb := int(fgBits(k.sk.LogN))
	b := []byte{0x50 + byte(k.sk.LogN)}
	b = append(b, encodeSmall(k.sk.SmallF, nb)...)
	b = append(b, encodeSmall(k.sk.SmallG, nb)...)
	b = append(b, encodeSmall(k.sk.BigF, 8)...)
	return append(b, k.hvk[:]...)
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

// VerifyingKeyOf returns the verifying key of h = g/f in coefficient form
// (round 3's public key), which campaigns hold: its NTT form, encoded as
// the draft encodes it.
func VerifyingKeyOf(logn uint, h []uint16, weak bool) (*VerifyingKey, error) {
	if err := checkDegree("verifying key", logn, weak); err != nil {
		return nil, err
	}
	if len(h) != 1<<logn {
		return nil, fmt.Errorf("fndsa2026: public key of %d coefficients for degree %d", len(h), 1<<logn)
	}
	t := make([]uint16, len(h))
	for i, x := range h {
		if x >= q {
			return nil, errors.New("fndsa2026: public key holds a value not below q")
		}
		t[i] = x
	}
	ntt(t)
	return DecodeVerifyingKey(encodeVerifyingKey(logn, t), weak)
}

// PublicKey returns h in coefficient form, as round 3's public key: the
// inverse NTT of the stored form (the lattice's key, which key recovery
// from a pair of signatures works with).
func (k *VerifyingKey) PublicKey() *falcon.PublicKey {
	h := append([]uint16(nil), k.hNTT...)
	intt(h)
	return &falcon.PublicKey{LogN: k.logn, H: h}
}
