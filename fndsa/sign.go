package fndsa

import (
	"crypto/sha3"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/fips206"
)

// ErrSignAttempts is returned when no attempt produced a short, encodable
// vector within the bound on attempts (a backend without enough
// precision). go-fn-dsa has no bound; for a sound backend an attempt
// fails with probability well below 1/2, so the bound is never reached.
var ErrSignAttempts = errors.New("fndsa: no short signature after the maximum number of attempts")

// Sign signs (ctx, ph, data) over backend b, reading the signature's
// SeedSize bytes of randomness from rng (go-fn-dsa's Sign). For a real key
// rng must be crypto/rand.Reader: signing the same key, seed and message on
// two backends, which differ in floating-point details by design, can
// reveal the key (Lin, Tibouchi, Yu, Zhang, "Do Not Disturb a Sleeping
// Falcon", Eurocrypt 2025).
func (k *SigningKey) Sign(b arith.Backend, ctx []byte, ph PreHash, data []byte, rng io.Reader) ([]byte, error) {
	if rng == nil {
		return nil, errors.New("fndsa: nil random source")
	}
	var seed [SeedSize]byte
	if _, err := io.ReadFull(rng, seed[:]); err != nil {
		return nil, fmt.Errorf("fndsa: reading the signing seed: %w", err)
	}
	return k.SignSeeded(b, ctx, ph, data, seed[:])
}

// SignSeeded signs with an explicit seed of any length (go-fn-dsa's seeded
// signer, which its test vectors call with short seeds). Attempt
// k = 0, 1, ... reads SHAKE256(seed || k as 32-bit little-endian) as a
// 40-byte nonce and a 56-byte sampler seed, hashes the data with that
// nonce, and runs FN-DSA's signing attempt (fips206.SignAttempt, falcon's engine); the first attempt whose
// (s1, s2) is short and whose s2 fits the padded encoding is the
// signature.
func (k *SigningKey) SignSeeded(b arith.Backend, ctx []byte, ph PreHash, data, seed []byte) ([]byte, error) {
	m, err := hashInput(&k.hvk, ctx, ph, data)
	if err != nil {
		return nil, err
	}
	logn := k.sk.LogN
	var nonce [NonceSize]byte
	var sub [fips206.SeedSize]byte
	var ctr [4]byte
	h := sha3.NewSHAKE256()
	for attempt := range maxAttempts {
		h.Reset()
		h.Write(seed)
		binary.LittleEndian.PutUint32(ctr[:], uint32(attempt))
		h.Write(ctr[:])
		h.Read(nonce[:])
		h.Read(sub[:])
		hm := falcon.HashToPoint(nonce[:], m, logn)
		s2, short, err := fips206.SignAttempt(b, logn, k.sk.SmallF, k.sk.SmallG, k.sk.BigF, k.sk.BigG, hm, sub[:])
		if err != nil {
			return nil, err
		}
		if !short {
			continue
		}
		sig, err := falcon.EncodeSignature(falcon.Padded, logn, nonce[:], s2)
		if err != nil {
			// s2 does not fit the padded size (or a coefficient is out
			// of the compressed range): the next attempt, with a new
			// nonce.
			continue
		}
		return sig, nil
	}
	return nil, ErrSignAttempts
}
