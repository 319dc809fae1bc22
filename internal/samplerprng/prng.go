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

// refillPortable computes the next eight ChaCha20 blocks into the buffer,
// in the interleaved order described in the package comment, advances the
// block counter by eight and rewinds the read position. It is the refill of
// the default build, and the reference the vector refill of the
// GOEXPERIMENT=simd build is tested against (refill_simd_amd64.go).
//
// The state lives in sixteen local variables and the quarter round is a
// function of four words, so that the compiler inlines it and keeps the
// state in registers (RFC 8439, section 2.3: ten double rounds of column
// then diagonal quarter rounds, then the input added back).
func (p *PRNG) refillPortable() {
	k := &p.key
	for u := range 8 {
		x0, x1, x2, x3 := chachaConst[0], chachaConst[1], chachaConst[2], chachaConst[3]
		x4, x5, x6, x7 := k[0], k[1], k[2], k[3]
		x8, x9, x10, x11 := k[4], k[5], k[6], k[7]
		x12, x13 := k[8], k[9]
		x14, x15 := k[10]^uint32(p.cc), k[11]^uint32(p.cc>>32)
		in14, in15 := x14, x15
		for range 10 {
			x0, x4, x8, x12 = quarterRound(x0, x4, x8, x12)
			x1, x5, x9, x13 = quarterRound(x1, x5, x9, x13)
			x2, x6, x10, x14 = quarterRound(x2, x6, x10, x14)
			x3, x7, x11, x15 = quarterRound(x3, x7, x11, x15)
			x0, x5, x10, x15 = quarterRound(x0, x5, x10, x15)
			x1, x6, x11, x12 = quarterRound(x1, x6, x11, x12)
			x2, x7, x8, x13 = quarterRound(x2, x7, x8, x13)
			x3, x4, x9, x14 = quarterRound(x3, x4, x9, x14)
		}
		// Word v of block u goes to byte 4*(u + 8v).
		b := p.buf[4*u:]
		put := func(v int, w uint32) { binary.LittleEndian.PutUint32(b[32*v:], w) }
		put(0, x0+chachaConst[0])
		put(1, x1+chachaConst[1])
		put(2, x2+chachaConst[2])
		put(3, x3+chachaConst[3])
		put(4, x4+k[0])
		put(5, x5+k[1])
		put(6, x6+k[2])
		put(7, x7+k[3])
		put(8, x8+k[4])
		put(9, x9+k[5])
		put(10, x10+k[6])
		put(11, x11+k[7])
		put(12, x12+k[8])
		put(13, x13+k[9])
		put(14, x14+in14)
		put(15, x15+in15)
		p.cc++
	}
	p.ptr = 0
}

// quarterRound is the ChaCha20 quarter round (RFC 8439, section 2.1).
func quarterRound(a, b, c, d uint32) (uint32, uint32, uint32, uint32) {
	a += b
	d = bits.RotateLeft32(d^a, 16)
	c += d
	b = bits.RotateLeft32(b^c, 12)
	a += b
	d = bits.RotateLeft32(d^a, 8)
	c += d
	b = bits.RotateLeft32(b^c, 7)
	return a, b, c, d
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
