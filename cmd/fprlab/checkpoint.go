package main

import (
	"fmt"
	"strconv"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/internal/checkpoint"
)

// errorsCheckpoint is the checkpoint payload of `arith errors`: the
// operations finished so far, keyed by backend and operation, so one file
// serves --backend all and single backends alike, each in the form the
// --json document has (results.OpError).
type errorsCheckpoint struct {
	Done []results.OpError `json:"done"`
}

// find returns the finished result of op on backend, if any.
func (c *errorsCheckpoint) find(backend, op string) (results.OpError, bool) {
	for _, r := range c.Done {
		if r.Backend == backend && r.Op == op {
			return r, true
		}
	}
	return results.OpError{}, false
}

// errorsIdentity is the identity of an `arith errors` checkpoint: the
// flags that determine the statistics (the backend keys the records), and
// the form of its records ("records": "document", results.OpError's JSON;
// a checkpoint of the earlier record form is refused, not misread).
func errorsIdentity(o *arithErrorsOptions) checkpoint.Identity {
	return checkpoint.Identity{Command: "arith errors", Flags: map[string]string{
		"n": strconv.Itoa(o.N), "seed": strconv.FormatUint(o.Seed, 10),
		"emin": strconv.Itoa(o.Emin), "emax": strconv.Itoa(o.Emax),
		"records": "document",
	}, Version: releaseVersion()}
}

// loadErrorsCheckpoint reads --checkpoint, if given (nil without one).
func loadErrorsCheckpoint(o *arithErrorsOptions, s *streams) (*errorsCheckpoint, error) {
	if o.Checkpoint == "" {
		return nil, nil
	}
	s.stopOnInterrupt()
	ckpt := &errorsCheckpoint{}
	if _, err := checkpoint.Load(o.Checkpoint, errorsIdentity(o), ckpt); err != nil {
		return nil, err
	}
	if len(ckpt.Done) > 0 {
		fmt.Fprintf(s.Err, "arith errors: resuming from %s: %d operations already measured\n", o.Checkpoint, len(ckpt.Done))
	}
	return ckpt, nil
}
