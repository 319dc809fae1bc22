package samplerprng

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"testing"
)

// refillDigestSeeds is the number of seeds TestRefillDigest runs.
const refillDigestSeeds = 2000

// refillSeed returns the i-th seed of TestRefillDigest: key and IV from
// SHA-256 of the index, and block counters spread over the 64-bit range,
// a quarter of them just below a multiple of 2^32 so that the eight blocks
// of a refill carry into the counter's high word (which is XORed into
// state word 15 rather than 14).
func refillSeed(i int) [SeedSize]byte {
	var seed [SeedSize]byte
	var idx [8]byte
	binary.LittleEndian.PutUint64(idx[:], uint64(i))
	h := sha256.Sum256(idx[:])
	copy(seed[:32], h[:])
	h = sha256.Sum256(h[:])
	copy(seed[32:48], h[:16])
	cc := binary.LittleEndian.Uint64(h[16:])
	if i%4 == 0 {
		cc |= 0xffffffff
		cc -= uint64(i % 8) // 0..7 blocks before the carry
	}
	binary.LittleEndian.PutUint64(seed[48:], cc)
	return seed
}

// TestRefillDigest pins the SHA-256 of 2,000 seeds' first four buffers
// (2,000 x 4 x 512 bytes). The refill that runs (the vector one in the
// GOEXPERIMENT=simd build on an AVX2 CPU) must produce the bytes of the
// portable refill -- which TestKAT ties to the reference's known answers --
// byte for byte; the digest was computed by the default build and is
// checked by both (.ci/run runs the package in both builds), and each
// buffer is also compared with refillPortable's directly, so a mismatch
// names the seed.
func TestRefillDigest(t *testing.T) {
	const want = "62686e3de59bb9a19643c08c7b552e2799af0c66cc10d0f5f4c1ccffda30c3f5"
	t.Logf("vector refill: %v", Vectorized())
	d := sha256.New()
	for i := range refillDigestSeeds {
		seed := refillSeed(i)
		var p, q PRNG
		p.Init(&seed)
		q.Init(&seed)
		q.cc -= 8
		q.refillPortable() // q's first buffer again, from the portable refill
		for r := range 4 {
			if r > 0 {
				p.refill()
				q.refillPortable()
			}
			if p.buf != q.buf || p.cc != q.cc || p.ptr != 0 {
				t.Fatalf("seed %d, buffer %d: refill and refillPortable differ (counters %d, %d)", i, r, p.cc, q.cc)
			}
			d.Write(p.buf[:])
		}
	}
	if got := hex.EncodeToString(d.Sum(nil)); got != want {
		t.Fatalf("digest of %d seeds x 4 buffers = %s, want %s", refillDigestSeeds, got, want)
	}
}

// BenchmarkRefill measures one refill (eight ChaCha20 blocks, 512 bytes)
// with the refill the build uses and with the portable one.
func BenchmarkRefill(b *testing.B) {
	seed := refillSeed(1)
	var p PRNG
	p.Init(&seed)
	b.Run("build", func(b *testing.B) {
		b.SetBytes(512)
		for b.Loop() {
			p.refill()
		}
	})
	b.Run("portable", func(b *testing.B) {
		b.SetBytes(512)
		for b.Loop() {
			p.refillPortable()
		}
	})
}
