// Package shakeprng is the SHAKE256-based pseudorandom generator that
// FN-DSA's key generation and discrete Gaussian sampler read, as the
// FN-DSA implementations of the FIPS 206 draft do (pornin's go-fn-dsa at
// commit e24833f, which replaced the round-3 ChaCha20 generator with plain
// SHAKE256 in commit 15806a2; FIPS 206 is not final).
//
// The generator is the SHAKE256 output stream of its seed, read byte by
// byte: a 16-bit or 64-bit value is the next 2 or 8 bytes, little-endian.
// Unlike the round-3 generator (internal/samplerprng), no byte is ever
// skipped, so the values depend only on the position in the stream. The
// buffer is one SHAKE256 rate block (136 bytes), which is only a matter of
// speed.
package shakeprng

import (
	"crypto/sha3"
	"encoding/binary"
)

// PRNG reads the SHAKE256 stream of a seed. The zero value is not usable:
// make one with New.
type PRNG struct {
	h   *sha3.SHAKE
	buf [136]byte
	ptr int
}

// New returns the generator of SHAKE256(seed).
func New(seed []byte) *PRNG {
	p := &PRNG{h: sha3.NewSHAKE256()}
	p.h.Write(seed)
	p.ptr = len(p.buf)
	return p
}

// Reset reseeds p with seed, as New does, reusing its state.
func (p *PRNG) Reset(seed []byte) {
	p.h.Reset()
	p.h.Write(seed)
	p.ptr = len(p.buf)
}

// Skip discards the next n bytes of the stream.
func (p *PRNG) Skip(n int) {
	for range n {
		p.U8()
	}
}

func (p *PRNG) refill() {
	p.h.Read(p.buf[:])
	p.ptr = 0
}

// U8 returns the next byte (as a uint32, the sampler's randSource
// contract).
func (p *PRNG) U8() uint32 {
	if p.ptr == len(p.buf) {
		p.refill()
	}
	b := p.buf[p.ptr]
	p.ptr++
	return uint32(b)
}

// U16 returns the next two bytes, little-endian.
func (p *PRNG) U16() uint16 {
	if p.ptr+2 > len(p.buf) {
		lo := p.U8()
		return uint16(lo | p.U8()<<8)
	}
	v := binary.LittleEndian.Uint16(p.buf[p.ptr:])
	p.ptr += 2
	return v
}

// U64 returns the next eight bytes, little-endian.
func (p *PRNG) U64() uint64 {
	if p.ptr+8 > len(p.buf) {
		var v uint64
		for i := range 8 {
			v |= uint64(p.U8()) << (8 * i)
		}
		return v
	}
	v := binary.LittleEndian.Uint64(p.buf[p.ptr:])
	p.ptr += 8
	return v
}
