package accel

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math/bits"
	"sync"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
)

// katPrefixSHA256 pins the SHA-256 of the published NIST KAT response files
// (falcon/katref) truncated before record n: the header and records 0 to
// n-1, as the generator writes them. The values were computed from the
// published files; checkKATPrefix also compares the text itself.
var katPrefixSHA256 = map[uint]map[int]string{
	9: {
		1:   "f9eb782ff92ed42ac4a496731f939c0dc830a4b34fd2bafabdf096d9ca6429a0",
		2:   "ea3f79a014685435ce5795668a05d1490c70a51c6944d98be556122e652d7b18",
		5:   "e612b7a7f628979d6b1240a5a15b9944b7dd662fdc3bffe2b35f84a76b44d343",
		20:  "2d7ffbf5e5d8bac150cecf56daf0304b66646ab2c9447d2a5e3cc2696577349d",
		100: "dd75c946fdedef4ec46a2bee7e10c65c9126f1a839b9ced6921fd45f7354b5cd",
	},
	10: {
		1:   "68c8f1f2c61778940356348cc01b8c89d52f0eb328c4165030237df026f705c6",
		2:   "d44d823bacd797dde3b892f81deff09181c4280b91fe54d8b8a016d4bb77c371",
		5:   "0bb2eb9547f9bb6c98c97ff1f926971c0bc0c84f36100e261fb072969f1fe080",
		100: "036a0bf5260573cec44977284dfef756cd1143db9961b981bd1fb55828acb20d",
	},
}

// stagedBackend is emu64 with datapath d, as a backend for Falcon.
func stagedBackend(name string, d emu64.Datapath) arith.Backend {
	return arith.Backend{Name: "emu64+" + name, Bits: 53, Impl: emu64.NewStaged(d)}
}

// checkKATPrefix regenerates the first n records of the KAT file of degree
// 2^logn with keys over kb and signatures over sb, and checks the text
// against the published file byte for byte and against its pinned digest.
func checkKATPrefix(t *testing.T, kb, sb arith.Backend, logn uint, n int) {
	t.Helper()
	if err := katPrefixMismatch(kb, sb, logn, n); err != nil {
		t.Error(err)
	}
}

// katPrefixMismatch does the work of checkKATPrefix and returns the
// first difference found, nil when there is none.
func katPrefixMismatch(kb, sb arith.Backend, logn uint, n int) error {
	want, ok := katPrefixSHA256[logn][n]
	if !ok {
		return fmt.Errorf("no pinned digest for %d records of logn %d", n, logn)
	}
	recs := falcon.KATRequests(n)
	for i := range recs {
		if err := falcon.GenerateKAT(logn, &recs[i], falcon.KATOptions{Keygen: kb, Sign: sb}); err != nil {
			return fmt.Errorf("%s/%s logn %d record %d: %w", kb.Name, sb.Name, logn, i, err)
		}
	}
	var buf bytes.Buffer
	if err := falcon.WriteKAT(&buf, logn, recs); err != nil {
		return err
	}
	pub, err := katref.Response(logn)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(pub, buf.Bytes()) {
		_, ref, err := falcon.ParseKAT(pub)
		if err != nil {
			return err
		}
		for i := range recs {
			if m := falcon.CompareKATRecord(&recs[i], &ref[i]); m != nil {
				return fmt.Errorf("%s/%s logn %d record %d: first difference in %s at byte %d", kb.Name, sb.Name, logn, i, m.Field, m.Offset)
			}
		}
		return fmt.Errorf("%s/%s logn %d: text differs from the published file", kb.Name, sb.Name, logn)
	}
	sum := sha256.Sum256(buf.Bytes())
	if got := hex.EncodeToString(sum[:]); got != want {
		return fmt.Errorf("%s/%s logn %d, %d records: SHA-256 %s, want %s", kb.Name, sb.Name, logn, n, got, want)
	}
	return nil
}

// multiplierDatapath routes emu64's products through m: the mantissa
// product of fpr_mul always, and for a 64-bit design also the 64x64
// fixed-point products of fpr_expm_p63.
func multiplierDatapath(m *Multiplier) emu64.Datapath {
	d := emu64.Datapath{MantProduct: m.Product}
	if m.Width == 64 {
		d.FixedProduct = m.Product
	}
	return d
}

// TestMultipliersKAT runs key generation and signing with every multiplier
// design inside emu64 and checks that the NIST KAT files come out
// unchanged: with -short the first Falcon-512 record per design and
// width, otherwise 5 Falcon-512 records and 1 Falcon-1024 record
// (TestMultipliersSameOps compares every rounded result besides).
func TestMultipliersKAT(t *testing.T) {
	n512, n1024 := 5, 1
	if testing.Short() {
		n512, n1024 = 1, 0
	}
	for _, w := range []int{53, 64} {
		for _, name := range MultiplierDesigns {
			m, err := NewMultiplier(name, w)
			if err != nil {
				t.Fatal(err)
			}
			b := stagedBackend(name, multiplierDatapath(m))
			t.Run(fmt.Sprintf("%s/%d", name, w), func(t *testing.T) {
				checkKATPrefix(t, b, b, 9, n512)
				if n1024 > 0 {
					checkKATPrefix(t, b, b, 10, n1024)
				}
			})
		}
	}
}

