package main

import (
	"fmt"
	"strconv"

	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/internal/checkpoint"
)

// errorsCheckpoint is the checkpoint payload of `arith errors`: the
// operations finished so far, keyed by backend and operation, so one file
// serves --backend all and single backends alike.
type errorsCheckpoint struct {
	Done []opErrorRecord `json:"done"`
}

// opErrorRecord is analysis.OpError in the checkpoint: log2 values may be
// -Inf (exact), which checkpoint.Float keeps.
type opErrorRecord struct {
	Backend                 string           `json:"backend"`
	Op                      string           `json:"op"`
	Drawn                   int              `json:"drawn"`
	Samples                 int              `json:"samples"`
	MaxRelErrLog2           checkpoint.Float `json:"max_rel_err_log2"`
	MedianRelErrLog2        checkpoint.Float `json:"median_rel_err_log2"`
	RangeMinExp             int              `json:"range_min_exp"`
	HasRange                bool             `json:"has_range"`
	BelowRange              int              `json:"below_range"`
	BelowRangeMaxRelErrLog2 checkpoint.Float `json:"below_range_max_rel_err_log2"`
	BelowRangeMaxAbsErrLog2 checkpoint.Float `json:"below_range_max_abs_err_log2"`
	AboveRange              int              `json:"above_range"`
	BoundLog2               checkpoint.Float `json:"bound_log2"`
	HasBound                bool             `json:"has_bound"`
	WorstX                  checkpoint.Float `json:"worst_x"`
	WorstY                  checkpoint.Float `json:"worst_y"`
	WorstI                  int64            `json:"worst_i"`
}

func recordOf(r analysis.OpError) opErrorRecord {
	return opErrorRecord{
		Backend: r.Backend, Op: r.Op, Drawn: r.Drawn, Samples: r.Samples,
		MaxRelErrLog2: checkpoint.Float(r.MaxRelErrLog2), MedianRelErrLog2: checkpoint.Float(r.MedianRelErrLog2),
		RangeMinExp: r.RangeMinExp, HasRange: r.HasRange, BelowRange: r.BelowRange, AboveRange: r.AboveRange,
		BelowRangeMaxRelErrLog2: checkpoint.Float(r.BelowRangeMaxRelErrLog2),
		BelowRangeMaxAbsErrLog2: checkpoint.Float(r.BelowRangeMaxAbsErrLog2),
		BoundLog2:               checkpoint.Float(r.BoundLog2), HasBound: r.HasBound,
		WorstX: checkpoint.Float(r.Worst.X), WorstY: checkpoint.Float(r.Worst.Y), WorstI: r.Worst.I,
	}
}

func (c opErrorRecord) opError() analysis.OpError {
	return analysis.OpError{
		Backend: c.Backend, Op: c.Op, Drawn: c.Drawn, Samples: c.Samples,
		MaxRelErrLog2: float64(c.MaxRelErrLog2), MedianRelErrLog2: float64(c.MedianRelErrLog2),
		RangeMinExp: c.RangeMinExp, HasRange: c.HasRange, BelowRange: c.BelowRange, AboveRange: c.AboveRange,
		BelowRangeMaxRelErrLog2: float64(c.BelowRangeMaxRelErrLog2),
		BelowRangeMaxAbsErrLog2: float64(c.BelowRangeMaxAbsErrLog2),
		BoundLog2:               float64(c.BoundLog2), HasBound: c.HasBound,
		Worst: analysis.Inputs{X: float64(c.WorstX), Y: float64(c.WorstY), I: c.WorstI},
	}
}

// find returns the finished result of op on backend, if any.
func (c *errorsCheckpoint) find(backend, op string) (analysis.OpError, bool) {
	for _, r := range c.Done {
		if r.Backend == backend && r.Op == op {
			return r.opError(), true
		}
	}
	return analysis.OpError{}, false
}

// errorsIdentity is the identity of an `arith errors` checkpoint: the
// flags that determine the statistics (the backend keys the records).
func errorsIdentity(o *arithErrorsOptions) checkpoint.Identity {
	return checkpoint.Identity{Command: "arith errors", Flags: map[string]string{
		"n": strconv.Itoa(o.N), "seed": strconv.FormatUint(o.Seed, 10),
		"emin": strconv.Itoa(o.Emin), "emax": strconv.Itoa(o.Emax),
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
