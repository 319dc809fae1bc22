package diverge_test

import (
	"bufio"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/diverge"
	"github.com/fprlab/fprlab/falcon"
)

// TestReferencePairsRevealKey takes the inputs on which the reference C's
// falcon_sign_dyn and falcon_sign_tree sign differently (its plain build;
// falcon/testdata/reference_modes.txt, found by signing 300,000 Falcon-512
// and 100,000 Falcon-1024 messages with the reference), signs each with
// fprlab in both modes -- byte for byte the reference's signatures, checked
// against the file's SHA-256 -- and hands every pair to Structure and to
// Recover, the leak command's attack: each pair Structure calls
// key-revealing must give back a private key of the signer's public key
// (Recover proves it by signing and verifying), the others must not, and
// the reference's own pairs must hold some of the first kind (Lin,
// Tibouchi, Yu and Zhang measured 35-67 %).
func TestReferencePairsRevealKey(t *testing.T) {
	native := side(t, "native").Backend
	f, err := os.Open("../../falcon/testdata/reference_modes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	shake := func(parts ...[]byte) *sha3.SHAKE {
		h := sha3.NewSHAKE256()
		for _, p := range parts {
			h.Write(p)
		}
		return h
	}
	pairs, revealing := 0, 0
	keys := map[[2]uint64]*falcon.PrivateKey{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) == 0 || strings.HasPrefix(fs[0], "#") {
			continue
		}
		if len(fs) != 7 {
			t.Fatalf("bad row %q", sc.Text())
		}
		if fs[3] == fs[4] {
			continue // the plain build's dyn and tree agree
		}
		var v [3]uint64
		for i := range v {
			if v[i], err = strconv.ParseUint(fs[i], 10, 32); err != nil {
				t.Fatal(err)
			}
		}
		logn, k, j := uint(v[0]), uint32(v[1]), uint32(v[2])
		// The file's derivation: key from SHAKE256("K" || logn || BE32(k)),
		// randomness from SHAKE256("S" || logn || BE32(k) || BE32(j)).
		sk, ok := keys[[2]uint64{v[0], v[1]}]
		if !ok {
			if sk, _, err = falcon.Keygen(native, logn, shake(binary.BigEndian.AppendUint32([]byte{'K', byte(logn)}, k))); err != nil {
				t.Fatal(err)
			}
			keys[[2]uint64{v[0], v[1]}] = sk
		}
		pk, err := sk.Public()
		if err != nil {
			t.Fatal(err)
		}
		seed := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte{'S', byte(logn)}, k), j)
		msg := fmt.Appendf(nil, "message %d", j)
		var sigs [2][]byte
		var s2 [2][]int16
		for m, mode := range []falcon.Mode{falcon.Dyn, falcon.Tree} {
			if sigs[m], err = falcon.SignMode(native, sk, msg, falcon.Padded, shake(seed), mode); err != nil {
				t.Fatal(err)
			}
			if h := sha256.Sum256(sigs[m]); hex.EncodeToString(h[:]) != fs[3+m] {
				t.Fatalf("Falcon-%d key %d message %d: the %v signature is not the reference's", 1<<logn, k, j, mode)
			}
			d, err := falcon.DecodeSignature(sigs[m])
			if err != nil {
				t.Fatal(err)
			}
			s2[m] = d.S2
		}
		pairs++
		d := diverge.Structure(sk, s2[0], s2[1])
		rec, err := diverge.Recover(native, round3Reader(t), pk, msg, sigs[0], sigs[1])
		if err != nil {
			t.Fatalf("Falcon-%d key %d message %d: %v", 1<<logn, k, j, err)
		}
		if got := rec.Key != nil; got != d.KeyRevealing() {
			t.Errorf("Falcon-%d key %d message %d: structure %s (c %d, k %d), key recovered %v (%s)", 1<<logn, k, j, d.Kind, d.C, d.K, got, rec.Reveals)
		}
		if d.KeyRevealing() {
			revealing++
		}
		t.Logf("Falcon-%d key %d message %d: s2_dyn - s2_tree is %s (c %d, k %d, norm %.1f); key recovered: %v", 1<<logn, k, j, d.Kind, d.C, d.K, d.Norm, rec.Key != nil)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	// The pairs are the reference's signatures (pinned by hash above), so
	// their differences are fixed: 10 of the 16 are c x^k f.
	if pairs != 16 || revealing != 10 {
		t.Errorf("%d differing pairs (the file has 16), %d key-revealing (want 10)", pairs, revealing)
	}
}
