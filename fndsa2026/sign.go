package fndsa2026

import (
	"crypto/sha3"
	"errors"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/fips206"
)

// ErrSignAttempts is returned when none of the MaxAttempts attempts gave
// a signature. rust-fn-dsa reports the same failure; for a sound backend
// it has probability far below 2^-100.
var ErrSignAttempts = errors.New("fndsa2026: no signature within the draft's 27 attempts")

// Sign signs (ctx, ph, data) over backend b, reading the signature's
// SignSeedSize bytes of randomness from rng (rust-fn-dsa's sign). For a
// real key rng must be crypto/rand.Reader.
func (k *SigningKey) Sign(b arith.Backend, ctx []byte, ph PreHash, data []byte, rng io.Reader) ([]byte, error) {
	if rng == nil {
		return nil, errors.New("fndsa2026: nil random source")
	}
	var seed [SignSeedSize]byte
	if _, err := io.ReadFull(rng, seed[:]); err != nil {
		return nil, fmt.Errorf("fndsa2026: reading the signing seed: %w", err)
	}
	mu, err := Mu(&k.hvk, ctx, ph, data)
	if err != nil {
		return nil, err
	}
	return k.SignMu(b, &mu, seed[:])
}

// SignMu signs a computed mu with the 40-byte seed rnd: the hedged seed
// is SHAKE256(hsk || mu || rnd)[:40]; attempt k reads the SHAKE256 stream
// of the hedged seed || k, its first 40 bytes the nonce and the rest the
// sampler's (falcon's engine through fips206.SignAttempt2026). The first
// attempt whose (s1, s2) is short, with every coefficient within BInf,
// and whose s2 fits the signature is the signature.
func (k *SigningKey) SignMu(b arith.Backend, mu *[MuSize]byte, rnd []byte) ([]byte, error) {
	if len(rnd) != SignSeedSize {
		return nil, fmt.Errorf("fndsa2026: signing seed is %d bytes, want %d", len(rnd), SignSeedSize)
	}
	return k.signHedged(b, mu, k.HedgedSeed(mu, rnd))
}

// HedgedSeed is the seed the draft signs mu with: SHAKE256(hsk || mu ||
// rnd), its first SignSeedSize bytes, so that a signature depends on the
// key and the message even when rnd is not random. Attempt i's nonce is
// the first NonceSize bytes of SHAKE256(HedgedSeed || i).
func (k *SigningKey) HedgedSeed(mu *[MuSize]byte, rnd []byte) (seed [SignSeedSize]byte) {
	h := sha3.NewSHAKE256()
	h.Write(k.hsk[:])
	h.Write(mu[:])
	h.Write(rnd)
	h.Read(seed[:])
	return seed
}

// signHedged is SignMu after the hedged seed is derived: the attempts.
func (k *SigningKey) signHedged(b arith.Backend, mu *[MuSize]byte, hedged [SignSeedSize]byte) ([]byte, error) {
	var seed [fips206.SeedSize2026]byte
	copy(seed[:], hedged[:])
	h := sha3.NewSHAKE256()
	logn := k.sk.LogN
	sig := make([]byte, SignatureSize(logn))
	for attempt := range MaxAttempts {
		seed[SignSeedSize] = byte(attempt)
		h.Reset()
		h.Write(seed[:])
		nonce := sig[1 : 1+NonceSize]
		h.Read(nonce)
		hm := HashToPoint(logn, nonce, mu)
		s1, s2, short, err := fips206.SignAttempt2026(b, logn, k.sk.SmallF, k.sk.SmallG, k.sk.BigF, k.sk.BigG, hm, seed[:])
		if err != nil {
			return nil, err
		}
		if !short || !withinBInf(s1) {
			continue
		}
		if encodeS2(s2, sig[1+NonceSize:]) {
			sig[0] = 0x30 + byte(logn)
			return sig, nil
		}
	}
	return nil, ErrSignAttempts
}

// withinBInf reports whether every coefficient of s lies within +-BInf.
func withinBInf(s []int16) bool {
	for _, x := range s {
		if x < -BInf || x > BInf {
			return false
		}
	}
	return true
}