// TestKATCheckDetects checks that the KAT comparison sees a datapath that
// is wrong on a fraction of its inputs: a product with bit 27 of its high
// word flipped (a relative error of 2^-14) when bits 0..3 of both operands
// are ones (one product in 256), in signing. The KAT records are a weak
// test of a datapath: with bit 24 flipped instead (2^-17), or bit 63 of
// the low word (2^-42), record 0 comes out unchanged -- Falcon's outputs
// are integers that small perturbations rarely move. That is why the
// datapath tests also compare every operation's result (opDigest).
func TestKATCheckDetects(t *testing.T) {
	bad := func(x, y uint64) (uint64, uint64) {
		hi, lo := bits.Mul64(x, y)
		if x&y&0xF == 0xF {
			hi ^= 1 << 27
		}
		return hi, lo
	}
	// Keys over emu64 (a product this wrong makes key generation search
	// for a long time before it gives up), signatures over the bad one.
	kb := arith.Backend{Name: "emu64", Bits: 53, Impl: emu64.Arith{}}
	b := stagedBackend("bad", emu64.Datapath{MantProduct: bad})
	if err := katPrefixMismatch(kb, b, 9, 1); err == nil {
		t.Fatal("a wrong multiplier left the KAT records unchanged")
	} else {
		t.Log(err)
	}
}

// opDigest is an arith.Arith[emu64.FPR] that hashes the result of every
// rounded operation, in order, into a SHA-256: two runs with equal digests
// computed the same bits at every step.
type opDigest struct {
	arith.Arith[emu64.FPR]
	h hash.Hash
}

func newOpDigest(a arith.Arith[emu64.FPR]) *opDigest { return &opDigest{Arith: a, h: sha256.New()} }

func (d *opDigest) put(x emu64.FPR) emu64.FPR {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(x))
	d.h.Write(b[:])
	return x
}

func (d *opDigest) Of(i int64) emu64.FPR            { return d.put(d.Arith.Of(i)) }
func (d *opDigest) Scaled(i int64, e int) emu64.FPR { return d.put(d.Arith.Scaled(i, e)) }
func (d *opDigest) Add(x, y emu64.FPR) emu64.FPR    { return d.put(d.Arith.Add(x, y)) }
func (d *opDigest) Sub(x, y emu64.FPR) emu64.FPR    { return d.put(d.Arith.Sub(x, y)) }
func (d *opDigest) Mul(x, y emu64.FPR) emu64.FPR    { return d.put(d.Arith.Mul(x, y)) }
func (d *opDigest) Sqr(x emu64.FPR) emu64.FPR       { return d.put(d.Arith.Sqr(x)) }
func (d *opDigest) Div(x, y emu64.FPR) emu64.FPR    { return d.put(d.Arith.Div(x, y)) }
func (d *opDigest) Inv(x emu64.FPR) emu64.FPR       { return d.put(d.Arith.Inv(x)) }
func (d *opDigest) Sqrt(x emu64.FPR) emu64.FPR      { return d.put(d.Arith.Sqrt(x)) }
func (d *opDigest) ExpmP63(x, c emu64.FPR) uint64 {
	return uint64(d.put(emu64.FPR(d.Arith.ExpmP63(x, c))))
}

func (d *opDigest) sum() string { return hex.EncodeToString(d.h.Sum(nil)) }

// runDigest runs KAT record 0 of degree 2^logn (key generation and
// signing) over a and returns the digest of every rounded result.
func runDigest(t *testing.T, a arith.Arith[emu64.FPR], logn uint) string {
	t.Helper()
	d := newOpDigest(a)
	b := arith.Backend{Name: "digest", Bits: 53, Impl: d}
	rec := falcon.KATRequests(1)[0]
	if err := falcon.GenerateKAT(logn, &rec, falcon.KATOptions{Keygen: b}); err != nil {
		t.Fatal(err)
	}
	return d.sum()
}

// emu64Digests caches runDigest over plain emu64 per degree.
var emu64Digests sync.Map

func emu64Digest(t *testing.T, logn uint) string {
	if d, ok := emu64Digests.Load(logn); ok {
		return d.(string)
	}
	d := runDigest(t, emu64.Arith{}, logn)
	emu64Digests.Store(logn, d)
	return d
}

// checkSameOps checks that a computes, on KAT record 0 of both degrees,
// the bits emu64 computes at every rounded operation.
func checkSameOps(t *testing.T, name string, a arith.Arith[emu64.FPR]) {
	t.Helper()
	for _, logn := range []uint{9, 10} {
		if testing.Short() && logn == 10 {
			continue
		}
		want := emu64Digest(t, logn)
		if got := runDigest(t, a, logn); got != want {
			t.Errorf("%s logn %d: operation digest %s, emu64 %s", name, logn, got, want)
		}
	}
}

// TestMultipliersSameOps compares every rounded result of a KAT run with
// each multiplier inside emu64 against plain emu64.
func TestMultipliersSameOps(t *testing.T) {
	for _, w := range []int{53, 64} {
		for _, name := range MultiplierDesigns {
			m, err := NewMultiplier(name, w)
			if err != nil {
				t.Fatal(err)
			}
			checkSameOps(t, fmt.Sprintf("%s/%d", name, w), emu64.NewStaged(multiplierDatapath(m)))
		}
	}
	// The digest sees the rare error the KAT records do not.
	bad := func(x, y uint64) (uint64, uint64) {
		hi, lo := bits.Mul64(x, y)
		if x&y&0xFF == 0xFF {
			lo ^= 1 << 52
		}
		return hi, lo
	}
	if runDigest(t, emu64.NewStaged(emu64.Datapath{MantProduct: bad}), 9) == emu64Digest(t, 9) {
		t.Error("a multiplier wrong on one product in 65536 leaves the operation digest unchanged")
	}
}
