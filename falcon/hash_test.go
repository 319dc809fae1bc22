package falcon

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHashSHAKE256Vectors checks crypto/sha3's SHAKE256, used through
// Write then Read, against the three vectors of test_falcon.c.
func TestHashSHAKE256Vectors(t *testing.T) {
	for i, v := range loadTestFalconVectors(t).SHAKE256 {
		in := vrfyHex(t, v.InputHex)
		want := vrfyHex(t, v.OutputHex)
		if len(in) != v.InputLen || len(want) != v.OutputLen {
			t.Fatalf("vector %d: lengths %d/%d", i, len(in), len(want))
		}
		h := sha3.NewSHAKE256()
		// Absorb in two pieces and squeeze in two, as HashToPoint does.
		h.Write(in[:len(in)/2])
		h.Write(in[len(in)/2:])
		got := make([]byte, len(want))
		h.Read(got[:len(got)/3])
		h.Read(got[len(got)/3:])
		if !bytes.Equal(got, want) {
			t.Errorf("vector %d: SHAKE256 output differs", i)
		}
	}
}

// TestHashToPointRule checks HashToPoint against a direct model of the
// specification on the SHAKE256 stream: 16-bit big-endian words, those below
// 61445 kept and reduced mod q.
func TestHashToPointRule(t *testing.T) {
	nonce := []byte("fixed nonce for the rule test..........!")
	msg := []byte("message")
	for logn := uint(1); logn <= 10; logn++ {
		n := 1 << logn
		h := sha3.NewSHAKE256()
		h.Write(nonce)
		h.Write(msg)
		var want []uint16
		var rejected int
		for len(want) < n {
			var b [2]byte
			h.Read(b[:])
			w := int(b[0])*256 + int(b[1])
			if w >= 61445 {
				rejected++
				continue
			}
			want = append(want, uint16(w%12289))
		}
		got := HashToPoint(nonce, msg, logn)
		if !slices.Equal(got, want) {
			t.Fatalf("logn %d: HashToPoint differs from the model", logn)
		}
		if logn == 10 && rejected == 0 {
			t.Error("no rejected word in 1024 samples; the test does not cover rejection")
		}
	}
	if HashToPoint(nonce, msg, 0) != nil || hashToPointCT(nonce, msg, 11) != nil {
		t.Error("logn outside 1..10 accepted")
	}
}

// TestHashToPointCTAgrees: the constant-time variant returns the same point
// as HashToPoint on random nonces and messages for every degree.
func TestHashToPointCTAgrees(t *testing.T) {
	trials := 300
	if testing.Short() {
		trials = 30
	}
	rng := rand.New(rand.NewPCG(1, 2))
	maxRejected := 0
	for logn := uint(1); logn <= 10; logn++ {
		for trial := range trials {
			nonce := make([]byte, NonceSize)
			for i := range nonce {
				nonce[i] = byte(rng.Uint32())
			}
			msg := make([]byte, rng.IntN(100))
			for i := range msg {
				msg[i] = byte(rng.Uint32())
			}
			want := HashToPoint(nonce, msg, logn)
			got := hashToPointCT(nonce, msg, logn)
			if !slices.Equal(got, want) {
				t.Fatalf("logn %d trial %d: hashToPointCT differs", logn, trial)
			}
			if len(got) != 1<<logn || cap(got) != 1<<logn {
				t.Fatalf("logn %d: len %d cap %d", logn, len(got), cap(got))
			}
			// Count rejections in the stream to report coverage.
			h := sha3.NewSHAKE256()
			h.Write(nonce)
			h.Write(msg)
			buf := make([]byte, 2*((1<<logn)+hashOversample[logn]))
			h.Read(buf)
			r := 0
			for i := 0; i < len(buf); i += 2 {
				if int(buf[i])<<8|int(buf[i+1]) >= hashRejectBound {
					r++
				}
			}
			maxRejected = max(maxRejected, r)
		}
	}
	t.Logf("%d inputs per degree; at most %d rejected words among the squeezed ones", trials, maxRejected)
}

