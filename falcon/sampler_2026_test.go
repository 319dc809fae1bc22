package falcon

import (
	"bufio"
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/shakeprng"
)

// sampler2026Tester samples a sequence over a backend with the July 2026
// draft's sampler (its base sampler and FN-DSA's ApproxExp) from one
// SHAKE256 stream, as one signing attempt does.
type sampler2026Tester interface {
	samplerZ2026(src randSource, logn uint, mu, isigma []float64) []int64
}

func (e *engineOf[F, A]) samplerZ2026(src randSource, logn uint, mu, isigma []float64) []int64 {
	s := newSampler(e.a, src, logn, nil)
	s.setProfile(fnDSA2026Profile)
	z := make([]int64, len(mu))
	for i := range mu {
		z[i] = s.sample(e.a.FromFloat64(mu[i]), e.a.FromFloat64(isigma[i]))
	}
	return z
}

// TestSamplerKAT2026 reproduces rust-fn-dsa 0.4.0's sampler test
// (fn-dsa-sign/src/sampler.rs, test sampler; testdata/samplerz_2026_512.txt
// holds its vectors): from the 41-byte seed of a signing attempt at degree
// 512, the SHAKE256 stream gives the 40-byte nonce, then 1,024 samples,
// each from its centre and inverse deviation. Every backend that signs the
// draft's KAT byte for byte must give all 1,024 integers; the extended
// ones (triword, dd) take the same binary64 inputs exactly and decide
// the same acceptances on them.
func TestSamplerKAT2026(t *testing.T) {
	raw, err := os.ReadFile("testdata/samplerz_2026_512.txt")
	if err != nil {
		t.Fatal(err)
	}
	var seed, nonce []byte
	var mu, isigma []float64
	var want []int64
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
			continue
		case len(f) == 2 && f[0] == "seed":
			seed, err = hex.DecodeString(f[1])
		case len(f) == 2 && f[0] == "nonce":
			nonce, err = hex.DecodeString(f[1])
		case len(f) == 3:
			var m, s uint64
			var z int64
			if m, err = strconv.ParseUint(f[0], 16, 64); err == nil {
				if s, err = strconv.ParseUint(f[1], 16, 64); err == nil {
					z, err = strconv.ParseInt(f[2], 10, 64)
				}
			}
			mu, isigma, want = append(mu, math.Float64frombits(m)), append(isigma, math.Float64frombits(s)), append(want, z)
		default:
			t.Fatalf("samplerz_2026_512.txt:%d: malformed line", line)
		}
		if err != nil {
			t.Fatalf("samplerz_2026_512.txt:%d: %v", line, err)
		}
	}
	if len(seed) != 41 || len(nonce) != NonceSize || len(want) != 1024 {
		t.Fatalf("seed %d bytes, nonce %d bytes, %d samples; want 41, %d, 1024", len(seed), len(nonce), len(want), NonceSize)
	}
	var got [NonceSize]byte
	sh := sha3.NewSHAKE256()
	sh.Write(seed)
	sh.Read(got[:])
	if !bytes.Equal(got[:], nonce) {
		t.Fatalf("nonce %x, want %x", got, nonce)
	}
	runOnBackends(t, []string{"native", "emu64", "triword", "dd"}, func(t *testing.T, b arith.Backend) {
		p := shakeprng.New(seed)
		p.Skip(NonceSize)
		z := engineFor(t, b).(sampler2026Tester).samplerZ2026(p, 9, mu, isigma)
		for i := range z {
			if z[i] != want[i] {
				t.Fatalf("sample %d (mu %v, isigma %v): %d, want %d", i, mu[i], isigma[i], z[i], want[i])
			}
		}
	})
}
