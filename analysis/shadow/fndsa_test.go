package shadow

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"reflect"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/scheme"
)

// TestFNDSACampaign: an FN-DSA campaign signs (and verifies) through
// package fndsa under the shadow, its summary says so, and its records
// differ from round 3's on the same keys and seeds (the scheme switch
// reaches the signer).
func TestFNDSACampaign(t *testing.T) {
	b := lookup(t, "native")
	cfg := Config{LogN: 9, Signatures: 2, Keys: 1, Seed: "fn-dsa", Shadow: ShadowDD, Sigma: SigmaReference, Scheme: SchemeFNDSA}
	fn := run(t, b, cfg)
	cfg.Scheme = SchemeFalcon
	r3 := run(t, b, cfg)
	cfg.Scheme = SchemeFNDSA
	a := NewAggregate()
	var sigs int
	for i, r := range fn {
		a.Add(r)
		if r.Kind != "signature" {
			continue
		}
		sigs++
		if r.Calls < 1024 || r.MaxDeltaC == nil {
			t.Fatalf("record %d: %d sampler calls, max delta_c %v", i, r.Calls, r.MaxDeltaC)
		}
		if o := r3[i]; r.Calls == o.Calls && r.Rejections == o.Rejections && o.MaxDeltaC != nil && *r.MaxDeltaC == *o.MaxDeltaC {
			t.Fatalf("record %d: FN-DSA and round 3 records agree (%d calls, max delta_c 2^%v)", i, r.Calls, *r.MaxDeltaC)
		}
	}
	if sigs != 2 {
		t.Fatalf("%d signature records, want 2", sigs)
	}
	if s := a.Summary(b.Name, cfg); s.Scheme != "fn-dsa" || s.Signatures != 2 {
		t.Fatalf("summary scheme %q, %d signatures", s.Scheme, s.Signatures)
	}
}

// TestFNDSAConfig: FN-DSA campaigns refuse KAT mode, weak degrees and
// another exact sigma (unknown schemes are refused by scheme.Lookup).
func TestFNDSAConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{LogN: 9, KATFrom: 0, KATTo: 2, Scheme: SchemeFNDSA}, "no KAT"},
		{Config{LogN: 8, Signatures: 1, Keys: 1, Scheme: SchemeFNDSA}, "512 and 1024"},
		{Config{LogN: 9, Signatures: 1, Keys: 1, Scheme: SchemeFNDSA, Sigma: SigmaFormula}, "not supported"},
	} {
		if tc.cfg.Sigma == "" {
			tc.cfg.Sigma = SigmaReference
		}
		tc.cfg.OracleBits, tc.cfg.Shadow = 256, ShadowDD
		if err := tc.cfg.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error with %q", tc.cfg, err, tc.want)
		}
	}
}

// TestSigmaFor: the exact 1/sigma compare and certify take from
// --exact-sigma: the value given, or FN-DSA's fixed table when none is;
// FN-DSA refuses the formula, and an unknown value is refused.
func TestSigmaFor(t *testing.T) {
	round3, err := scheme.Lookup("falcon")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		s     scheme.Scheme
		v     string
		given bool
		want  ExactSigma
		err   string
	}{
		{round3, "formula", false, SigmaFormula, ""},
		{round3, "reference", true, SigmaReference, ""},
		{round3, "formula", true, SigmaFormula, ""},
		{round3, "table", true, "", `--exact-sigma "table": want formula or reference`},
		{SchemeFNDSA, "formula", false, SigmaReference, ""},
		{SchemeFNDSA, "reference", true, SigmaReference, ""},
		{SchemeFNDSA, "formula", true, "", "--exact-sigma formula is not supported by FN-DSA"},
		{SchemeFNDSA, "", true, "", "want formula or reference"},
	} {
		got, err := SigmaFor(tc.s, tc.v, tc.given)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s %q given %v: %v, %v; want an error with %q", tc.s.Name(), tc.v, tc.given, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s %q given %v: %v, %v; want %s", tc.s.Name(), tc.v, tc.given, got, err, tc.want)
		}
	}
}