// BenchmarkHashToPoint512 compares the two variants at n = 512.
func BenchmarkHashToPoint512(b *testing.B) {
	nonce := make([]byte, NonceSize)
	msg := []byte("benchmark message")
	b.Run("vartime", func(b *testing.B) {
		for b.Loop() {
			HashToPoint(nonce, msg, 9)
		}
	})
	b.Run("ct", func(b *testing.B) {
		for b.Loop() {
			hashToPointCT(nonce, msg, 9)
		}
	})
}

// TestCTSelectPointPatterns drives the constant-time selection with crafted
// word streams whose rejected words sit where random streams rarely put
// them: all at the front, all at the back, alternating, in runs, and the
// maximum number (every spare word rejected). The result must equal a plain
// filter of the stream.
func TestCTSelectPointPatterns(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for logn := uint(1); logn <= 10; logn++ {
		n := 1 << logn
		over := hashOversample[logn]
		m := n + over
		patterns := map[string]func(i int) bool{ // reports "reject word i"
			"none":        func(i int) bool { return false },
			"front":       func(i int) bool { return i < over },
			"back":        func(i int) bool { return i >= n },
			"alternating": func(i int) bool { return i%2 == 1 && i < 2*over },
			"runs":        func(i int) bool { return i%16 < 5 && i < over*16/5 },
			"middle":      func(i int) bool { return i >= n/2 && i < n/2+over },
		}
		for trial := range 20 {
			positions := rng.Perm(m)[:rng.IntN(over+1)]
			patterns[fmt.Sprintf("random%d", trial)] = func(i int) bool { return slices.Contains(positions, i) }
		}
		for name, reject := range patterns {
			buf := make([]byte, 2*m)
			var want []uint16
			rejected := 0 // at most over words can be rejected
			for i := range m {
				var w int
				if reject(i) && rejected < over {
					rejected++
					w = hashRejectBound + rng.IntN(65536-hashRejectBound)
				} else {
					w = rng.IntN(hashRejectBound)
					if i%7 == 0 {
						w = []int{0, Q - 1, Q, 2*Q - 1, 2 * Q, 4 * Q, hashRejectBound - 1}[i%7]
					}
					want = append(want, uint16(w%Q))
				}
				buf[2*i], buf[2*i+1] = byte(w>>8), byte(w)
			}
			if len(want) < n {
				t.Fatalf("logn %d %s: pattern rejects too many words", logn, name)
			}
			if got := ctSelectPoint(buf, n); !slices.Equal(got, want[:n]) {
				t.Fatalf("logn %d pattern %s: selection differs from the filter", logn, name)
			}
		}
	}
}

// TestHashToPointDigest hashes 1,000 points (100 per degree) into one
// SHA-256 digest. The expected digest comes from an independent Python
// model (hashlib's SHAKE256, the same rejection rule): for logn = 1..10 and
// i = 0..99, nonce = SHAKE256("nonce" || logn || i)[:40] and
// msg = bytes 0..i-1; each coefficient enters the digest as 2 bytes,
// big-endian.
func TestHashToPointDigest(t *testing.T) {
	acc := sha256.New()
	for logn := uint(1); logn <= 10; logn++ {
		for i := range 100 {
			h := sha3.NewSHAKE256()
			h.Write([]byte{'n', 'o', 'n', 'c', 'e', byte(logn), byte(i)})
			nonce := make([]byte, NonceSize)
			h.Read(nonce)
			msg := make([]byte, i)
			for j := range msg {
				msg[j] = byte(j)
			}
			for _, v := range HashToPoint(nonce, msg, logn) {
				acc.Write([]byte{byte(v >> 8), byte(v)})
			}
		}
	}
	const want = "eadb7eea03f01a4ed441b1429697115c9a29e8d8d063dd0a40f8fe4c88abe97e"
	if got := hex.EncodeToString(acc.Sum(nil)); got != want {
		t.Fatalf("digest %s, want %s", got, want)
	}
}
