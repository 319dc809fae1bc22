package arith

import "fmt"

// Precision plans: the hooks through which an arithmetic learns which part
// of signing it computes.
//
// A hardware signer need not run all of signing on one datapath: the basis
// FFT, the Gram matrix, the ffLDL tree, the leaf normalisation, the target,
// the ffSampling updates, the sampler's arithmetic and expm_p63 can each
// have their own width (the question of mixed-precision tuning, as
// Precimonious -- Rubio-Gonzalez et al., SC 2013 -- asks it of ordinary
// programs). An arithmetic that implements Staged is told, at every
// boundary between these parts, which one the following operations belong
// to; package arith/plan uses it to compute each part in its own format.
// Package falcon calls the hooks; other arithmetics are never called: the
// hooks cost a nil test per boundary (per polynomial operation group, per
// sampler call).

// PlanStage is a part of signing a precision plan can compute in its own
// format.
type PlanStage int

// The plan stages.
const (
	// PlanFFT: the basis B in FFT form (conversion of f, g, F, G and
	// their FFTs), including its recomputation for the final product on
	// the dynamic path.
	PlanFFT PlanStage = iota
	// PlanGram: the Gram matrix B B*.
	PlanGram
	// PlanLDL: the ffLDL tree: the LDL* step at each level and the
	// splits of d00 and d11 into the subtrees' matrices.
	PlanLDL
	// PlanLeaf: the leaf normalisation sqrt(leaf)/sigma.
	PlanLeaf
	// PlanTarget: the target (hm, 0) B^-1: the FFT of hm and its
	// products with the basis and 1/q.
	PlanTarget
	// PlanFFSampling: ffSampling's splits and merges of the target and
	// its updates t0 + (t1 - z1) l10.
	PlanFFSampling
	// PlanSampler: SamplerZ's arithmetic: the sampler's constants, the
	// centre's reduction, dss and ccs, the Bernoulli argument and its
	// reduction by ln 2. The stage of the caller is restored on return.
	PlanSampler
	// PlanExpm: expm_p63. Signing never enters it: an arithmetic
	// computes its ExpmP63 in this stage's format wherever it is called.
	// FN-DSA signing never calls ExpmP63 (its ApproxExp is integer
	// arithmetic on two truncations, which are PlanSampler operations), so
	// the stage holds none of FN-DSA's operations.
	PlanExpm
	// PlanLattice: the lattice point (z0, z1) B and its inverse FFT.
	PlanLattice
	// NumPlanStages is the number of plan stages.
	NumPlanStages
)

var planStageNames = [NumPlanStages]string{
	"fft", "gram", "ldl", "leaf", "target", "ffsampling", "sampler", "expm", "lattice",
}

// String returns the stage's name as plans spell it, e.g. "ldl".
func (s PlanStage) String() string {
	if s < 0 || s >= NumPlanStages {
		return fmt.Sprintf("PlanStage(%d)", int(s))
	}
	return planStageNames[s]
}

// ParsePlanStage returns the stage named name ("fft", "gram", "ldl",
// "leaf", "target", "ffsampling", "sampler", "expm", "lattice").
func ParsePlanStage(name string) (PlanStage, bool) {
	for i, n := range planStageNames {
		if n == name {
			return PlanStage(i), true
		}
	}
	return 0, false
}

// Staged is implemented by an arithmetic whose operations depend on the
// part of signing they belong to. EnterStage is called before the
// operations of stage s and returns the stage that was current.
type Staged interface {
	EnterStage(s PlanStage) (prev PlanStage)
}

// RunForker is implemented by a Staged arithmetic A whose current stage is
// state: ForRun returns a copy with a stage of its own, which one signing
// run (an attempt, a key expansion) uses, so that concurrent runs over one
// backend do not share it.
type RunForker[A any] interface {
	ForRun() A
}
