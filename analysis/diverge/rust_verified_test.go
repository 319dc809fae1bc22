package diverge_test

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/diverge"
)

// TestRustVerifiedPairs: the differing pairs of four 2026-draft campaigns
// (native against vprec:24 at 512 and 1024, native against native-fma at
// 512, 15 pairs of which 8 reveal f) are made again byte for byte, and
// both signatures of each were accepted by rust-fn-dsa 0.4.0's verifier
// (testdata/rust_verified_pairs.txt): the pairs diverge reports, and
// those leak turns into keys, are pairs a real FN-DSA verifier takes.
func TestRustVerifiedPairs(t *testing.T) {
	f, err := os.Open("testdata/rust_verified_pairs.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	campaigns := map[string]*diverge.Campaign{}
	digest := func(h string) string {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		d := sha256.Sum256(b)
		return hex.EncodeToString(d[:])
	}
	pairs, revealing := 0, 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		if len(w) == 0 || strings.HasPrefix(w[0], "#") {
			continue
		}
		if len(w) != 12 {
			t.Fatalf("%d fields, want 12: %q", len(w), sc.Text())
		}
		if w[10] != "1" || w[11] != "1" {
			t.Fatalf("index %s: rust-fn-dsa rejected a signature of the pair", w[5])
		}
		key := strings.Join(w[:5], " ")
		cp := campaigns[key]
		if cp == nil {
			logn, err1 := strconv.Atoi(w[2])
			seed, err2 := hex.DecodeString(w[3])
			n, err3 := strconv.Atoi(w[4])
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatalf("campaign %q", key)
			}
			c := fnDSA2026Campaign(t)
			c.LogN, c.Seed, c.Signatures, c.A, c.B = uint(logn), string(seed), n, side(t, w[0]), side(t, w[1])
			if cp, err = diverge.Prepare(c); err != nil {
				t.Fatal(err)
			}
			campaigns[key] = cp
		}
		i, err := strconv.Atoi(w[5])
		if err != nil {
			t.Fatal(err)
		}
		if testing.Short() && pairs%3 != 0 {
			pairs++
			continue
		}
		res, err := cp.Range(context.Background(), i, i+1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Pairs) != 1 {
			t.Fatalf("%s, signature %d: %d differing pairs, want 1", key, i, len(res.Pairs))
		}
		p := res.Pairs[0]
		if p.Diff.Kind != w[6] || digest(p.PublicKey) != w[7] || digest(p.SigA) != w[8] || digest(p.SigB) != w[9] {
			t.Errorf("%s, signature %d: not the pair rust-fn-dsa verified (kind %s)", key, i, p.Diff.Kind)
		}
		pairs++
		if p.Diff.KeyRevealing() {
			revealing++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !testing.Short() && (pairs != 31 || revealing != 8) {
		t.Errorf("%d pairs, %d key-revealing; want 31 and 8", pairs, revealing)
	}
}
