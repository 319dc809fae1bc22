package falcon

import (
	"github.com/fprlab/fprlab/arith"
)

// The plan stages are arith's (arith.PlanStage, arith.Staged,
// arith.RunForker: the vocabulary an arithmetic and the signer share, so
// that package arith/plan does not depend on Falcon). Falcon tells a Staged
// arithmetic where each stage begins; these names keep the signer's code
// and the code written against them short.
type (
	PlanStage        = arith.PlanStage
	Staged           = arith.Staged
	RunForker[A any] = arith.RunForker[A]
)

// The plan stages (see arith.PlanFFT and the following).
const (
	PlanFFT        = arith.PlanFFT
	PlanGram       = arith.PlanGram
	PlanLDL        = arith.PlanLDL
	PlanLeaf       = arith.PlanLeaf
	PlanTarget     = arith.PlanTarget
	PlanFFSampling = arith.PlanFFSampling
	PlanSampler    = arith.PlanSampler
	PlanExpm       = arith.PlanExpm
	PlanLattice    = arith.PlanLattice
	NumPlanStages  = arith.NumPlanStages
)

// ForRun returns the arithmetic one run (an attempt, a key expansion)
// uses: a's ForRun copy when a is a RunForker -- typed as A, or as the
// arith.Arith[F] interface for an arithmetic instantiated with its concrete
// type (Instantiate with a *plan.Arith) -- else a itself. Tools that wrap
// an arithmetic per run (the shadow's pair) fork it the same way.
func ForRun[F any, A arith.Arith[F]](a A) A {
	if f, ok := any(a).(RunForker[A]); ok {
		return f.ForRun()
	}
	if f, ok := any(a).(RunForker[arith.Arith[F]]); ok {
		if fa, ok := f.ForRun().(A); ok {
			return fa
		}
	}
	return a
}

// runArith is ForRun of the engine's arithmetic.
func (e *engineOf[F, A]) runArith() A { return ForRun[F](e.a) }

// enterStage tells st (nil for none) that stage s begins and returns the
// previous stage.
func enterStage(st Staged, s PlanStage) PlanStage {
	if st == nil {
		return s
	}
	return st.EnterStage(s)
}
