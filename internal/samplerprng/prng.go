// Package samplerprng is the ChaCha20-based pseudorandom generator that
// Falcon's discrete Gaussian sampler reads (Falcon-impl-20211101 rng.c,
// Zf(prng_init), Zf(prng_refill), prng_get_u64, prng_get_u8).
//
// Signing draws many small random values (about 9-12 bytes per SamplerZ
// iteration), so the reference does not read SHAKE256 directly: it seeds a
// ChaCha20-based generator with 56 bytes and reads from a 512-byte buffer.
// The output order is part of what a signature depends on, so it is
// reproduced exactly, including two quirks of the reference:
//
//   - A refill computes eight ChaCha20 blocks (RFC 8439 block function,
//     counters cc..cc+7) and interleaves them word by word: 32-bit word v of
//     block u lands at word index u + 8v of the buffer. This is the order in
//     which the reference's AVX2 code, which runs the eight blocks in
//     parallel, stores them; the portable code mimics it.
//   - A 64-bit read needs at least 10 bytes left in the buffer; otherwise it
//     refills first and the 1..9 remaining bytes are skipped. (The reference
//     thus never leaves the buffer empty after a u64, which keeps its u8
//     path to a single check.)
//
// The package is internal so that the falcon package (signing) and the
// arithmetic tests (which regenerate the operands of the reference's
// floating-point test from this generator) share one implementation.
package samplerprng

import (
	"crypto/sha3"
	"encoding/binary"
	"math/bits"
)

// SeedSize is the number of seed bytes the generator takes per signing
// attempt (Zf(prng_init) extracts 56 bytes from SHAKE256): 48 bytes of
// ChaCha20 key and IV, then the initial 64-bit block counter.
const SeedSize = 56

// chachaConst are the four ChaCha20 constant words ("expand 32-byte k").
var chachaConst = [4]uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}

// PRNG is the sampler's generator. The zero value is not usable: call Init
// first (or use FromSHAKE256).
type PRNG struct {
	buf [512]byte
	ptr int
	// key holds the 48 bytes of key and IV as 12 little-endian words; the
	// last two IV words are XORed with the block counter.
	key [12]uint32
	// cc is the block counter of the next refill.
	cc uint64
}

// Init seeds the generator with the 56 bytes seed (48 bytes of key and IV
// then the initial block counter, all little-endian) and fills the buffer.
func (p *PRNG) Init(seed *[SeedSize]byte) {
	for i := range p.key {
		p.key[i] = binary.LittleEndian.Uint32(seed[4*i:])
	}
	p.cc = binary.LittleEndian.Uint64(seed[48:])
	p.refill()
}

// FromSHAKE256 returns a generator seeded with the first SeedSize bytes of
// SHAKE256(input), as the reference's prng_init does from a flipped
// SHAKE256 context (its test_falcon.c seeds its test generators this way).
func FromSHAKE256(input []byte) *PRNG {
	var seed [SeedSize]byte
	h := sha3.NewSHAKE256()
	h.Write(input)
	h.Read(seed[:])
	p := new(PRNG)
	p.Init(&seed)
	return p
}

// refill computes the next eight ChaCha20 blocks into the buffer, in the
// interleaved order described in the package comment, and rewinds the read
// position.
func (p *PRNG) refill() {
	for u := range 8 {
		var st [16]uint32
		copy(st[:4], chachaConst[:])
		copy(st[4:], p.key[:])
		st[14] ^= uint32(p.cc)
		st[15] ^= uint32(p.cc >> 32)
		in := st
		for range 10 {
			quarterRound(&st, 0, 4, 8, 12)
			quarterRound(&st, 1, 5, 9, 13)
			quarterRound(&st, 2, 6, 10, 14)
			quarterRound(&st, 3, 7, 11, 15)
			quarterRound(&st, 0, 5, 10, 15)
			quarterRound(&st, 1, 6, 11, 12)
			quarterRound(&st, 2, 7, 8, 13)
			quarterRound(&st, 3, 4, 9, 14)
		}
		for v := range 16 {
			binary.LittleEndian.PutUint32(p.buf[4*(u+8*v):], st[v]+in[v])
		}
		p.cc++
	}
	p.ptr = 0
}

// quarterRound is the ChaCha20 quarter round (RFC 8439 section 2.1) on
// words a, b, c, d of s.
func quarterRound(s *[16]uint32, a, b, c, d int) {
	s[a] += s[b]
	s[d] = bits.RotateLeft32(s[d]^s[a], 16)
	s[c] += s[d]
	s[b] = bits.RotateLeft32(s[b]^s[c], 12)
	s[a] += s[b]
	s[d] = bits.RotateLeft32(s[d]^s[a], 8)
	s[c] += s[d]
	s[b] = bits.RotateLeft32(s[b]^s[c], 7)
}

// U64 returns the next 8 bytes as a little-endian integer (prng_get_u64).
func (p *PRNG) U64() uint64 {
	u := p.ptr
	if u >= len(p.buf)-9 {
		p.refill()
		u = 0
	}
	p.ptr = u + 8
	return binary.LittleEndian.Uint64(p.buf[u:])
}

// U8 returns the next byte (prng_get_u8), refilling as soon as the buffer
// is used up.
func (p *PRNG) U8() uint32 {
	v := p.buf[p.ptr]
	p.ptr++
	if p.ptr == len(p.buf) {
		p.refill()
	}
	return uint32(v)
}
