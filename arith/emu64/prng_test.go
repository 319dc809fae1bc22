package emu64_test

import (
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math/bits"
	"os"
	"strconv"
	"testing"
)

// refPRNG is the reference's ChaCha20-based PRNG (rng.c), needed here only
// to regenerate the operands of the reference's floating-point block test.
// Its state is 56 bytes: a 48-byte ChaCha20 key and nonce and a 64-bit block
// counter. A refill computes eight ChaCha20 blocks, the counter XORed into
// the last two nonce words, and interleaves their words into a 512-byte
// buffer (word v of block u at word index u + 8v, as the eight-lane AVX2
// code lays them out).
type refPRNG struct {
	buf   [512]byte
	ptr   int
	state [56]byte
}

// newRefPRNG seeds the PRNG from the first 56 bytes of SHAKE256(seed), as
// the reference's prng_init does from a flipped SHAKE256 context.
func newRefPRNG(seed []byte) *refPRNG {
	h := sha3.NewSHAKE256()
	h.Write(seed)
	p := new(refPRNG)
	h.Read(p.state[:])
	p.refill()
	return p
}

var chachaConst = [4]uint32{0x61707865, 0x3320646e, 0x79622d32, 0x6b206574}

func (p *refPRNG) refill() {
	var key [12]uint32
	for i := range key {
		key[i] = binary.LittleEndian.Uint32(p.state[4*i:])
	}
	cc := binary.LittleEndian.Uint64(p.state[48:])
	for u := range 8 {
		var init [16]uint32
		copy(init[:4], chachaConst[:])
		copy(init[4:], key[:])
		init[14] ^= uint32(cc)
		init[15] ^= uint32(cc >> 32)
		s := init
		for range 10 {
			qr(&s, 0, 4, 8, 12)
			qr(&s, 1, 5, 9, 13)
			qr(&s, 2, 6, 10, 14)
			qr(&s, 3, 7, 11, 15)
			qr(&s, 0, 5, 10, 15)
			qr(&s, 1, 6, 11, 12)
			qr(&s, 2, 7, 8, 13)
			qr(&s, 3, 4, 9, 14)
		}
		for v := range 16 {
			binary.LittleEndian.PutUint32(p.buf[4*(u+8*v):], s[v]+init[v])
		}
		cc++
	}
	binary.LittleEndian.PutUint64(p.state[48:], cc)
	p.ptr = 0
}

// qr is the ChaCha20 quarter round.
func qr(s *[16]uint32, a, b, c, d int) {
	s[a] += s[b]
	s[d] = bits.RotateLeft32(s[d]^s[a], 16)
	s[c] += s[d]
	s[b] = bits.RotateLeft32(s[b]^s[c], 12)
	s[a] += s[b]
	s[d] = bits.RotateLeft32(s[d]^s[a], 8)
	s[c] += s[d]
	s[b] = bits.RotateLeft32(s[b]^s[c], 7)
}

// u64 returns the next 8 bytes little-endian. Like the reference, it
// refills when fewer than 9 bytes remain, dropping them.
func (p *refPRNG) u64() uint64 {
	if p.ptr >= len(p.buf)-9 {
		p.refill()
	}
	v := binary.LittleEndian.Uint64(p.buf[p.ptr:])
	p.ptr += 8
	return v
}

// u8 returns the next byte, refilling when the buffer is used up.
func (p *refPRNG) u8() uint64 {
	v := p.buf[p.ptr]
	p.ptr++
	if p.ptr == len(p.buf) {
		p.refill()
	}
	return uint64(v)
}

// TestRefPRNG checks the PRNG against the reference's own known answers
// (test_RNG: 128 u64 values, then 1024 bytes, seeded from SHAKE256("rng")).
func TestRefPRNG(t *testing.T) {
	raw, err := os.ReadFile("testdata/prng_kat.json")
	if err != nil {
		t.Fatal(err)
	}
	var kat struct {
		Input string   `json:"shake256_input_ascii"`
		Seed  string   `json:"prng_seed_hex"`
		U64   []string `json:"u64"`
		U8    string   `json:"u8_hex"`
	}
	if err := json.Unmarshal(raw, &kat); err != nil {
		t.Fatal(err)
	}
	var seed [56]byte
	h := sha3.NewSHAKE256()
	h.Write([]byte(kat.Input))
	h.Read(seed[:])
	if got := hex.EncodeToString(seed[:]); got != kat.Seed {
		t.Fatalf("SHAKE256(%q)[:56] = %s, want %s", kat.Input, got, kat.Seed)
	}
	p := newRefPRNG([]byte(kat.Input))
	for i, s := range kat.U64 {
		want, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.u64(); got != want {
			t.Fatalf("u64 #%d: got %#016x, want %#016x", i, got, want)
		}
	}
	u8, err := hex.DecodeString(kat.U8)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range u8 {
		if got := p.u8(); got != uint64(want) {
			t.Fatalf("u8 #%d: got %#02x, want %#02x", i, got, want)
		}
	}
}
