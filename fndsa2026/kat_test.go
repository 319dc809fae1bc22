package fndsa2026_test

import (
	"bufio"
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"fmt"
	"os"
	"testing"

	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/fndsa2026"
)

// TestRustKAT replays rust-fn-dsa 0.4.0's own known-answer test
// (fn-dsa/src/lib.rs, test_kat; testdata/test_kat.txt holds its expected
// digests): for logn 2 to 10 and j 0 to 9, SHAKE256(logn || j as 32-bit
// little-endian) gives the 32-byte key seed and the 40-byte signing seed;
// "message" is signed under the context "domain", raw for even j and as
// its SHA3-256 digest for odd j; the digest is SHA3-256(sk || vk || sig).
// Key generation, encodings, mu, hash-to-point and signing (over native
// and emu64) must all be theirs. Under -short, emu64 replays the degrees
// up to 512 only.
func TestRustKAT(t *testing.T) {
	f, err := os.Open("testdata/test_kat.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var logn uint
		var j uint32
		var want string
		if _, err := fmt.Sscanf(sc.Text(), "%d %d %s", &logn, &j, &want); err != nil {
			t.Fatal(err)
		}
		seed := sha3.NewSHAKE256()
		seed.Write([]byte{byte(logn), byte(j), byte(j >> 8), byte(j >> 16), byte(j >> 24)})
		ks, ss := make([]byte, 32), make([]byte, 40)
		seed.Read(ks)
		seed.Read(ss)
		k, err := fndsa2026.KeyGen(logn, ks)
		if err != nil {
			t.Fatal(err)
		}
		ph, data := fndsa.None, []byte("message")
		if j&1 == 1 {
			d := sha3.Sum256(data)
			ph, data = fndsa.SHA3_256, d[:]
		}
		for _, name := range []string{"native", "emu64"} {
			if name == "emu64" && testing.Short() && logn == fndsa2026.MaxLogN {
				continue
			}
			sig, err := k.Sign(backend(t, name), []byte("domain"), ph, data, bytes.NewReader(ss))
			if err != nil {
				t.Fatal(err)
			}
			h := sha3.New256()
			h.Write(k.Encode())
			h.Write(k.VerifyingKey())
			h.Write(sig)
			if got := hex.EncodeToString(h.Sum(nil)); got != want {
				t.Fatalf("%s: logn %d j %d: SHA3-256(sk || vk || sig) = %s, want %s", name, logn, j, got, want)
			}
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 90 {
		t.Fatalf("%d KAT vectors, want 90", n)
	}
}