// keySeedByHand is FNDSAKeySeed as its documentation states it, written
// out here: the first 32 bytes of SHAKE256("fprlab compare fn-dsa key" ||
// 0x00 || BE64(len(seed)) || seed || BE64(i)).
func keySeedByHand(seed string, i int) []byte {
	h := sha3.NewSHAKE256()
	h.Write([]byte("fprlab compare fn-dsa key"))
	h.Write([]byte{0})
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(len(seed))))
	h.Write([]byte(seed))
	h.Write(binary.BigEndian.AppendUint64(nil, uint64(i)))
	out := make([]byte, 32)
	h.Read(out)
	return out
}

// TestFNDSAKeysCampaign: a campaign with KeysFNDSA signs signature j with
// fndsa.KeyGen(logn, seed of key j mod Keys) for the documented seeds: its
// records are those of the same signatures signed here with those keys,
// and differ from those of the round-3 keys of the same seed. The keys are
// valid FN-DSA keys (a signature made with one verifies under it, a
// corrupted one does not), and there is no keygen record (FN-DSA's key
// generation has no floating point to shadow).
func TestFNDSAKeysCampaign(t *testing.T) {
	b := lookup(t, "native")
	const seed = "fn-dsa keys"
	cfg := Config{LogN: 9, Signatures: 3, Keys: 2, Seed: seed, Shadow: ShadowDD, Sigma: SigmaReference, Scheme: SchemeFNDSA, KeySource: KeysFNDSA, Workers: 1}
	recs := run(t, b, cfg)
	if len(recs) != 3 {
		t.Fatalf("%d records, want 3 signature records and no keygen record", len(recs))
	}
	r, err := newRunner(b, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	r.setScheme(SchemeFNDSA, falcon.Dyn)
	var keys [2]*falcon.PrivateKey
	for i := range keys {
		ks := keySeedByHand(seed, i)
		if !bytes.Equal(FNDSAKeySeed(seed, i), ks) {
			t.Fatalf("key %d: FNDSAKeySeed %x, documented derivation %x", i, FNDSAKeySeed(seed, i), ks)
		}
		kp, err := fndsa.KeyGen(9, ks)
		if err != nil {
			t.Fatal(err)
		}
		keys[i] = &falcon.PrivateKey{LogN: 9, SmallF: kp.SmallF, SmallG: kp.SmallG, BigF: kp.BigF, BigG: kp.BigG}
		sk, err := fndsa.DecodeSigningKey(kp.SigningKey, false)
		if err != nil {
			t.Fatal(err)
		}
		vk, err := fndsa.DecodeVerifyingKey(kp.VerifyingKey, false)
		if err != nil {
			t.Fatal(err)
		}
		msg := Message(seed, i)
		sig, err := sk.Sign(b, nil, fndsa.None, msg, derive("signature", seed, i))
		if err != nil {
			t.Fatal(err)
		}
		if err := vk.Verify(nil, fndsa.None, msg, sig); err != nil {
			t.Fatalf("key %d: its signature does not verify: %v", i, err)
		}
		sig[len(sig)/2] ^= 1
		if vk.Verify(nil, fndsa.None, msg, sig) == nil {
			t.Fatalf("key %d: a corrupted signature verifies", i)
		}
	}
	same := func(a, b *Record) bool {
		return a.Attempts == b.Attempts && a.Calls == b.Calls && a.Rejections == b.Rejections &&
			*a.MaxDeltaC == *b.MaxDeltaC && *a.MaxDeltaSigma == *b.MaxDeltaSigma && reflect.DeepEqual(a.Decisions, b.Decisions)
	}
	for j, rec := range recs {
		if rec.Kind != "signature" || rec.Index != j || rec.Key != j%2 {
			t.Fatalf("record %d: %s %d of key %d", j, rec.Kind, rec.Index, rec.Key)
		}
		want, err := r.sign(keys[j%2], Message(seed, j), derive("signature", seed, j), j, j%2)
		if err != nil {
			t.Fatal(err)
		}
		if !same(rec, want) {
			t.Errorf("signature %d: campaign record (%d calls, max delta_c 2^%v) is not the signature of fndsa.KeyGen's key %d (%d calls, 2^%v)",
				j, rec.Calls, *rec.MaxDeltaC, j%2, want.Calls, *want.MaxDeltaC)
		}
		other, err := r.sign(keys[1-j%2], Message(seed, j), derive("signature", seed, j), j, 1-j%2)
		if err != nil {
			t.Fatal(err)
		}
		if same(rec, other) {
			t.Errorf("signature %d: the records of two keys agree: the comparison cannot tell keys apart", j)
		}
	}
	cfg.KeySource = KeysFalcon
	r3 := run(t, b, cfg)
	if len(r3) != 5 || r3[0].Kind != "keygen" || same(r3[2], recs[0]) {
		t.Fatalf("round-3 keys: %d records, first %s; signature 0 the same as with FN-DSA keys: %v", len(r3), r3[0].Kind, same(r3[2], recs[0]))
	}
	if s := NewAggregate().Summary(b.Name, cfg); s.KeySource != "falcon" || cfg.KeygenBackendOf(b) != "native" {
		t.Errorf("round-3 keys: summary key source %q, keygen backend %q", s.KeySource, cfg.KeygenBackendOf(b))
	}
	cfg.KeySource = KeysFNDSA
	if s := NewAggregate().Summary(b.Name, cfg); s.KeySource != "fn-dsa" || cfg.KeygenBackendOf(b) != "" {
		t.Errorf("FN-DSA keys: summary key source %q, keygen backend %q", s.KeySource, cfg.KeygenBackendOf(b))
	}
}

// TestKeySourceConfig: FN-DSA keys are for FN-DSA campaigns; an unknown
// key source is refused; round 3 takes its own keys.
func TestKeySourceConfig(t *testing.T) {
	base := Config{LogN: 9, Signatures: 1, Keys: 1, Shadow: ShadowDD, Sigma: SigmaReference}
	for _, tc := range []struct {
		scheme scheme.Scheme
		keys   KeySource
		want   string
	}{
		{SchemeFalcon, KeysFNDSA, "scheme fn-dsa only"},
		{SchemeFNDSA, "ml-dsa", "want"},
		{SchemeFalcon, "ml-dsa", "want"},
	} {
		cfg := base
		cfg.Scheme, cfg.KeySource = tc.scheme, tc.keys
		if err := cfg.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("scheme %q, keys %q: %v, want an error with %q", tc.scheme.Name(), tc.keys, err, tc.want)
		}
	}
	for _, tc := range []struct {
		scheme scheme.Scheme
		keys   KeySource
	}{{SchemeFalcon, ""}, {SchemeFalcon, KeysFalcon}, {SchemeFNDSA, ""}, {SchemeFNDSA, KeysFalcon}, {SchemeFNDSA, KeysFNDSA}} {
		cfg := base
		cfg.Scheme, cfg.KeySource = tc.scheme, tc.keys
		if err := cfg.Check(); err != nil {
			t.Errorf("scheme %q, keys %q: %v", tc.scheme.Name(), tc.keys, err)
		}
	}
}

// TestFNDSAKeyOfSeedKAT: the key a campaign signs with, for the key seed of
// a record of go-fn-dsa's KAT (degrees 512 and 1024, j = 0 and 9), is
// go-fn-dsa's key of that record: SHA-256 of its signing and verifying key
// encodings is the digest go-fn-dsa's keys have.
func TestFNDSAKeyOfSeedKAT(t *testing.T) {
	recs, err := fndsa.KAT()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range recs {
		if r.LogN < 9 || (r.J != 0 && r.J != 9) {
			continue
		}
		n++
		sk, err := fndsaKeyOfSeed(r.LogN, r.KeygenSeed())
		if err != nil {
			t.Fatal(err)
		}
		pk, err := sk.Public()
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		h.Write(sk.Encode())
		h.Write(pk.Encode())
		if got := h.Sum(nil); !bytes.Equal(got, r.KeyDigest[:]) {
			t.Errorf("KAT degree %d, j %d: key digest %x, go-fn-dsa's %x", 1<<r.LogN, r.J, got, r.KeyDigest)
		}
	}
	if n != 4 {
		t.Fatalf("%d KAT records checked, want 4", n)
	}
}
