package fndsa2026_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/fndsa2026"
)

// readHexFields reads a testdata file of "name hex" lines ('#' lines are
// comments) into a map.
func readHexFields(t *testing.T, name string) map[string][]byte {
	t.Helper()
	raw, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(nil, 1<<16)
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		b, err := hex.DecodeString(f[len(f)-1])
		if len(f) != 2 || err != nil {
			t.Fatalf("%s:%d: want a name and a hex string", name, line)
		}
		out[f[0]] = b
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSign512KAT is rust-fn-dsa 0.4.0's sign_512 test
// (fn-dsa-sign/src/lib.rs; testdata/sign_512.txt holds its constants):
// the signing key decodes and gives the verifying key and its hash; the
// hedged seed derived from the key, mu and the 40-byte seed is theirs;
// signing from that derived seed (their sign_inner), from mu and the
// seed, and from the message with its context all give their signature,
// over native, emu64 and triword (dd would need package valuetype, which
// this package's tests do not link; `fprlab kat --scheme fn-dsa-2026
// --backend dd` replays the draft's test_kat over it); the signature
// verifies and the signature with one bit flipped does not.
func TestSign512KAT(t *testing.T) {
	kat := readHexFields(t, "sign_512.txt")
	for _, name := range []string{"sk", "vk", "mu", "sign_seed", "sign_seed_derived", "sig"} {
		if kat[name] == nil {
			t.Fatalf("sign_512.txt has no %s", name)
		}
	}
	sk, err := fndsa2026.DecodeSigningKey(kat["sk"], false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sk.VerifyingKey(), kat["vk"]) {
		t.Fatal("verifying key of the signing key differs from KAT_512_VK")
	}
	hvk := fndsa2026.HashedKey(sk)
	if fndsa2026.HashVerifyingKey(kat["vk"]) != hvk {
		t.Fatal("the signing key's hashed verifying key is not the hash of KAT_512_VK")
	}
	mu, err := fndsa2026.Mu(&hvk, []byte("context"), fndsa.None, []byte("message"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mu[:], kat["mu"]) {
		t.Fatalf("mu = %x, want %x", mu, kat["mu"])
	}
	derived := sk.HedgedSeed(&mu, kat["sign_seed"])
	if !bytes.Equal(derived[:], kat["sign_seed_derived"]) {
		t.Fatalf("hedged seed = %x, want %x", derived, kat["sign_seed_derived"])
	}
	for _, name := range []string{"native", "emu64", "triword"} {
		b := backend(t, name)
		sigs := map[string]func() ([]byte, error){
			"from the derived seed": func() ([]byte, error) { return fndsa2026.SignHedged(sk, b, &mu, derived) },
			"from mu":               func() ([]byte, error) { return sk.SignMu(b, &mu, kat["sign_seed"]) },
			"from the message": func() ([]byte, error) {
				return sk.Sign(b, []byte("context"), fndsa.None, []byte("message"), bytes.NewReader(kat["sign_seed"]))
			},
		}
		for how, sign := range sigs {
			sig, err := sign()
			if err != nil {
				t.Fatalf("%s, %s: %v", name, how, err)
			}
			if !bytes.Equal(sig, kat["sig"]) {
				t.Errorf("%s, %s: signature differs from KAT_512_SIG", name, how)
			}
		}
	}
	if !fndsa2026.Verify(kat["vk"], []byte("context"), fndsa.None, []byte("message"), kat["sig"]) {
		t.Error("KAT_512_SIG does not verify")
	}
	bad := bytes.Clone(kat["sig"])
	bad[100] ^= 1
	if fndsa2026.Verify(kat["vk"], []byte("context"), fndsa.None, []byte("message"), bad) {
		t.Error("KAT_512_SIG with a flipped bit verifies")
	}
}

// TestVerifyKAT is rust-fn-dsa 0.4.0's verify_kat_512 and verify_kat_1024
// (fn-dsa-vrfy/src/lib.rs; testdata/verify_kat.txt holds their
// constants): each signature verifies under its key with mu given, and
// over "message" with the context "context"; with a flipped bit, or under
// another context, it does not.
func TestVerifyKAT(t *testing.T) {
	kat := readHexFields(t, "verify_kat.txt")
	for _, n := range []string{"512", "1024"} {
		vkb, mub, sig := kat["vk_"+n], kat["mu_"+n], kat["sig_"+n]
		if vkb == nil || len(mub) != fndsa2026.MuSize || sig == nil {
			t.Fatalf("verify_kat.txt: no vk, mu or sig of degree %s", n)
		}
		vk, err := fndsa2026.DecodeVerifyingKey(vkb, false)
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		mu := (*[fndsa2026.MuSize]byte)(mub)
		if err := vk.VerifyMu(mu, sig); err != nil {
			t.Errorf("%s: with mu: %v", n, err)
		}
		if err := vk.Verify([]byte("context"), fndsa.None, []byte("message"), sig); err != nil {
			t.Errorf("%s: with the message: %v", n, err)
		}
		if vk.Verify([]byte("other"), fndsa.None, []byte("message"), sig) == nil {
			t.Errorf("%s: verifies under another context", n)
		}
		bad := bytes.Clone(sig)
		bad[len(bad)/2] ^= 0x40
		if vk.VerifyMu(mu, bad) == nil {
			t.Errorf("%s: a flipped bit verifies", n)
		}
	}
}
