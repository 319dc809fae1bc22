package accel

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// KATSamplerAttempts signs the first records NIST KAT requests of degree
// 2^logn with signing arithmetic over the named backend (keys over emu64,
// as the reference's) and returns the attempts per sample of every
// SamplerZ call made, in order (SamplerTrace): the accept/reject sequence
// of real signing, which Pipeline.SimulatePairs consumes. The backend must
// hold emu64.FPR or float64 values (emu64, native).
func KATSamplerAttempts(backend string, logn uint, records int) ([]int, error) {
	if records < 1 {
		return nil, fmt.Errorf("accel: %d KAT records: need at least one", records)
	}
	if _, err := falcon.KATName(logn); err != nil {
		return nil, err
	}
	kb, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	sb, err := arith.Lookup(backend)
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	var (
		traced  arith.Backend
		attempt func() []int
	)
	switch a := sb.Impl.(type) {
	case arith.Arith[emu64.FPR]:
		tr := NewSamplerTrace(a)
		traced, attempt = tr.Backend(sb), tr.Attempts
	case arith.Arith[float64]:
		tr := NewSamplerTrace(a)
		traced, attempt = tr.Backend(sb), tr.Attempts
	default:
		return nil, fmt.Errorf("accel: backend %q: sampler traces are implemented for emu64.FPR and float64 values, not %T", backend, sb.Impl)
	}
	reqs := falcon.KATRequests(records)
	for i := range reqs {
		if err := falcon.GenerateKATRecordSplit(kb, traced, logn, &reqs[i]); err != nil {
			return nil, err
		}
	}
	att := attempt()
	for i, k := range att {
		if k < 1 {
			return nil, fmt.Errorf("accel: sample %d of the trace has no attempt: the sampler's call structure is not the one SamplerTrace reads", i)
		}
	}
	return att, nil
}
