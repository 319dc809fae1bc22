package fndsa

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"sync"
	"testing"

	"github.com/fprlab/fprlab/falcon"
)

// testdata/gofndsa/candidates.json.gz (see the README): for every
// key-generation seed of vectors.json.gz, the (f, g) candidates go-fn-dsa
// draws, in order, and which test rejected each one ("norm", "invertible",
// "ortho", "ntru"; "ok" for the one that became the key).

type goCandidate struct {
	FG      string `json:"fg_sha256"`
	Verdict string `json:"verdict"`
	OrthoSN *int64 `json:"ortho_sn"` // go-fn-dsa's orthogonalized squared norm, when it computed one
}

type goCandidateSeed struct {
	LogN  uint          `json:"logn"`
	Seed  string        `json:"seed"`
	Cands []goCandidate `json:"cands"`
}

type goCandidates struct {
	KAT       []goCandidateSeed `json:"kat"`
	KeygenRef []goCandidateSeed `json:"keygen_ref"`
}

var loadCandidates = sync.OnceValues(func() (*goCandidates, error) {
	var c goCandidates
	return &c, readGzipJSON("testdata/gofndsa/candidates.json.gz", &c)
})

// TestGoFNDSACandidates: from every seed, key generation here (its loop,
// solveFromSeed) draws go-fn-dsa's candidates (f, g) byte for byte, and
// the norm, invertibility and orthogonalized-norm tests and NTRUSolve
// reject exactly the candidates go-fn-dsa's reject, so that the same one
// is accepted ("ok"); for a KAT seed it is the f, g of go-fn-dsa's signing
// key. Where go-fn-dsa computed the orthogonalized squared norm (fixed
// point), the value here is the same to the last bit. In -short mode only
// the first 12 keygen_ref seeds of each degree are replayed (with the 90
// KAT seeds, that still includes NTRUSolve rejections at degrees 4, 8,
// 128, 256, 512 and 1024).
func TestGoFNDSACandidates(t *testing.T) {
	c, err := loadCandidates()
	if err != nil {
		t.Fatal(err)
	}
	v := vectors(t)
	if len(c.KAT) != len(v.KAT) || len(c.KeygenRef) != len(v.KeygenRef) {
		t.Fatalf("%d/%d candidate seeds for %d/%d vectors", len(c.KAT), len(c.KeygenRef), len(v.KAT), len(v.KeygenRef))
	}
	counts := map[string]int{}
	check := func(name string, s goCandidateSeed, skey string) {
		seed := unhex(t, s.Seed)
		k := 0
		f, g, _, _, err := solveFromSeed(s.LogN, seed, func(f, g []int8, verdict string) {
			if k >= len(s.Cands) {
				t.Fatalf("%s: candidate %d %q, go-fn-dsa stopped at %d", name, k, verdict, len(s.Cands))
			}
			want := s.Cands[k]
			fg := append(int8Bytes(f), int8Bytes(g)...)
			if h := sha256.Sum256(fg); hex.EncodeToString(h[:]) != want.FG {
				t.Fatalf("%s candidate %d: (f, g) digest %x, want %s", name, k, h, want.FG)
			}
			if want.OrthoSN != nil {
				if sn := int64(orthoNormSq(s.LogN, f, g)); sn != *want.OrthoSN {
					t.Fatalf("%s candidate %d: orthogonalized squared norm %d, go-fn-dsa %d", name, k, sn, *want.OrthoSN)
				}
				counts["ortho_sn"]++
			}
			if verdict != want.Verdict {
				t.Fatalf("%s candidate %d: verdict %q, go-fn-dsa %q", name, k, verdict, want.Verdict)
			}
			counts[verdict]++
			k++
		})
		if err != nil {
			t.Fatal(err)
		}
		if k != len(s.Cands) {
			t.Fatalf("%s: %d candidates, go-fn-dsa %d", name, k, len(s.Cands))
		}
		if skey == "" {
			return
		}
		sk, err := falcon.DecodePrivateKey(unhex(t, skey))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(int8Bytes(sk.SmallF), int8Bytes(f)) || !bytes.Equal(int8Bytes(sk.SmallG), int8Bytes(g)) {
			t.Fatalf("%s: accepted candidate is not the key's (f, g)", name)
		}
	}
	for i, s := range c.KAT {
		if s.Seed != v.KAT[i].KgenSeed || s.LogN != v.KAT[i].LogN {
			t.Fatalf("kat %d: candidate seed %s/%d, vector %s/%d", i, s.Seed, s.LogN, v.KAT[i].KgenSeed, v.KAT[i].LogN)
		}
		check("kat "+s.Seed, s, v.KAT[i].SKey)
	}
	perDegree := map[uint]int{}
	for i, s := range c.KeygenRef {
		perDegree[s.LogN]++
		if testing.Short() && perDegree[s.LogN] > keygenRefShort {
			continue
		}
		if s.Seed != v.KeygenRef[i].Seed || s.LogN != v.KeygenRef[i].LogN {
			t.Fatalf("keygen_ref %d: candidate seed %s, vector %s", i, s.Seed, v.KeygenRef[i].Seed)
		}
		check("keygen_ref "+s.Seed, s, v.KeygenRef[i].SKey)
	}
	// Every test must have rejected something, or the comparison says
	// little about it.
	for _, k := range []string{"norm", "invertible", "ortho", "ntru", "ok", "ortho_sn"} {
		if counts[k] == 0 {
			t.Errorf("no candidate with verdict %q", k)
		}
	}
	t.Logf("candidates by go-fn-dsa verdict: %v", counts)
}

func int8Bytes(v []int8) []byte {
	b := make([]byte, len(v))
	for i, x := range v {
		b[i] = byte(x)
	}
	return b
}
