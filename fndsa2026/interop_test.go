package fndsa2026_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/arith/backends"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/fndsa2026"
	"github.com/fprlab/fprlab/scheme"
	_ "github.com/fprlab/fprlab/scheme/fndsa2025"
	_ "github.com/fprlab/fprlab/scheme/fndsa2026"
)

// vector is one line of testdata/vectors.txt (see testdata/README.md):
// a key pair rust-fn-dsa 0.4.0 generated from a 32-byte seed and its
// signature, from a 40-byte seed, of data under a context and a pre-hash
// identifier.
type vector struct {
	logn                   uint
	keySeed, signSeed, ctx []byte
	ph                     fndsa.PreHash
	data, sk, vk, sig      []byte
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	f, err := os.Open("testdata/vectors.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var vs []vector
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		w := strings.Split(sc.Text(), " ")
		if len(w) != 9 {
			t.Fatalf("testdata/vectors.txt: %d fields, want 9", len(w))
		}
		logn, err := strconv.Atoi(w[0])
		if err != nil {
			t.Fatal(err)
		}
		name := w[4]
		if name == "raw" {
			name = "none"
		}
		ph, err := fndsa.ParsePreHash(name)
		if err != nil {
			t.Fatal(err)
		}
		v := vector{logn: uint(logn), ph: ph}
		for i, p := range []*[]byte{&v.keySeed, &v.signSeed, &v.ctx, nil, &v.data, &v.sk, &v.vk, &v.sig} {
			if p == nil {
				continue
			}
			if *p, err = hex.DecodeString(w[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		vs = append(vs, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return vs
}

func backend(t *testing.T, name string) arith.Backend {
	t.Helper()
	b, err := arith.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRustVectorsDecodeVerify decodes rust-fn-dsa's keys (the verifying
// key recomputed from the signing key, the signing key re-encoded) and
// verifies its signatures; a flipped bit or another context must fail.
func TestRustVectorsDecodeVerify(t *testing.T) {
	for _, v := range loadVectors(t) {
		weak := v.logn < fndsa2026.MinStdLogN
		sk, err := fndsa2026.DecodeSigningKey(v.sk, weak)
		if err != nil {
			t.Fatalf("logn %d: %v", v.logn, err)
		}
		if !bytes.Equal(sk.VerifyingKey(), v.vk) {
			t.Fatalf("logn %d: verifying key recomputed from the signing key differs", v.logn)
		}
		// Without its hashed verifying key (64 bytes) it is a falcon.h
		// private key, which the error names.
		if _, err := fndsa2026.DecodeSigningKey(v.sk[:len(v.sk)-64], weak); err == nil || !strings.Contains(err.Error(), "the length of a falcon.h or FN-DSA 2025 private key") {
			t.Errorf("logn %d: a key without its digest: %v", v.logn, err)
		}
		if !bytes.Equal(sk.Encode(), v.sk) {
			t.Fatalf("logn %d: signing key re-encoded differs", v.logn)
		}
		vk, err := fndsa2026.DecodeVerifyingKey(v.vk, weak)
		if err != nil {
			t.Fatal(err)
		}
		if err := vk.Verify(v.ctx, v.ph, v.data, v.sig); err != nil {
			t.Fatalf("logn %d: rust-fn-dsa's signature: %v", v.logn, err)
		}
		if vk.Verify(append(v.ctx, 'x'), v.ph, v.data, v.sig) == nil {
			t.Fatalf("logn %d: verified under another context", v.logn)
		}
		bad := bytes.Clone(v.sig)
		bad[len(bad)/2] ^= 0x40
		if vk.Verify(v.ctx, v.ph, v.data, bad) == nil {
			t.Fatalf("logn %d: a corrupted signature verified", v.logn)
		}
	}
}

// TestRustVectorsSign signs every vector's data with rust-fn-dsa's key
// and 40-byte seed over the binary64 backends: the signatures must be
// theirs byte for byte.
func TestRustVectorsSign(t *testing.T) {
	vs := loadVectors(t)
	for _, name := range []string{"native", "emu64"} {
		b := backend(t, name)
		for i, v := range vs {
			if testing.Short() && name == "emu64" && v.logn == fndsa2026.MaxLogN && i%2 == 1 {
				continue
			}
			sk, err := fndsa2026.DecodeSigningKey(v.sk, v.logn < fndsa2026.MinStdLogN)
			if err != nil {
				t.Fatal(err)
			}
			sig, err := sk.Sign(b, v.ctx, v.ph, v.data, bytes.NewReader(v.signSeed))
			if err != nil {
				t.Fatalf("%s logn %d: %v", name, v.logn, err)
			}
			if !bytes.Equal(sig, v.sig) {
				t.Fatalf("%s logn %d vector %d: signature differs from rust-fn-dsa's", name, v.logn, i)
			}
		}
	}
}

// TestRustVectorsWider signs with triple-word arithmetic, which is not
// binary64: its signatures need not be rust-fn-dsa's, but they must be
// valid ones. (Double-double needs package valuetype, whose build this
// package's tests avoid; it signed the same 6 vectors identically when
// checked by hand.)
func TestRustVectorsWider(t *testing.T) {
	vs := loadVectors(t)
	for _, name := range []string{"triword"} {
		t.Run(name, func(t *testing.T) { signWider(t, backend(t, name), vs) })
	}
}

func signWider(t *testing.T, b arith.Backend, vs []vector) {
	same, all := 0, 0
	for i, v := range vs {
		if v.logn < 9 || i%3 != 0 {
			continue
		}
		sk, err := fndsa2026.DecodeSigningKey(v.sk, false)
		if err != nil {
			t.Fatal(err)
		}
		sig, err := sk.Sign(b, v.ctx, v.ph, v.data, bytes.NewReader(v.signSeed))
		if err != nil {
			t.Fatalf("logn %d: %v", v.logn, err)
		}
		vk, _ := fndsa2026.DecodeVerifyingKey(v.vk, false)
		if err := vk.Verify(v.ctx, v.ph, v.data, sig); err != nil {
			t.Fatalf("logn %d: triword signature: %v", v.logn, err)
		}
		all++
		if bytes.Equal(sig, v.sig) {
			same++
		}
	}
	t.Logf("signatures identical to rust-fn-dsa's: %d of %d", same, all)
}

// TestScheme: "fn-dsa-2026" is registered, its keys
// from a private key are rust-fn-dsa's encodings, and its signatures over
// the scheme seam are rust-fn-dsa's and verify under round 3's form of
// the public key; "fn-dsa-2025" is another name of "fn-dsa", whose
// recorded name stays "fn-dsa".
func TestScheme(t *testing.T) {
	sc, err := scheme.Lookup("fn-dsa-2026")
	if err != nil || sc.Name() != "fn-dsa-2026" {
		t.Fatalf("Lookup(fn-dsa-2026) = %v, %v", sc, err)
	}
	old, err := scheme.Lookup("fn-dsa-2025")
	if err != nil || old.Name() != "fn-dsa" {
		t.Fatalf("Lookup(fn-dsa-2025) = %v, %v; want the scheme recorded as fn-dsa", old, err)
	}
	b := backend(t, "native")
	for _, v := range loadVectors(t) {
		if v.logn < 9 || v.ph != fndsa.None || len(v.ctx) != 0 {
			continue
		}
		k, err := fndsa2026.DecodeSigningKey(v.sk, false)
		if err != nil {
			t.Fatal(err)
		}
		sk := k.PrivateKey()
		pkb, skb, err := sc.EncodeKeys(sk)
		if err != nil || !bytes.Equal(pkb, v.vk) || !bytes.Equal(skb, v.sk) {
			t.Fatalf("EncodeKeys: %v, or encodings differ from rust-fn-dsa's", err)
		}
		sig, err := sc.Sign(b, sk, v.data, bytes.NewReader(v.signSeed))
		if err != nil || !bytes.Equal(sig, v.sig) {
			t.Fatalf("Sign: %v, or the signature differs from rust-fn-dsa's", err)
		}
		h, err := falcon.ComputePublic(sk.SmallF, sk.SmallG, sk.LogN)
		if err != nil {
			t.Fatal(err)
		}
		pk := &falcon.PublicKey{LogN: sk.LogN, H: h}
		if err := sc.Verify(pk, v.data, sig); err != nil {
			t.Fatalf("Verify: %v", err)
		}
		if sc.Verify(pk, append(v.data, 0), sig) == nil {
			t.Fatal("Verify accepted another message")
		}
	}
}

// TestRustVectorsKeyGen: the keys of rust-fn-dsa's 32-byte seeds, every
// degree from 4 to 1024.
func TestRustVectorsKeyGen(t *testing.T) {
	for i, v := range loadVectors(t) {
		k, err := fndsa2026.KeyGen(v.logn, v.keySeed)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(k.Encode(), v.sk) || !bytes.Equal(k.VerifyingKey(), v.vk) {
			t.Fatalf("logn %d vector %d: key differs from rust-fn-dsa's", v.logn, i)
		}
	}
}
