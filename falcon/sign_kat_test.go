package falcon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// signKATVector is one entry of sign_kat_padded.json (falcon.py
// scripts/sign_KAT.py, produced by the reference's falcon_sign_dyn in the
// PADDED format; see the vectors README, section 2).
type signKATVector struct {
	Index     int      `json:"index"`
	N         int      `json:"n"`
	LogN      uint     `json:"logn"`
	F         []int8   `json:"f"`
	G         []int8   `json:"g"`
	BigF      []int8   `json:"F"`
	BigG      []int8   `json:"G"`
	Message   string   `json:"message"`
	Nonce     string   `json:"nonce"`
	PRNGSeeds []string `json:"prng_seeds"`
	S2        []int16  `json:"s2"`
	Sig       string   `json:"sig"`
	SigLen    int      `json:"sig_len"`
	// Where the key's generation starts in the SHAKE256("external")
	// stream and how many bytes it consumes.
	StreamOffset int64 `json:"stream_offset_before_skip"`
	SkipBytes    int64 `json:"skip_bytes"`
}

// signKATDigest is SHA-256 over the 120 expected signatures concatenated
// in file order (computed from the vector file, independently of this
// package).
const signKATDigest = "0c21570ef3659404f32864368bcf1819e9f6102d6f2ffba76d8b094f6eaf20d0"

func loadSignKAT(t testing.TB) []signKATVector {
	t.Helper()
	var vs []signKATVector
	readJSON(t, "sign_kat_padded.json.gz", &vs)
	if len(vs) != 120 {
		t.Fatalf("%d signing vectors, want 120", len(vs))
	}
	return vs
}

func (v *signKATVector) key() *PrivateKey {
	return &PrivateKey{LogN: v.LogN, SmallF: v.F, SmallG: v.G, BigF: v.BigF, BigG: v.BigG}
}

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// stream returns the bytes the reference's signer read from its SHAKE256
// stream: the nonce, then one 56-byte seed per attempt (they are
// consecutive in the stream).
func (v *signKATVector) stream(t testing.TB) []byte {
	s := mustHex(t, v.Nonce)
	for _, seed := range v.PRNGSeeds {
		s = append(s, mustHex(t, seed)...)
	}
	return s
}

// signKATSubset returns the vectors a run covers: all of them, or in
// -short mode the degrees up to 256 and the first vector of 512 and 1024.
func signKATSubset(vs []signKATVector) []signKATVector {
	if !testing.Short() {
		return vs
	}
	var out []signKATVector
	for i, v := range vs {
		if v.N <= 256 || (i > 0 && vs[i-1].N != v.N) {
			out = append(out, v)
		}
	}
	return out
}

// TestSignKATPadded reproduces the 120 padded signing vectors (n = 2 to
// 1024) byte for byte on every binary64 backend, through both the dynamic
// path (Sign) and the expanded-key path (ExpandedKey.Sign), fed with the
// nonce and seeds the reference read. It also replays each attempt with
// its own seed: the rejected ones must be rejected for one of the two
// documented reasons (norm above the bound, or compressed s2 too long for
// the padded size) and the last one must give the vector's s2.
func TestSignKATPadded(t *testing.T) {
	all := loadSignKAT(t)
	want := sha256.New()
	for _, v := range all {
		want.Write(mustHex(t, v.Sig))
	}
	if got := hex.EncodeToString(want.Sum(nil)); got != signKATDigest {
		t.Fatalf("testdata digest %s, want %s", got, signKATDigest)
	}
	vs := signKATSubset(all)

	runOnBackends(t, fpBackends, func(t *testing.T, b arith.Backend) {
		for _, path := range []string{"dyn", "tree"} {
			t.Run(path, func(t *testing.T) {
				gotDigest, wantDigest := sha256.New(), sha256.New()
				rejected := map[string]int{}
				for _, v := range vs {
					sig := mustHex(t, v.Sig)
					wantDigest.Write(sig)
					got := signKATOne(t, b, path, &v, rejected)
					gotDigest.Write(got)
					if !bytes.Equal(got, sig) {
						t.Errorf("vector %d (n = %d): signature differs\n got %x\nwant %x", v.Index, v.N, got, sig)
					}
				}
				if !bytes.Equal(gotDigest.Sum(nil), wantDigest.Sum(nil)) {
					t.Errorf("accumulated SHA-256 over %d signatures differs", len(vs))
				}
				t.Logf("%d vectors, rejected attempts: %v", len(vs), rejected)
				if !testing.Short() && rejected["norm"]+rejected["size"] != 143-120 {
					t.Errorf("replayed %d rejected attempts, want 23", rejected["norm"]+rejected["size"])
				}
			})
		}
	})
}

// signKATOne signs vector v on one path and replays its attempts; it
// returns the signature.
func signKATOne(t *testing.T, b arith.Backend, path string, v *signKATVector, rejected map[string]int) []byte {
	t.Helper()
	sk := v.key()
	msg := []byte(v.Message)
	rng := bytes.NewReader(v.stream(t))

	var sig []byte
	var err error
	var attempt func(hm []uint16, seed []byte) (*Attempt, error)
	switch path {
	case "dyn":
		sig, err = Sign(b, sk, msg, Padded, rng)
		attempt = func(hm []uint16, seed []byte) (*Attempt, error) { return SignAttemptDyn(b, sk, hm, seed) }
	case "tree":
		ek, err2 := ExpandPrivateKey(b, sk)
		if err2 != nil {
			t.Fatalf("vector %d: %v", v.Index, err2)
		}
		sig, err = ek.Sign(msg, Padded, rng)
		attempt = ek.SignAttempt
	}
	if err != nil {
		t.Fatalf("vector %d (n = %d): %v", v.Index, v.N, err)
	}
	if rng.Len() != 0 {
		t.Errorf("vector %d: %d stream bytes left unread (the signer made fewer attempts than the reference)", v.Index, rng.Len())
	}

	nonce := mustHex(t, v.Nonce)
	hm := HashToPoint(nonce, msg, v.LogN)
	for i, seed := range v.PRNGSeeds {
		at, err := attempt(hm, mustHex(t, seed))
		if err != nil {
			t.Fatalf("vector %d attempt %d: %v", v.Index, i, err)
		}
		last := i == len(v.PRNGSeeds)-1
		fits := at.Short && fitsPadded(v.LogN, nonce, at.S2)
		switch {
		case last && !fits:
			t.Errorf("vector %d: final attempt rejected (short %v, norm %d)", v.Index, at.Short, at.SqNorm)
		case last && !slices.Equal(at.S2, v.S2):
			t.Errorf("vector %d: final attempt s2 differs", v.Index)
		case !last && !at.Short:
			rejected["norm"]++
		case !last && !fits:
			rejected["size"]++
		case !last:
			t.Errorf("vector %d attempt %d: accepted, but the reference rejected it", v.Index, i)
		}
	}
	return sig
}
