package kat

import (
	"context"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/fndsa"
)

// FNDSAResult is the --json output of fprlab kat --scheme fn-dsa for one
// backend. Scripts depend on it: the field names and meanings are stable.
type FNDSAResult struct {
	Scheme  string `json:"scheme"` // "fn-dsa"
	Backend string `json:"backend"`
	Records int    `json:"records"`
	// MatchKeys counts records whose generated keys are go-fn-dsa's,
	// MatchPins those whose SHA3-256(sk || vk || sig) is go-fn-dsa's pin
	// (keys and signature), Verified those whose signature verifies.
	MatchKeys     int            `json:"match_keys"`
	MatchPins     int            `json:"match_pins"`
	Verified      int            `json:"verified"`
	FirstMismatch *FNDSAMismatch `json:"first_mismatch"`
	// Error is present only when the backend could not sign a record;
	// the run of that backend stops there.
	Error string `json:"error,omitempty"`
}

// FNDSAMismatch locates the first record that differs: field
// "keys" when the keys differ, "signature" when only the signature does.
type FNDSAMismatch struct {
	Record int    `json:"record"`
	LogN   uint   `json:"logn"`
	J      int    `json:"j"`
	Field  string `json:"field"`
}

// RegenerateFNDSA regenerates go-fn-dsa's known-answer records recs with
// keys generated here (integer arithmetic, the same for every backend) and
// signatures over b, and counts the records whose keys, pin and
// verification match. A record b cannot sign stops the run there (Error);
// progress lines go to progress.
func RegenerateFNDSA(ctx context.Context, b arith.Backend, recs []fndsa.KATRecord, progress io.Writer) (FNDSAResult, error) {
	res := FNDSAResult{Scheme: "fn-dsa", Backend: b.Name, Records: len(recs)}
	for i, r := range recs {
		if ctx.Err() != nil {
			return res, ctx.Err()
		}
		got, err := fndsa.RunKAT(b, r)
		if err != nil {
			res.Error = fmt.Sprintf("record %d (degree %d, j %d): %v", i, 1<<r.LogN, r.J, err)
			if res.FirstMismatch == nil {
				res.FirstMismatch = &FNDSAMismatch{Record: i, LogN: r.LogN, J: r.J, Field: "signature"}
			}
			fmt.Fprintf(progress, "kat: fn-dsa over %s: stopped at record %d: %v\n", b.Name, i, err)
			res.Records = i
			break
		}
		if got.KeysMatch {
			res.MatchKeys++
		}
		if got.PinMatch {
			res.MatchPins++
		}
		if got.Verified {
			res.Verified++
		}
		if i+1 == len(recs) || recs[i+1].LogN != r.LogN {
			fmt.Fprintf(progress, "kat: fn-dsa over %s: degree %d done, %d/%d records\n", b.Name, 1<<r.LogN, i+1, len(recs))
		}
		if !got.PinMatch && res.FirstMismatch == nil {
			field := "signature"
			if !got.KeysMatch {
				field = "keys"
			}
			res.FirstMismatch = &FNDSAMismatch{Record: i, LogN: r.LogN, J: r.J, Field: field}
		}
	}
	return res, nil
}
