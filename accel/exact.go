package accel

import (
	"context"
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
)

// The exactness checks of the datapath models: a datapath claimed to be
// bit-exact regenerates the KAT record with the digest of every result and
// sampler output taken (Digesting), and must give emu64's digest, not only
// the published record -- a fault that leaves the record intact (a tie
// rounded the wrong way in a value no output depends on) still shows in
// the digest.

// ExactCheck is one datapath's check on one record.
type ExactCheck struct {
	// KATMatch: the regenerated record equals the published one.
	KATMatch bool `json:"kat_match"`
	// Digest is the datapath's, Emu64Digest emu64's on the same record;
	// DigestMatch that they are equal.
	Digest      ResultDigest `json:"digest"`
	Emu64Digest ResultDigest `json:"emu64_digest"`
	DigestMatch bool         `json:"digest_match"`
}

// Exact reports whether the datapath computed emu64's results and the
// published record.
func (c ExactCheck) Exact() bool { return c.KATMatch && c.DigestMatch }

// Verdict is the check for a report line.
func (c ExactCheck) Verdict() string {
	switch {
	case c.Exact():
		return "exact"
	case c.KATMatch:
		return "DIGEST DIFFERS (KAT ok)"
	case c.DigestMatch:
		return "KAT DIFFERS"
	}
	return "DIFFERS"
}

// ExactChecker checks datapaths on NIST KAT record Record of degree
// 2^LogN, computing emu64's digest of the record once for all of them.
type ExactChecker struct {
	LogN   uint
	Record int
	d      *ResultDigest
}

// Emu64Digest is emu64's digest of the record.
func (e *ExactChecker) Emu64Digest() (ResultDigest, error) {
	if e.d == nil {
		_, d, err := DigestKATRecord(arith.Backend{Name: "emu64", Bits: 53, Impl: emu64.Arith{}}, e.LogN, e.Record)
		if err != nil {
			return ResultDigest{}, err
		}
		e.d = &d
	}
	return *e.d, nil
}

// Check regenerates the record over b and compares it with the published
// record and its digest with emu64's.
func (e *ExactChecker) Check(b arith.Backend) (ExactCheck, error) {
	want, err := e.Emu64Digest()
	if err != nil {
		return ExactCheck{}, err
	}
	rec, got, err := DigestKATRecord(b, e.LogN, e.Record)
	if err != nil {
		return ExactCheck{}, err
	}
	return ExactCheck{KATMatch: CheckPublished(e.LogN, rec) == nil, Digest: got, Emu64Digest: want, DigestMatch: got == want}, nil
}

// CheckPublished compares a generated record with the published one: a
// difference would mean the numbers describe some other computation.
func CheckPublished(logn uint, r *falcon.KATRecord) error {
	data, err := katref.Response(logn)
	if err != nil {
		return err
	}
	_, recs, err := falcon.ParseKAT(data)
	if err != nil {
		return err
	}
	if r.Count >= len(recs) {
		return fmt.Errorf("the published KAT file has no record %d", r.Count)
	}
	if m := falcon.CompareKATRecord(r, &recs[r.Count]); m != nil {
		return fmt.Errorf("record %d differs from the published KAT in %s at byte %d", m.Record, m.Field, m.Offset)
	}
	return nil
}

// CountPublishedRecord counts NIST KAT record count of degree 2^logn
// (CountKATRecord) and checks it against the published file.
func CountPublishedRecord(logn uint, count int) (*KATCounts, error) {
	k, err := CountKATRecord(logn, count)
	if err != nil {
		return nil, err
	}
	if err := CheckPublished(logn, &k.Record); err != nil {
		return nil, err
	}
	return k, nil
}

// CountKATPhases counts the unit operations of every phase of the first n
// NIST KAT records of degree 2^logn, each checked against the published
// file, and returns the records' numbers with their counts. It stops with
// ctx's error when ctx is cancelled between records.
func CountKATPhases(ctx context.Context, logn uint, n int) ([]int, [][3]UnitCounts, error) {
	var recs []int
	var counts [][3]UnitCounts
	for r := range n {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		k, err := CountPublishedRecord(logn, r)
		if err != nil {
			return nil, nil, err
		}
		recs = append(recs, r)
		counts = append(counts, PhaseUnitCounts(k))
	}
	return recs, counts, nil
}
