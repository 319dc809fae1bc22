package falcon

import (
	"compress/gzip"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"math"
	"math/big"
	"os"
	"strconv"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// readJSON decodes a testdata file, gunzipping it if its name ends in .gz.
func readJSON(t testing.TB, name string, v any) {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var dec *json.Decoder
	if len(name) > 3 && name[len(name)-3:] == ".gz" {
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer zr.Close()
		dec = json.NewDecoder(zr)
	} else {
		dec = json.NewDecoder(f)
	}
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

func parseBits(t testing.TB, s string) float64 {
	t.Helper()
	u, err := strconv.ParseUint(s, 0, 64)
	if err != nil {
		t.Fatalf("bad bit pattern %q: %v", s, err)
	}
	return math.Float64frombits(u)
}

// katBytes replays the random bytes of a falcon.py SamplerZ vector to a
// sampler structured like Falcon-impl (vectors README, section 1): the
// 9-byte base-sampler chunk o[0..8] is delivered as a u64 equal to
// big-endian o[1..8] followed by the byte o[0]; every other byte is
// delivered as it is. The base sampler always reads its u8 right after
// its u64, which is what makes this rearrangement exact.
type katBytes struct {
	b       []byte
	pos     int
	pending int // byte to return on the next u8, or -1
	t       testing.TB
}

func (k *katBytes) take(n int) []byte {
	if k.pos+n > len(k.b) {
		k.t.Fatalf("sampler read past the %d vector bytes", len(k.b))
	}
	s := k.b[k.pos : k.pos+n]
	k.pos += n
	return s
}

func (k *katBytes) U64() uint64 {
	if k.pending >= 0 {
		k.t.Fatal("u64 read while a base-sampler byte is pending")
	}
	o := k.take(9)
	k.pending = int(o[0])
	return binary.BigEndian.Uint64(o[1:])
}

func (k *katBytes) U8() uint32 {
	if k.pending >= 0 {
		v := k.pending
		k.pending = -1
		return uint32(v)
	}
	return uint32(k.take(1)[0])
}

// samplerTester runs SamplerZ over a backend from float64 inputs.
type samplerTester interface {
	// samplerZ samples with centre mu and inverse deviation isigma for
	// degree 2^logn; a non-zero sigmin replaces the degree's sigma_min.
	samplerZ(src randSource, logn uint, mu, isigma, sigmin float64) int64
}

func (e *engineOf[F, A]) samplerZ(src randSource, logn uint, mu, isigma, sigmin float64) int64 {
	s := newSampler(e.a, src, logn, nil)
	if sigmin != 0 {
		s.sigmaMin = e.a.FromFloat64(sigmin)
	}
	return s.sample(e.a.FromFloat64(mu), e.a.FromFloat64(isigma))
}

type samplerVector struct {
	Index       int    `json:"index"`
	MuBits      string `json:"mu_bits"`
	IsigmaBits  string `json:"isigma_bits"`
	SigminBits  string `json:"sigmin_bits"`
	RandomBytes string `json:"randombytes"`
	Len         int    `json:"randombytes_len"`
	Z           int64  `json:"z"`
}

// TestSamplerZKAT runs all 3,072 falcon.py SamplerZ vectors (1,024 for
// Falcon-512, 2,048 for Falcon-1024): each must return z and consume
// exactly its random bytes. Every vector runs twice, with the degree's
// sigma_min constant (as signing does) and with the vector's own sigmin.
func TestSamplerZKAT(t *testing.T) {
	files := []struct {
		name  string
		logn  uint
		count int
	}{
		{"samplerz_512.json.gz", 9, 1024},
		{"samplerz_1024.json.gz", 10, 2048},
	}
	runOnBackends(t, fpBackends, func(t *testing.T, b arith.Backend) {
		st := engineFor(t, b).(samplerTester)
		total := 0
		for _, f := range files {
			var vs []samplerVector
			readJSON(t, f.name, &vs)
			if len(vs) != f.count {
				t.Fatalf("%s: %d vectors, want %d", f.name, len(vs), f.count)
			}
			for _, v := range vs {
				rb, err := hex.DecodeString(v.RandomBytes)
				if err != nil || len(rb) != v.Len {
					t.Fatalf("%s #%d: bad randombytes", f.name, v.Index)
				}
				mu, isigma := parseBits(t, v.MuBits), parseBits(t, v.IsigmaBits)
				for _, sigmin := range []float64{0, parseBits(t, v.SigminBits)} {
					src := &katBytes{b: rb, pending: -1, t: t}
					z := st.samplerZ(src, f.logn, mu, isigma, sigmin)
					if z != v.Z {
						t.Fatalf("%s #%d (sigmin %v): z = %d, want %d", f.name, v.Index, sigmin, z, v.Z)
					}
					if src.pos != len(rb) || src.pending >= 0 {
						t.Fatalf("%s #%d (sigmin %v): consumed %d of %d bytes", f.name, v.Index, sigmin, src.pos, len(rb))
					}
				}
				total++
			}
		}
		if total != 3072 {
			t.Fatalf("ran %d vectors, want 3072", total)
		}
	})
}

// TestGaussian0Table checks the base sampler's table against the RCDT
// derived from the reference's distribution table (testdata), and the
// base sampler at both ends of every output's range, as the reference's
// test_gaussian0_sampler does.
func TestGaussian0Table(t *testing.T) {
	var all struct {
		D struct {
			Dist []string `json:"dist_decimal"`
			RCDT []string `json:"rcdt_derived_decimal"`
		} `json:"gaussian0_dist"`
	}
	readJSON(t, testFalconVectorsFile, &all)
	d := all.D
	if len(d.RCDT) != len(rcdt) || len(d.Dist) != len(rcdt)+1 {
		t.Fatalf("table sizes %d/%d", len(d.RCDT), len(d.Dist))
	}
	limbs := func(w [3]uint32) *big.Int {
		v := new(big.Int).SetUint64(uint64(w[0]))
		v.Lsh(v, 24).Add(v, big.NewInt(int64(w[1])))
		return v.Lsh(v, 24).Add(v, big.NewInt(int64(w[2])))
	}
	dec := func(s string) *big.Int {
		v, ok := new(big.Int).SetString(s, 10)
		if !ok {
			t.Fatalf("bad decimal %q", s)
		}
		return v
	}
	for k := range rcdt {
		if limbs(rcdt[k]).Cmp(dec(d.RCDT[k])) != 0 {
			t.Errorf("rcdt[%d] = %v, want %s", k, limbs(rcdt[k]), d.RCDT[k])
		}
	}
	// u = 0 gives 18; the values t .. t+dist[i]-1 give i, where t is the
	// sum of dist[j] for j > i.
	sample := func(u *big.Int) int {
		var b [9]byte
		u.FillBytes(b[:])
		return gaussian0(binary.BigEndian.Uint64(b[1:]), uint32(b[0]))
	}
	if z := sample(big.NewInt(0)); z != 18 {
		t.Fatalf("u = 0: z0 = %d, want 18", z)
	}
	tot := new(big.Int)
	one := big.NewInt(1)
	for i := 18; i >= 0; i-- {
		lo := new(big.Int).Set(tot)
		tot.Add(tot, dec(d.Dist[i]))
		hi := new(big.Int).Sub(tot, one)
		for _, u := range []*big.Int{lo, hi} {
			if z := sample(u); z != i {
				t.Errorf("u = %v: z0 = %d, want %d", u, z, i)
			}
		}
	}
	if tot.Cmp(new(big.Int).Lsh(one, 72)) != 0 {
		t.Errorf("distribution sums to %v, want 2^72", tot)
	}
}
