package falcon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"
)

// Falcon end to end over the vprec:P:eE formats (exponent range and
// rounding; package oracle).

// TestFormatsSignVerify signs with every rounding of a 64-bit format, and
// with binary32's range and precision, and verifies.
func TestFormatsSignVerify(t *testing.T) {
	sk := katKeys(t)[9]
	pk, err := sk.Public()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"vprec:64:e11", "vprec:64:e11:rz", "vprec:64:e11:sr=1", "vprec:64:e11:sr=2", "vprec:24:e8"}
	if testing.Short() {
		names = names[:3]
	}
	sigs := map[string][]byte{}
	for _, name := range names {
		b := mustBackend(t, name)
		msg := []byte("formats round trip")
		start := time.Now()
		sig, err := Sign(b, sk, msg, Compressed, seededRand(11))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if err := Verify(pk, msg, sig); err != nil {
			t.Errorf("%s: Verify: %v", name, err)
		}
		sigs[name] = sig
		t.Logf("%s: signed and verified in %v", name, time.Since(start).Round(time.Millisecond))
	}
	// The same seed must give the same signature: the stochastic rounding
	// is a function of the seed and the operands.
	again, err := Sign(mustBackend(t, "vprec:64:e11:sr=1"), sk, []byte("formats round trip"), Compressed, seededRand(11))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, sigs["vprec:64:e11:sr=1"]) {
		t.Error("vprec:64:e11:sr=1 signed the same input twice differently")
	}
}

// TestBinary64FormatSignsAsReference signs the padded signing vectors with
// vprec:53:e11, binary64's precision and range with flush to zero: every
// value of signing is binary64's (they all stay normal) and its expm_p63 is
// the reference's native polynomial bit for bit, so every signature must
// be the reference's and use exactly its random stream. -short signs the
// degrees up to 64 and the first vector of 512.
func TestBinary64FormatSignsAsReference(t *testing.T) {
	all := loadSignKAT(t)
	vs := all
	if testing.Short() {
		vs = nil
		for i, v := range all {
			if v.N <= 64 || (v.N == 512 && all[i-1].N != 512) {
				vs = append(vs, v)
			}
		}
	}
	b := mustBackend(t, "vprec:53:e11")
	got, want := sha256.New(), sha256.New()
	for _, v := range vs {
		sig := signPaddedVector(t, b, "dyn", &v)
		ref := mustHex(t, v.Sig)
		got.Write(sig)
		want.Write(ref)
		if !bytes.Equal(sig, ref) {
			t.Errorf("vector %d (n = %d): signature differs from the reference", v.Index, v.N)
		}
	}
	if !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
		t.Errorf("accumulated SHA-256 over %d signatures differs", len(vs))
	}
	if len(vs) == len(all) && hex.EncodeToString(got.Sum(nil)) != signKATDigest {
		t.Errorf("digest of all signatures %x, want %s", got.Sum(nil), signKATDigest)
	}
}
