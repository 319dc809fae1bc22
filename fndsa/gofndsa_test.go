package fndsa

import (
	"bytes"
	"compress/gzip"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/arith/backends"
	"github.com/fprlab/fprlab/falcon"
)

// The cross vectors of testdata/gofndsa (see its README): go-fn-dsa's own
// pinned vectors with the keys and signatures behind them, and keys,
// signatures and verdicts made by go-fn-dsa for this repository.

type goKAT struct {
	LogN     uint   `json:"logn"`
	J        int    `json:"j"`
	KgenSeed string `json:"keygen_seed"`
	SKey     string `json:"skey"`
	VKey     string `json:"vkey"`
	Ctx      string `json:"ctx"`
	Hash     string `json:"hash"`
	Data     string `json:"data"`
	SignSeed string `json:"sign_seed"`
	Sig      string `json:"sig"`
	Pin      string `json:"pin_sha3_256"`
}

type goKey struct {
	LogN uint   `json:"logn"`
	Seed string `json:"seed"`
	SKey string `json:"skey"`
	VKey string `json:"vkey"`
}

type goSig struct {
	Key      int    `json:"key"`
	Ctx      string `json:"ctx"`
	Hash     string `json:"hash"`
	Data     string `json:"data"`
	SignSeed string `json:"sign_seed"`
	Sig      string `json:"sig"`
}

type goCheck struct {
	What    string `json:"what"`
	VKey    string `json:"vkey"`
	Ctx     string `json:"ctx"`
	Hash    string `json:"hash"`
	Data    string `json:"data"`
	Sig     string `json:"sig"`
	Verdict *bool  `json:"verdict"`
}

type goKeygenRef struct {
	LogN uint   `json:"logn"`
	Seed string `json:"seed"`
	SKey string `json:"skey"`
	Pin  string `json:"pin_sha256_fgFG"`
}

type goVectors struct {
	KAT       []goKAT       `json:"kat"`
	KeygenRef []goKeygenRef `json:"keygen_ref"`
	Keys      []goKey       `json:"keys"`
	Sigs      []goSig       `json:"sigs"`
	Checks    []goCheck     `json:"checks"`
}

var loadVectors = sync.OnceValues(func() (*goVectors, error) {
	var v goVectors
	return &v, readGzipJSON("testdata/gofndsa/vectors.json.gz", &v)
})

func readGzipJSON(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return err
	}
	return json.NewDecoder(zr).Decode(v)
}

