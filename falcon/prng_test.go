package falcon

import (
	"crypto/sha3"
	"encoding/hex"
	"strconv"
	"testing"
)

// TestPRNGKAT checks the ChaCha20 sampler generator against the
// reference's test_RNG vectors: seeded with the first 56 bytes of
// SHAKE256("rng"), 128 successive u64 reads (which cross two refills and
// skip the buffer's tail each time), then 1,024 u8 reads.
func TestPRNGKAT(t *testing.T) {
	var all struct {
		PRNG struct {
			Input string   `json:"shake256_input_ascii"`
			Seed  string   `json:"prng_seed_hex"`
			U64   []string `json:"kat_rng_1_u64"`
			U8    string   `json:"kat_rng_2_u8_hex"`
		} `json:"prng"`
	}
	readJSON(t, testFalconVectorsFile, &all)
	v := all.PRNG
	if len(v.U64) != 128 {
		t.Fatalf("%d u64 values, want 128", len(v.U64))
	}
	var seed [prngSeedSize]byte
	h := sha3.NewSHAKE256()
	h.Write([]byte(v.Input))
	h.Read(seed[:])
	if got := hex.EncodeToString(seed[:]); got != v.Seed {
		t.Fatalf("seed %s, want %s", got, v.Seed)
	}
	var p prng
	p.init(&seed)
	for i, s := range v.U64 {
		want, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.u64(); got != want {
			t.Fatalf("u64 #%d = %#016x, want %#016x", i, got, want)
		}
	}
	want, err := hex.DecodeString(v.U8)
	if err != nil || len(want) != 1024 {
		t.Fatalf("bad u8 vector (%d bytes): %v", len(want), err)
	}
	for i, w := range want {
		if got := p.u8(); got != uint32(w) {
			t.Fatalf("u8 #%d = %#02x, want %#02x", i, got, w)
		}
	}
}

// TestPRNGRefillBoundary checks the two buffer rules on a fresh generator:
// u64 refills when 9 or fewer bytes remain (dropping them), and u8
// refills as soon as the last byte is read.
func TestPRNGRefillBoundary(t *testing.T) {
	var seed [prngSeedSize]byte
	for i := range seed {
		seed[i] = byte(i)
	}
	var p, q prng
	p.init(&seed)
	q.init(&seed)
	first := q.buf
	q.refill()
	second := q.buf

	p.ptr = 502 // 10 bytes left: a u64 still reads from this buffer
	if got, want := p.u64(), le64(first[502:]); got != want {
		t.Fatalf("u64 at 502 = %#x, want %#x", got, want)
	}
	if p.ptr != 510 {
		t.Fatalf("ptr %d after u64 at 502, want 510", p.ptr)
	}
	p.u8()
	if got := p.u8(); got != uint32(first[511]) || p.ptr != 0 || p.buf != second {
		t.Fatalf("u8 of the last byte: %#x, ptr %d, refilled %v", got, p.ptr, p.buf == second)
	}

	p.init(&seed)
	p.ptr = 503 // 9 bytes left: u64 refills first and skips them
	if got, want := p.u64(), le64(second[:]); got != want || p.ptr != 8 {
		t.Fatalf("u64 at 503 = %#x (ptr %d), want %#x from the next buffer", got, p.ptr, want)
	}
}

func le64(b []byte) uint64 {
	var v uint64
	for i := 7; i >= 0; i-- {
		v = v<<8 | uint64(b[i])
	}
	return v
}
