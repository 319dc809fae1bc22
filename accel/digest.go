package accel

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math"
	"sync"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// Bit-exactness of a datapath, tested on every result rather than on the
// KAT files.
//
// A KAT record matching says only that the signature and keys came out the
// same. Falcon absorbs many wrong results on the way: a rounding error in
// ffSampling moves a sampler centre by an ulp, which almost never changes
// the integer it samples, and key generation rejects and retries. A
// packing stage that truncates ties instead of rounding them to even, or a
// mantissa product wrong on one product in 65,536, still regenerates the
// KAT records (TestDigestCatchesFaults). A Digesting wrapper therefore
// hashes, in call order, the result of every arithmetic operation (every
// rounded fpr result, and the integer and comparison results) and every
// output z of the sampler: two runs with equal digests computed the same
// values in the same order.
//
// The digest is order-sensitive, which is what makes it strong, and so
// needs a sequential run: Falcon's key generation and signing make no
// goroutines.

// ResultDigest is the digest of a run: the number of operation results and
// sampler outputs hashed, and the SHA-256 of their sequence (each entry
// one byte for the operation, arith.Op or digestSample, then its result as
// 8 little-endian bytes).
type ResultDigest struct {
	Results uint64 `json:"results"`
	Samples uint64 `json:"sampler_outputs"`
	SHA256  string `json:"sha256"`
}

// String prints the digest for a report.
func (r ResultDigest) String() string {
	return fmt.Sprintf("%d results, %d sampler outputs, sha256 %s", r.Results, r.Samples, r.SHA256)
}

// digestSample tags a sampler output in the hashed sequence.
const digestSample = 0xff

// Digesting is an arith.Arith[emu64.FPR] that forwards to the arithmetic it
// wraps and hashes every result, and a falcon.Observer that hashes the
// sampler's outputs. Calls from several goroutines are serialised, but only
// a sequential run gives a reproducible digest.
type Digesting struct {
	arith.Arith[emu64.FPR]
	mu               sync.Mutex
	h                hash.Hash
	buf              []byte
	results, samples uint64
}

var (
	_ arith.Arith[emu64.FPR]     = (*Digesting)(nil)
	_ falcon.Observer[emu64.FPR] = (*Digesting)(nil)
)

// NewDigesting returns a digesting wrapper around a (not nil).
func NewDigesting(a arith.Arith[emu64.FPR]) *Digesting {
	return &Digesting{Arith: a, h: sha256.New(), buf: make([]byte, 0, 4096)}
}

func (d *Digesting) put(tag byte, v uint64, sample bool) {
	d.mu.Lock()
	d.buf = append(d.buf, tag)
	d.buf = binary.LittleEndian.AppendUint64(d.buf, v)
	if len(d.buf) > cap(d.buf)-9 {
		d.h.Write(d.buf)
		d.buf = d.buf[:0]
	}
	if sample {
		d.samples++
	} else {
		d.results++
	}
	d.mu.Unlock()
}

func (d *Digesting) fpr(o arith.Op, x emu64.FPR) emu64.FPR {
	d.put(byte(o), uint64(x), false)
	return x
}

func (d *Digesting) integer(o arith.Op, x int64) int64 {
	d.put(byte(o), uint64(x), false)
	return x
}

// Digest returns the digest of the results so far.
func (d *Digesting) Digest() ResultDigest {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.h.Write(d.buf)
	d.buf = d.buf[:0]
	return ResultDigest{Results: d.results, Samples: d.samples, SHA256: hex.EncodeToString(d.h.Sum(nil))}
}

// Backend returns b running on d, with d as Falcon's observer (for the
// sampler's outputs), named "<b.Name>+digest". b's Impl should be the
// arithmetic d wraps; Backend does not check it.
func (d *Digesting) Backend(b arith.Backend) arith.Backend {
	b.Name += "+digest"
	return falcon.Instantiate[emu64.FPR](b, d, d)
}

