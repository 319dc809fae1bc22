package fndsa2026_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/fndsa"
	draft "github.com/fprlab/fprlab/fndsa2026"
	_ "github.com/fprlab/fprlab/valuetype"
)

// shakeBytes is the first n bytes of SHAKE256(label).
func shakeBytes(label string, n int) []byte {
	h := sha3.NewSHAKE256()
	h.Write([]byte(label))
	out := make([]byte, n)
	h.Read(out)
	return out
}

// corrupt applies one of testdata/README.md's corruptions to a copy of
// sig.
func corrupt(t *testing.T, sig []byte, kind string) []byte {
	s := bytes.Clone(sig)
	switch kind {
	case "s2bit":
		s[60] ^= 0x10
	case "nonce":
		s[5] ^= 1
	case "header":
		s[0] ^= 1
	case "trunc":
		s = s[:len(s)-1]
	case "zero":
		clear(s[1+draft.NonceSize:])
	case "s2last":
		s[len(s)-1] ^= 0x80
	default:
		t.Fatalf("unknown corruption %q", kind)
	}
	return s
}

// TestRustVerifiesEveryBackend: the signatures fprlab makes for the 2026
// draft on binary64, triple-word, double-double and three vprec widths are
// the bytes rust-fn-dsa's verifier accepted, and fprlab's verifier agrees
// with its verdict on them and on 12 corruptions (testdata/README.md).
// -short keeps messages 0 and 1.
func TestRustVerifiesEveryBackend(t *testing.T) {
	f, err := os.Open("testdata/rust_verified.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	keys := map[uint]*draft.SigningKey{}
	sigs := map[string][]byte{}
	sign := func(logn uint, j int, backend string) []byte {
		id := fmt.Sprint(logn, j, backend)
		if s, ok := sigs[id]; ok {
			return s
		}
		b, err := arith.Lookup(backend)
		if err != nil {
			t.Fatal(err)
		}
		rnd := shakeBytes(fmt.Sprintf("fprlab rust-fn-dsa interop sign %d %d", logn, j), draft.SignSeedSize)
		s, err := keys[logn].Sign(b, nil, fndsa.None, []byte(fmt.Sprintf("fprlab interop message %d", j)), bytes.NewReader(rnd))
		if err != nil {
			t.Fatalf("logn %d message %d on %s: %v", logn, j, backend, err)
		}
		sigs[id] = s
		return s
	}
	counts := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		logn64, err := strconv.ParseUint(w[1], 10, 8)
		if err != nil {
			t.Fatal(err)
		}
		logn := uint(logn64)
		if w[0] == "key" {
			k, err := draft.KeyGen(logn, shakeBytes(fmt.Sprintf("fprlab rust-fn-dsa interop key %d", logn), draft.KeygenSeedSize))
			if err != nil {
				t.Fatal(err)
			}
			if d := sha256.Sum256(k.VerifyingKey()); hex.EncodeToString(d[:]) != w[2] {
				t.Fatalf("logn %d: not the verifying key rust-fn-dsa was given", logn)
			}
			keys[logn] = k
			continue
		}
		j, err := strconv.Atoi(w[2])
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && j > 1 {
			continue
		}
		sig := sign(logn, j, w[3])
		digest, verdict := w[4], w[5]
		if w[0] == "bad" {
			sig = corrupt(t, sig, w[4])
			digest, verdict = w[5], w[6]
		}
		if d := sha256.Sum256(sig); hex.EncodeToString(d[:]) != digest {
			t.Fatalf("%s: fprlab signs other bytes than those rust-fn-dsa judged", sc.Text()[:40])
		}
		vk, err := draft.DecodeVerifyingKey(keys[logn].VerifyingKey(), false)
		if err != nil {
			t.Fatal(err)
		}
		ok := vk.Verify(nil, fndsa.None, []byte(fmt.Sprintf("fprlab interop message %d", j)), sig) == nil
		if ok != (verdict == "1") {
			t.Errorf("%s: fprlab's verifier says %v, rust-fn-dsa's %s", sc.Text()[:40], ok, verdict)
		}
		counts[w[0]+" "+verdict]++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !testing.Short() && (counts["sig 1"] != 112 || counts["bad 0"] != 12 || len(counts) != 2) {
		t.Errorf("verdicts %v, want 112 accepted signatures and 12 rejected corruptions", counts)
	}
	t.Logf("verdicts: %v", counts)
}
