package falcon_test

import (
	"bufio"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/arith/backends"
	"github.com/fprlab/fprlab/falcon"
)

// The reference's signatures of testdata/reference_modes.txt: keys, messages
// and randomness derived from (logn, k, j) as its header says, signed by the
// reference C (plain and AVX2+FMA builds, falcon_sign_dyn and
// falcon_sign_tree). The rows are the inputs on which those four signatures
// are not all equal, found by signing 300,000 Falcon-512 and 100,000
// Falcon-1024 messages with each.

// refInputs returns the key seed, the signing seed and the message of row
// (logn, k, j).
func refInputs(logn uint, k, j uint32) (keySeed, signSeed, msg []byte) {
	keySeed = binary.BigEndian.AppendUint32([]byte{'K', byte(logn)}, k)
	signSeed = binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte{'S', byte(logn)}, k), j)
	return keySeed, signSeed, fmt.Appendf(nil, "message %d", j)
}

// shakeOf is shake256_init_prng_from_seed(seed): SHAKE256 of seed.
func shakeOf(seed []byte) io.Reader {
	h := sha3.NewSHAKE256()
	h.Write(seed)
	return h
}

// refKeys caches the keys of the rows (one key per (logn, k)).
type refKeys map[[2]uint32]*falcon.PrivateKey

func (c refKeys) key(t *testing.T, b arith.Backend, logn uint, k uint32) *falcon.PrivateKey {
	t.Helper()
	if sk, ok := c[[2]uint32{uint32(logn), k}]; ok {
		return sk
	}
	ks, _, _ := refInputs(logn, k, 0)
	sk, _, err := falcon.Keygen(b, logn, shakeOf(ks))
	if err != nil {
		t.Fatalf("key (%d, %d): %v", logn, k, err)
	}
	c[[2]uint32{uint32(logn), k}] = sk
	return sk
}

// refRow is one row of testdata/reference_modes.txt.
type refRow struct {
	logn uint
	k, j uint32
	// sig[build][mode]: SHA-256 of the signature, build 0 plain, 1 AVX2+FMA;
	// mode falcon.Dyn or falcon.Tree.
	sig [2][2]string
}

func readRefRows(t *testing.T) []refRow {
	t.Helper()
	f, err := os.Open("testdata/reference_modes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []refRow
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 7 {
			t.Fatalf("bad row %q", line)
		}
		var v [3]uint64
		for i := range v {
			if v[i], err = strconv.ParseUint(fs[i], 10, 32); err != nil {
				t.Fatalf("bad row %q: %v", line, err)
			}
		}
		rows = append(rows, refRow{logn: uint(v[0]), k: uint32(v[1]), j: uint32(v[2]),
			sig: [2][2]string{{fs[3], fs[4]}, {fs[5], fs[6]}}})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestReferenceModes checks that falcon.SignMode over native reproduces the
// plain reference build's falcon_sign_dyn and falcon_sign_tree byte for byte
// on every row -- among them the 16 where the two procedures sign
// differently (13 at 512, 3 at 1024) -- and that the file holds such rows.
func TestReferenceModes(t *testing.T) {
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	keys := refKeys{}
	rows := readRefRows(t)
	differ := map[uint]int{}
	for _, r := range rows {
		sk := keys.key(t, b, r.logn, r.k)
		_, ss, msg := refInputs(r.logn, r.k, r.j)
		for _, mode := range []falcon.Mode{falcon.Dyn, falcon.Tree} {
			sig, err := falcon.SignMode(b, sk, msg, falcon.Padded, shakeOf(ss), mode)
			if err != nil {
				t.Fatalf("(%d, %d, %d) %v: %v", r.logn, r.k, r.j, mode, err)
			}
			if got := sha256.Sum256(sig); hex.EncodeToString(got[:]) != r.sig[0][mode] {
				t.Errorf("Falcon-%d key %d message %d: the %v signature is not the reference's", 1<<r.logn, r.k, r.j, mode)
			}
		}
		if r.sig[0][falcon.Dyn] != r.sig[0][falcon.Tree] {
			differ[r.logn]++
		}
	}
	if differ[9] != 13 || differ[10] != 3 {
		t.Errorf("rows where dyn and tree differ: %d at 512, %d at 1024; the file has 13 and 3", differ[9], differ[10])
	}
}

// TestReferenceModesDigest pins 400 consecutive reference signatures
// (Falcon-512, key 0, messages 0..199, dyn and tree): the SHA-256 of the
// lines "k j D T", D and T the first 12 bytes of SHAKE256 of the dyn and
// tree signatures in hex, as the reference's plain build printed them.
func TestReferenceModesDigest(t *testing.T) {
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	const want = "d6b3d90280604acc114c26d9f946698f719ae09223fd126bad4b9037c931ef2a"
	sk := refKeys{}.key(t, b, 9, 0)
	ek, err := falcon.ExpandPrivateKey(b, sk)
	if err != nil {
		t.Fatal(err)
	}
	short := func(sig []byte) string {
		h := make([]byte, 12)
		shakeOf(sig).Read(h)
		return hex.EncodeToString(h)
	}
	d := sha256.New()
	for j := range uint32(200) {
		_, ss, msg := refInputs(9, 0, j)
		dyn, err := falcon.Sign(b, sk, msg, falcon.Padded, shakeOf(ss))
		if err != nil {
			t.Fatal(err)
		}
		tree, err := ek.Sign(msg, falcon.Padded, shakeOf(ss))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(d, "0 %d %s %s\n", j, short(dyn), short(tree))
	}
	if got := hex.EncodeToString(d.Sum(nil)); got != want {
		t.Errorf("digest of 400 signatures %s, the reference's %s", got, want)
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range []falcon.Mode{falcon.Dyn, falcon.Tree} {
		if got, err := falcon.ParseMode(m.String()); err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := falcon.ParseMode("fast"); err == nil {
		t.Error("ParseMode accepted fast")
	}
}
