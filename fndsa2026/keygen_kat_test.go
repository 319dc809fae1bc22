package fndsa2026_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/fndsa2026"
)

// keygenKAT is one line of testdata/kat_kg.txt: rust-fn-dsa's reference
// key (fn-dsa-kgen's KAT_KG256, KAT_KG512, KAT_KG1024, key pairs its
// author generated with falcon.py's ntrugen) as SHA-256(f || g || F || G),
// each coefficient one signed byte, for the seed "test" followed by the
// decimal index.
type keygenKAT struct {
	logn  uint
	index int
	sum   [sha256.Size]byte
}

func readKeygenKATs(t *testing.T) []keygenKAT {
	t.Helper()
	fh, err := os.Open("testdata/kat_kg.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var out []keygenKAT
	sc := bufio.NewScanner(fh)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			t.Fatalf("kat_kg.txt:%d: %d fields, want 3", line, len(fields))
		}
		logn, err1 := strconv.ParseUint(fields[0], 10, 8)
		index, err2 := strconv.Atoi(fields[1])
		sum, err3 := hex.DecodeString(fields[2])
		if err1 != nil || err2 != nil || err3 != nil || len(sum) != sha256.Size {
			t.Fatalf("kat_kg.txt:%d: malformed line %q", line, sc.Text())
		}
		k := keygenKAT{logn: uint(logn), index: index}
		copy(k.sum[:], sum)
		out = append(out, k)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestKeygenKAT reproduces rust-fn-dsa 0.4.0's reference keys: 100 key
// pairs for each of the degrees 256, 512 and 1024, each from the seed
// "test<i>". Its own test checks the first 10, 5 and 2 of them (the others
// are kept in its source, commented out, for time); -short checks those,
// the full run all 300.
func TestKeygenKAT(t *testing.T) {
	kats := readKeygenKATs(t)
	if len(kats) != 300 {
		t.Fatalf("%d reference keys, want 300", len(kats))
	}
	checked := map[uint]int{}
	for _, k := range kats {
		if testing.Short() && k.index >= map[uint]int{8: 10, 9: 5, 10: 2}[k.logn] {
			continue
		}
		seed := []byte(fmt.Sprintf("test%d", k.index))
		sk, err := fndsa2026.KeyGenAnySeed(k.logn, seed)
		if err != nil {
			t.Fatalf("logn %d seed %q: %v", k.logn, seed, err)
		}
		pk := sk.PrivateKey()
		h := sha256.New()
		for _, poly := range [][]int8{pk.SmallF, pk.SmallG, pk.BigF, pk.BigG} {
			b := make([]byte, len(poly))
			for i, c := range poly {
				b[i] = byte(c)
			}
			h.Write(b)
		}
		if got := h.Sum(nil); string(got) != string(k.sum[:]) {
			t.Errorf("logn %d seed %q: SHA-256(f||g||F||G) = %x, want %x", k.logn, seed, got, k.sum)
		}
		checked[k.logn]++
	}
	t.Logf("reference keys reproduced: %d at 256, %d at 512, %d at 1024", checked[8], checked[9], checked[10])
}
