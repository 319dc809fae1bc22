package fndsa2026

import (
	"context"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	draft "github.com/fprlab/fprlab/fndsa2026"
	"github.com/fprlab/fprlab/scheme"
)

var _ scheme.KATReplayer = fnDSA2026{}

func (fnDSA2026) KATName() string { return "rust-fn-dsa 0.4.0's test_kat" }

func (fnDSA2026) KATTitle() string {
	return "FN-DSA (2026 draft) KAT of rust-fn-dsa 0.4.0 (fn-dsa test_kat): keys generated here, the same on every\n" +
		"backend; signatures over the backend; SHA3-256(sk||vk||sig) compared with rust-fn-dsa's\n"
}

func (fnDSA2026) KATDegrees() (uint, uint) { return draft.MinLogN, draft.MaxLogN }

// katRecords returns the test's records, those of degree 2^logn only when
// logn is not 0.
func katRecords(logn uint) ([]draft.KATRecord, error) {
	recs, err := draft.KAT()
	if err != nil || logn == 0 {
		return recs, err
	}
	if logn < draft.MinLogN || logn > draft.MaxLogN {
		return nil, fmt.Errorf("fn-dsa-2026: rust-fn-dsa's test_kat has no records of degree %d", 1<<logn)
	}
	var kept []draft.KATRecord
	for _, r := range recs {
		if r.LogN == logn {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

func (fnDSA2026) KATRecords(logn uint) (int, error) {
	recs, err := katRecords(logn)
	return len(recs), err
}

// ReplayKAT regenerates the first n records with keys made here (integer
// arithmetic, the same for every backend) and signatures over b. The test
// publishes one digest of keys and signature together: a record counts in
// MatchKeys when its digest matches over b, or, when it does not, over
// native (binary64, which the draft's implementations use) -- then the
// keys are right and the signature over b differs; a record whose digest
// matches on neither is reported as a keys mismatch.
func (fnDSA2026) ReplayKAT(ctx context.Context, b arith.Backend, logn uint, n int, progress io.Writer) (scheme.KATResult, error) {
	recs, err := katRecords(logn)
	if err != nil {
		return scheme.KATResult{}, err
	}
	if n < 0 || n > len(recs) {
		return scheme.KATResult{}, fmt.Errorf("fn-dsa-2026: %d records asked of rust-fn-dsa's test_kat, which has %d", n, len(recs))
	}
	nat, err := arith.Lookup("native")
	if err != nil {
		return scheme.KATResult{}, err
	}
	recs = recs[:n]
	return scheme.ReplayKATRecords(ctx, "fn-dsa-2026", b, n, func(i int) (uint, int) { return recs[i].LogN, recs[i].J },
		func(i int) (scheme.KATOutcome, error) {
			got, err := draft.RunKAT(b, recs[i])
			if err != nil {
				return scheme.KATOutcome{}, err
			}
			keys := got.PinMatch
			if !keys {
				ref, err := draft.RunKAT(nat, recs[i])
				keys = err == nil && ref.PinMatch
			}
			return scheme.KATOutcome{KeysMatch: keys, PinMatch: got.PinMatch, Verified: got.Verified}, nil
		}, progress)
}