func (d *Digesting) Of(i int64) emu64.FPR { return d.fpr(arith.OpOf, d.Arith.Of(i)) }
func (d *Digesting) Scaled(i int64, e int) emu64.FPR {
	return d.fpr(arith.OpScaled, d.Arith.Scaled(i, e))
}
func (d *Digesting) FromFloat64(x float64) emu64.FPR {
	return d.fpr(arith.OpFromFloat64, d.Arith.FromFloat64(x))
}
func (d *Digesting) Add(x, y emu64.FPR) emu64.FPR { return d.fpr(arith.OpAdd, d.Arith.Add(x, y)) }
func (d *Digesting) Sub(x, y emu64.FPR) emu64.FPR { return d.fpr(arith.OpSub, d.Arith.Sub(x, y)) }
func (d *Digesting) Neg(x emu64.FPR) emu64.FPR    { return d.fpr(arith.OpNeg, d.Arith.Neg(x)) }
func (d *Digesting) Half(x emu64.FPR) emu64.FPR   { return d.fpr(arith.OpHalf, d.Arith.Half(x)) }
func (d *Digesting) Double(x emu64.FPR) emu64.FPR { return d.fpr(arith.OpDouble, d.Arith.Double(x)) }
func (d *Digesting) Mul(x, y emu64.FPR) emu64.FPR { return d.fpr(arith.OpMul, d.Arith.Mul(x, y)) }
func (d *Digesting) Sqr(x emu64.FPR) emu64.FPR    { return d.fpr(arith.OpSqr, d.Arith.Sqr(x)) }
func (d *Digesting) Inv(x emu64.FPR) emu64.FPR    { return d.fpr(arith.OpInv, d.Arith.Inv(x)) }
func (d *Digesting) Div(x, y emu64.FPR) emu64.FPR { return d.fpr(arith.OpDiv, d.Arith.Div(x, y)) }
func (d *Digesting) Sqrt(x emu64.FPR) emu64.FPR   { return d.fpr(arith.OpSqrt, d.Arith.Sqrt(x)) }
func (d *Digesting) Rint(x emu64.FPR) int64       { return d.integer(arith.OpRint, d.Arith.Rint(x)) }
func (d *Digesting) Floor(x emu64.FPR) int64      { return d.integer(arith.OpFloor, d.Arith.Floor(x)) }
func (d *Digesting) Trunc(x emu64.FPR) int64      { return d.integer(arith.OpTrunc, d.Arith.Trunc(x)) }
func (d *Digesting) Lt(x, y emu64.FPR) bool {
	r := d.Arith.Lt(x, y)
	var v int64
	if r {
		v = 1
	}
	d.integer(arith.OpLt, v)
	return r
}
func (d *Digesting) ExpmP63(x, ccs emu64.FPR) uint64 {
	r := d.Arith.ExpmP63(x, ccs)
	d.put(byte(arith.OpExpmP63), r, false)
	return r
}
func (d *Digesting) Float64(x emu64.FPR) float64 {
	r := d.Arith.Float64(x)
	d.put(byte(arith.OpFloat64), math.Float64bits(r), false)
	return r
}

// Sample hashes the sampler's output z (the observer's other events carry
// values already hashed as results).
func (d *Digesting) Sample(mu, isigma emu64.FPR, z int64, rejections int) {
	d.put(digestSample, uint64(z), true)
}

func (d *Digesting) Stage(falcon.Stage, int, int, ...[]emu64.FPR) {}
func (d *Digesting) BerExp(uint64, uint, uint64, int, bool)       {}
func (d *Digesting) Attempt(*falcon.Attempt)                      {}

// DigestKATRecord regenerates NIST KAT record r of degree 2^logn with keys
// and signature over b (whose Impl must be an arith.Arith[emu64.FPR]) and
// returns the generated record and the digest of every result and sampler
// output. The caller compares the record with the published one and the
// digest with emu64's (DigestKATRecord over plain emu64).
func DigestKATRecord(b arith.Backend, logn uint, r int) (*falcon.KATRecord, ResultDigest, error) {
	a, ok := b.Impl.(arith.Arith[emu64.FPR])
	if !ok {
		return nil, ResultDigest{}, fmt.Errorf("accel: backend %s does not compute on emu64 values", b.Name)
	}
	rec, err := falcon.KATRequest(r)
	if err != nil {
		return nil, ResultDigest{}, fmt.Errorf("accel: %w", err)
	}
	d := NewDigesting(a)
	if err := falcon.GenerateKAT(logn, &rec, falcon.KATOptions{Keygen: d.Backend(b)}); err != nil {
		return nil, ResultDigest{}, err
	}
	return &rec, d.Digest(), nil
}
