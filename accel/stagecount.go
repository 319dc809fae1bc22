package accel

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/plan"
)

// StageOps is the number of calls of each arithmetic operation per plan
// stage, per signature (averaged over the signatures counted).
type StageOps [arith.NumPlanStages][arith.NumOps]float64

// countingFormat is native binary64 counting its calls (Counting) as
// a plan stage's format; converting between binary64 stages is the
// identity.
type countingFormat struct{ *Counting[float64] }

func (countingFormat) Convert(x float64) float64 { return x }

// CountStages counts the operations per plan stage of signing, averaged
// over the signatures of sign, which signs with the backend it is given: a
// precision plan whose every stage is binary64 with a counter of its own.
// The operation counts of a plan do not depend on its formats (only the
// rare extra signing attempts would), so one count prices every plan.
func CountStages(signatures int, sign func(b arith.Backend) error) (StageOps, error) {
	var out StageOps
	if signatures <= 0 {
		return out, fmt.Errorf("accel: count over %d signatures", signatures)
	}
	var stages [arith.NumPlanStages]plan.Format[float64]
	counters := make([]*Counting[float64], len(stages))
	for i := range stages {
		counters[i] = NewCounting[float64](native.Arith{})
		stages[i] = countingFormat{counters[i]}
	}
	b := arith.Backend{Name: "native+stagecount", Bits: 53, ExpBits: 11, Description: "native binary64 counting operations per plan stage", Impl: plan.New[float64](stages)}
	if err := sign(b); err != nil {
		return out, err
	}
	for s := range out {
		for o := range out[s] {
			out[s][o] = float64(counters[s].Count(arith.Op(o))) / float64(signatures)
		}
	}
	return out, nil
}
