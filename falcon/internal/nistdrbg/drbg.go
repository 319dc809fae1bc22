// Package nistdrbg is the deterministic random bit generator of the NIST
// post-quantum KAT generator (rng.c of the NIST PQC submission kit): an
// AES-256 CTR_DRBG without derivation function, prediction resistance or
// reseeding, as in NIST SP 800-90A section 10.2.1.
//
// It exists to reproduce the NIST known-answer files byte for byte: the
// .req file's per-record seeds come from a DRBG seeded with the bytes
// 0..47, and each record's key pair and signature draw their randomness
// from a DRBG seeded with the record's seed. It is not a general-purpose
// random source: its outputs are fully determined by the seed.
package nistdrbg

import (
	"crypto/aes"
	"crypto/cipher"
)

// SeedSize is the length of the entropy input (the AES-256 key plus the
// 128-bit counter block).
const SeedSize = 48

// DRBG is the generator state: the AES-256 key and the counter block V.
type DRBG struct {
	key   [32]byte
	v     [16]byte
	block cipher.Block
}

// New returns a generator instantiated with the 48-byte entropy input and
// no personalisation string (randombytes_init(entropy, NULL, 256)).
func New(seed *[SeedSize]byte) *DRBG {
	d := new(DRBG)
	d.setKey()
	d.update(seed[:])
	return d
}

// setKey prepares the block cipher for the current key.
func (d *DRBG) setKey() {
	b, err := aes.NewCipher(d.key[:])
	if err != nil {
		// A 32-byte key is always valid for AES-256.
		panic("nistdrbg: " + err.Error())
	}
	d.block = b
}

// incV increments the counter block V as a 128-bit big-endian integer.
func (d *DRBG) incV() {
	for j := 15; j >= 0; j-- {
		d.v[j]++
		if d.v[j] != 0 {
			return
		}
	}
}

// update is CTR_DRBG_Update: three counter blocks of keystream, XORed
// with the provided data when there is some, become the new key and V.
func (d *DRBG) update(provided []byte) {
	var temp [48]byte
	for i := range 3 {
		d.incV()
		d.block.Encrypt(temp[16*i:], d.v[:])
	}
	for i, b := range provided {
		temp[i] ^= b
	}
	copy(d.key[:], temp[:32])
	copy(d.v[:], temp[32:])
	d.setKey()
}

// Generate fills out with the next output bytes (randombytes). Each call
// ends with a state update, so the output depends on how requests are
// split: reading 48 bytes at once differs from reading 16 bytes three
// times. Callers reproducing a KAT must request exactly the lengths the
// reference requests.
func (d *DRBG) Generate(out []byte) {
	var block [16]byte
	for len(out) > 0 {
		d.incV()
		d.block.Encrypt(block[:], d.v[:])
		out = out[copy(out, block[:]):]
	}
	d.update(nil)
}
