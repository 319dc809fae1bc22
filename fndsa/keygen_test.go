package fndsa

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// The key-generation tests compare with go-fn-dsa's own data only
// (testdata/gofndsa, see its README): its pinned key-generation digests,
// the keys of its KAT and of the cross vectors, and the fate of every
// candidate (f, g) its key generation drew.

// keygenRefShort is how many keygen_ref seeds per degree -short checks
// (the full set is 100 per degree).
const keygenRefShort = 12

// fgFGDigest is go-fn-dsa's key-generation pin (kgen_test.go,
// test_keygen_ref_inner): SHA-256 over the coefficients of f, g, F and G,
// one byte each (two's complement), in that order.
func fgFGDigest(kp *KeyPair) string {
	var b []byte
	for _, x := range [][]int8{kp.SmallF, kp.SmallG, kp.BigF, kp.BigG} {
		b = append(b, int8Bytes(x)...)
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// TestGoFNDSAKeyGenRef reproduces go-fn-dsa's 300 key-generation pins
// (seeds "test0".."test99" at degrees 256, 512 and 1024): the digest of
// f, g, F, G generated here is the pinned one, and where the vectors keep
// go-fn-dsa's signing key (16 per degree), its encoding is that key.
func TestGoFNDSAKeyGenRef(t *testing.T) {
	v := vectors(t)
	if len(v.KeygenRef) != 300 {
		t.Fatalf("%d keygen_ref records, want 300", len(v.KeygenRef))
	}
	perDegree := map[uint]int{}
	encodings := 0
	for _, r := range v.KeygenRef {
		perDegree[r.LogN]++
		if testing.Short() && perDegree[r.LogN] > keygenRefShort {
			continue
		}
		seed := unhex(t, r.Seed)
		if !strings.HasPrefix(string(seed), "test") {
			t.Fatalf("keygen_ref seed %q is not go-fn-dsa's", seed)
		}
		kp, err := keyGenFromSeed(r.LogN, seed)
		if err != nil {
			t.Fatal(err)
		}
		if got := fgFGDigest(kp); got != r.Pin {
			t.Fatalf("logn %d seed %q: SHA-256(f||g||F||G) = %s, pinned %s", r.LogN, seed, got, r.Pin)
		}
		if r.SKey != "" {
			if !bytes.Equal(kp.SigningKey, unhex(t, r.SKey)) {
				t.Fatalf("logn %d seed %q: signing key differs from go-fn-dsa's", r.LogN, seed)
			}
			encodings++
		}
	}
	if encodings == 0 {
		t.Fatal("no signing key compared")
	}
}

// TestGoFNDSAKeyGenKAT regenerates go-fn-dsa's KAT with RunKAT: the
// embedded records are the vectors' (degree, j, pin, seeds, context and
// message as go-fn-dsa's test derives them, digest of go-fn-dsa's keys);
// the 90 generated key pairs are go-fn-dsa's byte for byte; and with them,
// signing here on each binary64 backend gives the pinned
// SHA3-256(sk || vk || sig) -- go-fn-dsa's whole KAT, keys included.
func TestGoFNDSAKeyGenKAT(t *testing.T) {
	v := vectors(t)
	recs, err := KAT()
	if err != nil {
		t.Fatal(err)
	}
	if len(v.KAT) != KATRecords || len(recs) != KATRecords {
		t.Fatalf("%d KAT vectors, %d embedded records, want %d", len(v.KAT), len(recs), KATRecords)
	}
	for i, r := range recs {
		w := v.KAT[i]
		ph, msg := r.Message()
		kd := sha256.Sum256(append(unhex(t, w.SKey), unhex(t, w.VKey)...))
		if r.LogN != w.LogN || r.J != w.J || hex.EncodeToString(r.Pin[:]) != w.Pin || r.KeyDigest != kd ||
			hex.EncodeToString(r.KeygenSeed()) != w.KgenSeed || hex.EncodeToString(r.SignSeed()) != w.SignSeed ||
			hex.EncodeToString(r.Context()) != w.Ctx || ph != preHash(t, w.Hash) || hex.EncodeToString(msg) != w.Data {
			t.Fatalf("embedded KAT record %d (logn %d j %d) is not vectors.json.gz's", i, r.LogN, r.J)
		}
		for _, name := range binary64Backends {
			res, err := RunKAT(backend(t, name), r)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(res.SigningKey, unhex(t, w.SKey)) || !bytes.Equal(res.VerifyingKey, unhex(t, w.VKey)) || !res.KeysMatch {
				t.Fatalf("logn %d j %d: generated keys differ from go-fn-dsa's", r.LogN, r.J)
			}
			if !res.PinMatch || !res.Verified || !bytes.Equal(res.Signature, unhex(t, w.Sig)) {
				t.Fatalf("%s logn %d j %d: signature: pin %v, verifies %v, go-fn-dsa's bytes %v", name, r.LogN, r.J,
					res.PinMatch, res.Verified, bytes.Equal(res.Signature, unhex(t, w.Sig)))
			}
		}
	}
}

// TestGoFNDSAKeyGenKeys generates the cross-vector keys that go-fn-dsa
// made from seeds (logn 9 and 10; the key of its TestSign has none): both
// encodings are go-fn-dsa's.
func TestGoFNDSAKeyGenKeys(t *testing.T) {
	v := vectors(t)
	seeded := 0
	for i, r := range v.Keys {
		if r.Seed == "" {
			continue
		}
		kp, err := KeyGen(r.LogN, unhex(t, r.Seed))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(kp.SigningKey, unhex(t, r.SKey)) || !bytes.Equal(kp.VerifyingKey, unhex(t, r.VKey)) {
			t.Fatalf("key %d (logn %d): generated keys differ from go-fn-dsa's", i, r.LogN)
		}
		seeded++
	}
	if seeded != 12 {
		t.Fatalf("%d seeded keys, want 12", seeded)
	}
}

// TestKeyGenArgs: bad degrees and seed lengths are errors.
func TestKeyGenArgs(t *testing.T) {
	seed := make([]byte, KeygenSeedSize)
	for _, c := range []struct {
		logn uint
		seed []byte
		want string
	}{
		{1, seed, "logn 1 outside 2..10"},
		{11, seed, "logn 11 outside 2..10"},
		{9, seed[:31], "seed of 31 bytes, want 32"},
		{9, nil, "seed of 0 bytes, want 32"},
	} {
		if _, err := KeyGen(c.logn, c.seed); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("KeyGen(%d, %d bytes): error %v, want %q", c.logn, len(c.seed), err, c.want)
		}
	}
}

// BenchmarkKeyGen512 and BenchmarkKeyGen1024 time KeyGen per key pair,
// over the seeds SHA-256("fprlab-bench" || i): rejected candidates
// included, as a user sees it.
func BenchmarkKeyGen512(b *testing.B)  { benchKeyGen(b, 9) }
func BenchmarkKeyGen1024(b *testing.B) { benchKeyGen(b, 10) }

func benchKeyGen(b *testing.B, logn uint) {
	i := 0
	for b.Loop() {
		seed := sha256.Sum256(append([]byte("fprlab-bench"), byte(i), byte(i>>8)))
		i++
		if _, err := KeyGen(logn, seed[:]); err != nil {
			b.Fatal(err)
		}
	}
}
