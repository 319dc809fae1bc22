package samplerprng

import (
	"bytes"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"testing"
)

// TestKAT checks the generator against the reference's own known answers
// (Falcon-impl-20211101 test_falcon.c, test_RNG: KAT_RNG_1 and KAT_RNG_2):
// seeded with the first 56 bytes of SHAKE256("rng"), 128 successive u64
// reads (which cross two refills and skip the buffer's tail each time),
// then 1,024 u8 reads. testdata/prng_kat.json is the only copy of these
// vectors in the repository.
func TestKAT(t *testing.T) {
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
	if len(kat.U64) != 128 {
		t.Fatalf("%d u64 values, want 128", len(kat.U64))
	}
	var seed [SeedSize]byte
	h := sha3.NewSHAKE256()
	h.Write([]byte(kat.Input))
	h.Read(seed[:])
	if got := hex.EncodeToString(seed[:]); got != kat.Seed {
		t.Fatalf("SHAKE256(%q)[:56] = %s, want %s", kat.Input, got, kat.Seed)
	}
	p := FromSHAKE256([]byte(kat.Input))
	for i, s := range kat.U64 {
		want, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.U64(); got != want {
			t.Fatalf("u64 #%d = %#016x, want %#016x", i, got, want)
		}
	}
	want, err := hex.DecodeString(kat.U8)
	if err != nil || len(want) != 1024 {
		t.Fatalf("bad u8 vector (%d bytes): %v", len(want), err)
	}
	for i, w := range want {
		if got := p.U8(); got != uint32(w) {
			t.Fatalf("u8 #%d = %#02x, want %#02x", i, got, w)
		}
	}
}

// TestChaCha20Block checks that the block function is ChaCha20: with the
// key and nonce of RFC 8439 section 2.3.2 (block counter 1 in word 12, the
// 96-bit nonce in words 13-15, so the generator's own counter, XORed into
// words 14 and 15, starts at 0), block 0 of a refill is the RFC's
// serialized block, read from the buffer at word stride 8.
func TestChaCha20Block(t *testing.T) {
	var seed [SeedSize]byte
	for i := range 32 {
		seed[i] = byte(i)
	}
	binary.LittleEndian.PutUint32(seed[32:], 1)
	copy(seed[36:48], []byte{0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0})
	var p PRNG
	p.Init(&seed)
	want, _ := hex.DecodeString("10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e" +
		"d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e")
	var got []byte
	for v := range 16 {
		got = append(got, p.buf[4*8*v:4*8*v+4]...)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("block 0 = %x\nwant RFC 8439 2.3.2 %x", got, want)
	}
}

// TestRefillBoundary checks the two buffer rules on a fresh generator: U64
// refills when 9 or fewer bytes remain (dropping them), and U8 refills as
// soon as the last byte is read.
func TestRefillBoundary(t *testing.T) {
	var seed [SeedSize]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	var p, q PRNG
	p.Init(&seed)
	q.Init(&seed)
	first := q.buf
	q.refill()
	second := q.buf

	p.ptr = 502 // 10 bytes left: a u64 still reads from this buffer
	if got, want := p.U64(), binary.LittleEndian.Uint64(first[502:]); got != want {
		t.Fatalf("u64 at 502 = %#x, want %#x", got, want)
	}
	if p.ptr != 510 {
		t.Fatalf("ptr %d after u64 at 502, want 510", p.ptr)
	}
	p.U8()
	if got := p.U8(); got != uint32(first[511]) || p.ptr != 0 || p.buf != second {
		t.Fatalf("u8 of the last byte: %#x, ptr %d, refilled %v", got, p.ptr, p.buf == second)
	}

	p.Init(&seed)
	p.ptr = 503 // 9 bytes left: u64 refills first and skips them
	if got, want := p.U64(), binary.LittleEndian.Uint64(second[:]); got != want || p.ptr != 8 {
		t.Fatalf("u64 at 503 = %#x (ptr %d), want %#x from the next buffer", got, p.ptr, want)
	}
}
