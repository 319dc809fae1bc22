package main

import (
	"fmt"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
)

// The exactness checks of the accel commands: a datapath claimed to be
// bit-exact regenerates the KAT record with the digest of every result and
// sampler output taken (accel.Digesting), and must give emu64's digest,
// not only the published record.

// exactCheck is one datapath's check on one record.
type exactCheck struct {
	// KATMatch: the regenerated record equals the published one.
	KATMatch bool `json:"kat_match"`
	// Digest is the datapath's, Emu64Digest emu64's on the same record;
	// DigestMatch that they are equal.
	Digest      accel.ResultDigest `json:"digest"`
	Emu64Digest accel.ResultDigest `json:"emu64_digest"`
	DigestMatch bool               `json:"digest_match"`
}

// exact reports whether the datapath computed emu64's results and the
// published record.
func (c exactCheck) exact() bool { return c.KATMatch && c.DigestMatch }

// verdict is the check for a report line.
func (c exactCheck) verdict() string {
	switch {
	case c.exact():
		return "exact"
	case c.KATMatch:
		return "DIGEST DIFFERS (KAT ok)"
	case c.DigestMatch:
		return "KAT DIFFERS"
	}
	return "DIFFERS"
}

// emu64Digester computes emu64's digest of a record once per run.
type emu64Digester struct {
	logn   uint
	record int
	d      *accel.ResultDigest
}

func (e *emu64Digester) digest() (accel.ResultDigest, error) {
	if e.d == nil {
		_, d, err := accel.DigestKATRecord(arith.Backend{Name: "emu64", Bits: 53, Impl: emu64.Arith{}}, e.logn, e.record)
		if err != nil {
			return accel.ResultDigest{}, err
		}
		e.d = &d
	}
	return *e.d, nil
}

// checkExact regenerates the record over b and compares it with the
// published record and its digest with emu64's.
func (e *emu64Digester) checkExact(b arith.Backend) (exactCheck, error) {
	want, err := e.digest()
	if err != nil {
		return exactCheck{}, err
	}
	rec, got, err := accel.DigestKATRecord(b, e.logn, e.record)
	if err != nil {
		return exactCheck{}, err
	}
	return exactCheck{KATMatch: checkPublished(e.logn, rec) == nil, Digest: got, Emu64Digest: want, DigestMatch: got == want}, nil
}

// notExactError is the failure of a command whose datapath is not exact.
func notExactError(what string) error {
	return &exitError{code: exitFalse, err: fmt.Errorf("%s: not bit-exact (see the digests above)", what)}
}