func vectors(t *testing.T) *goVectors {
	t.Helper()
	v, err := loadVectors()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func preHash(t *testing.T, s string) PreHash {
	t.Helper()
	p, err := ParsePreHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func backend(t *testing.T, name string) arith.Backend {
	t.Helper()
	b, err := arith.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// binary64Backends are the backends whose signatures must be go-fn-dsa's
// byte for byte.
var binary64Backends = []string{"native", "emu64"}

// TestGoFNDSAKAT reproduces go-fn-dsa's pinned KAT (fndsa_test.go,
// TestFNDSA_KAT: SHA3-256(sk || vk || sig) for 90 key pairs of degrees 4
// to 1024, context "domain", raw and SHA3-256 pre-hashed messages, 6-byte
// signing seeds): with go-fn-dsa's keys, the signatures made here on each
// binary64 backend hash to the pinned values, and verify. (TestGoFNDSAKeyGenKAT
// does the same with the keys generated here.)
func TestGoFNDSAKAT(t *testing.T) {
	v := vectors(t)
	if len(v.KAT) != 90 {
		t.Fatalf("%d KAT records, want 90", len(v.KAT))
	}
	for _, name := range binary64Backends {
		b := backend(t, name)
		for _, r := range v.KAT {
			checkKATPin(t, b, r, unhex(t, r.SKey), unhex(t, r.VKey))
		}
	}
}

// checkKATPin signs KAT record r with the key skey on backend b, checks
// that SHA3-256(skey || vkey || sig) is the pinned value, that vkey is the
// verifying key of skey and that the signature verifies.
func checkKATPin(t *testing.T, b arith.Backend, r goKAT, skey, vkey []byte) {
	t.Helper()
	weak := r.LogN < MinStdLogN
	k, err := DecodeSigningKey(skey, weak)
	if err != nil {
		t.Fatalf("logn %d j %d: %v", r.LogN, r.J, err)
	}
	if !bytes.Equal(k.VerifyingKey(), vkey) {
		t.Fatalf("logn %d j %d: verifying key is not the signing key's", r.LogN, r.J)
	}
	sig, err := k.SignSeeded(b, unhex(t, r.Ctx), preHash(t, r.Hash), unhex(t, r.Data), unhex(t, r.SignSeed))
	if err != nil {
		t.Fatalf("%s logn %d j %d: %v", b.Name, r.LogN, r.J, err)
	}
	h := sha3.New256()
	h.Write(skey)
	h.Write(vkey)
	h.Write(sig)
	if got := hex.EncodeToString(h.Sum(nil)); got != r.Pin {
		t.Fatalf("%s logn %d j %d: SHA3-256(sk||vk||sig) = %s, pinned %s", b.Name, r.LogN, r.J, got, r.Pin)
	}
	vk, err := DecodeVerifyingKey(vkey, weak)
	if err != nil {
		t.Fatal(err)
	}
	if err := vk.Verify(unhex(t, r.Ctx), preHash(t, r.Hash), unhex(t, r.Data), sig); err != nil {
		t.Fatalf("logn %d j %d: %v", r.LogN, r.J, err)
	}
}

// TestGoFNDSASignatures signs every cross message (contexts of 0 to 255
// bytes, every pre-hash identifier, 13 keys of degrees 512 and 1024
// including go-fn-dsa's TestSign key) with go-fn-dsa's 40-byte seeds on
// each binary64 backend: the signatures are go-fn-dsa's byte for byte.
func TestGoFNDSASignatures(t *testing.T) {
	v := vectors(t)
	if len(v.Sigs) != 130 {
		t.Fatalf("%d cross signatures, want 130", len(v.Sigs))
	}
	keys := make([]*SigningKey, len(v.Keys))
	for i, kr := range v.Keys {
		k, err := DecodeSigningKey(unhex(t, kr.SKey), false)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(k.VerifyingKey(), unhex(t, kr.VKey)) {
			t.Fatalf("key %d: verifying key differs from go-fn-dsa's", i)
		}
		keys[i] = k
	}
	for _, name := range binary64Backends {
		b := backend(t, name)
		for i, s := range v.Sigs {
			if testing.Short() && i%4 != 0 {
				continue
			}
			sig, err := keys[s.Key].Sign(b, unhex(t, s.Ctx), preHash(t, s.Hash), unhex(t, s.Data), bytes.NewReader(unhex(t, s.SignSeed)))
			if err != nil {
				t.Fatalf("%s signature %d: %v", name, i, err)
			}
			if want := unhex(t, s.Sig); !bytes.Equal(sig, want) {
				t.Fatalf("%s signature %d (key %d, %s, ctx %d bytes): differs from go-fn-dsa's", name, i, s.Key, s.Hash, len(s.Ctx)/2)
			}
		}
	}
}

// TestGoFNDSAVerdicts checks this package's verdict against go-fn-dsa's on
// its valid signatures and 16 kinds of corruption of each (headers,
// nonce, s2, padding, lengths, context, data, pre-hash identifier, key).
// go-fn-dsa's original-Falcon vectors (vrfy_test.go) are round 3
// signatures: package falcon verifies them.
func TestGoFNDSAVerdicts(t *testing.T) {
	v := vectors(t)
	kinds := map[string]int{}
	for i, c := range v.Checks {
		if c.Verdict == nil {
			t.Fatalf("check %d has no verdict", i)
		}
		kinds[c.What]++
		vkey, data, sig := unhex(t, c.VKey), unhex(t, c.Data), unhex(t, c.Sig)
		if c.Hash == "orig" {
			pk, err := falcon.DecodePublicKey(vkey)
			got := err == nil && falcon.Verify(pk, data, sig) == nil
			if got != *c.Verdict {
				t.Fatalf("check %d (%s): round-3 verdict %v, go-fn-dsa %v", i, c.What, got, *c.Verdict)
			}
			continue
		}
		got := Verify(vkey, unhex(t, c.Ctx), preHash(t, c.Hash), data, sig)
		if got != *c.Verdict {
			t.Fatalf("check %d (%s): verdict %v, go-fn-dsa %v", i, c.What, got, *c.Verdict)
		}
	}
	if len(kinds) != 19 || kinds["valid"] != 26 {
		t.Fatalf("check kinds %v: want 19 kinds, 26 valid", kinds)
	}
}

// TestVerifyErrors: a bad context or pre-hash identifier is an error of
// its own; every invalid signature wraps ErrInvalidSignature.
func TestVerifyErrors(t *testing.T) {
	v := vectors(t)
	kr := v.Keys[0]
	s := v.Sigs[0]
	vk, err := DecodeVerifyingKey(unhex(t, kr.VKey), false)
	if err != nil {
		t.Fatal(err)
	}
	sig := unhex(t, s.Sig)
	ph := preHash(t, s.Hash)
	if err := vk.Verify(make([]byte, 256), ph, unhex(t, s.Data), sig); err == nil || errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("256-byte context: %v", err)
	}
	if err := vk.Verify(nil, PreHash(99), unhex(t, s.Data), sig); err == nil || errors.Is(err, ErrInvalidSignature) {
		t.Fatalf("unknown pre-hash: %v", err)
	}
	for _, bad := range [][]byte{nil, sig[:10], append(append([]byte(nil), sig...), 0)} {
		if err := vk.Verify(unhex(t, s.Ctx), ph, unhex(t, s.Data), bad); !errors.Is(err, ErrInvalidSignature) {
			t.Fatalf("%d-byte signature: %v", len(bad), err)
		}
	}
	if _, err := DecodeVerifyingKey(unhex(t, kr.VKey), true); err == nil {
		t.Fatal("a degree-512 key decoded as weak")
	}
}
