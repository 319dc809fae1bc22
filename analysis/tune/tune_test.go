package tune

import (
	"context"
	"math"
	"testing"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	_ "github.com/fprlab/fprlab/valuetype"
)

// The per-stage counts add up to what the operation counter of package
// accel counts over the same signatures, and every stage computes.
func TestCountStagesMatchesCounter(t *testing.T) {
	cfg := shadow.Config{LogN: 6, Signatures: 3, Keys: 1, Seed: "count", Shadow: shadow.ShadowDD, Sigma: shadow.SigmaFormula, KeygenBackend: "emu64", Workers: 1}
	ops, err := CountStages(3, func(b arith.Backend) error {
		_, err := shadow.Run(context.Background(), b, cfg)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	c := accel.NewCounting[float64](native.Arith{})
	b := c.Backend(arith.Backend{Name: "native", Bits: 53, Impl: native.Arith{}})
	if _, err := shadow.Run(context.Background(), b, cfg); err != nil {
		t.Fatal(err)
	}
	calls := c.Calls()
	want := map[arith.Op]uint64{arith.OpAdd: calls.Add, arith.OpMul: calls.Mul, arith.OpSqrt: calls.Sqrt, arith.OpExpmP63: calls.ExpmP63, arith.OpFloor: calls.Floor}
	for o, w := range want {
		sum := 0.0
		for s := range ops {
			sum += ops[s][o]
		}
		if math.Abs(sum*3-float64(w)) > 1e-6 {
			t.Errorf("%s: stages sum to %g calls over 3 signatures, the counter counts %d", o, sum*3, w)
		}
	}
	for _, s := range []arith.PlanStage{arith.PlanFFT, arith.PlanGram, arith.PlanLDL, arith.PlanLeaf, arith.PlanTarget, arith.PlanFFSampling, arith.PlanSampler, arith.PlanLattice} {
		if a, _, _, _ := opClasses(ops[s]); a == 0 && s != arith.PlanFFSampling {
			// ffsampling multiplies too (the update); every stage but
			// none should have products.
			t.Errorf("stage %s: no products counted", s)
		}
	}
	if ops[arith.PlanExpm][arith.OpExpmP63] == 0 || ops[arith.PlanSampler][arith.OpExpmP63] != 0 {
		t.Errorf("expm_p63 counted in the wrong stage: expm %g, sampler %g", ops[arith.PlanExpm][arith.OpExpmP63], ops[arith.PlanSampler][arith.OpExpmP63])
	}
	// Leaves: one sqrt per tree leaf, 2^6 per attempt.
	if got := ops[arith.PlanLeaf][arith.OpSqrt]; got < 64 {
		t.Errorf("leaf stage: %g square roots per signature, want at least 64", got)
	}
}

func TestCostModels(t *testing.T) {
	var ops StageOps
	ops[arith.PlanGram][arith.OpMul] = 100
	ops[arith.PlanGram][arith.OpAdd] = 50
	ops[arith.PlanExpm][arith.OpExpmP63] = 2
	var w Widths
	for i := range w {
		w[i] = 53
	}
	// bits: (100 + 50) * 53 + 2 * 27 * 53.
	if got, want := CostBits.Cost(ops, w), float64(150*53+2*27*53); got != want {
		t.Errorf("bits cost %g, want %g", got, want)
	}
	// accel: a 53-bit product on 24x17 tiles is 3 x 4 = 12 blocks, a
	// 53-bit addition one 48-bit adder... (53+3)/48 rounds up to 2.
	if got, want := CostAccel.Cost(ops, w), float64(100*12+50*2+2*(14*12+13*2)); got != want {
		t.Errorf("accel cost %g, want %g", got, want)
	}
	w[arith.PlanGram] = 40 // 2 x 3 = 6 blocks, 1 adder
	if got, want := CostAccel.Cost(ops, w), float64(100*6+50*1+2*(14*12+13*2)); got != want {
		t.Errorf("accel cost at 40 bits %g, want %g", got, want)
	}
}

// A small search: it ends on a plan that meets the target, cheaper than
// the uniform one, confirmed on fresh signatures, with a front sorted by
// cost.
func TestSearchSmall(t *testing.T) {
	cfg := Config{
		LogN: 5, TargetLog2: -40, MarginBits: 0.5, Statistic: PerSignatureWorst, Cost: CostBits,
		Signatures: 3, Keys: 1, ConfirmSignatures: 3, Seed: "tune-test", Format: "vprec:%d",
		Start: 56, Step: 16, Floor: 24, Workers: 2,
	}
	var lines int
	cfg.Progress = func(string) { lines++ }
	res, err := Search(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Uniform.Meets || !res.Chosen.Meets || res.Chosen.Cost >= res.Uniform.Cost {
		t.Fatalf("uniform %+v, chosen %+v", res.Uniform, res.Chosen)
	}
	if res.Chosen.Confirmation == nil || res.Chosen.Confirmation.Seed == res.Chosen.Seed {
		t.Fatalf("chosen plan not confirmed on fresh signatures: %+v", res.Chosen.Confirmation)
	}
	narrowSampler := 0
	for i, e := range res.Evaluations {
		limit := cfg.TargetLog2 - cfg.MarginBits
		accOK := e.AcceptanceMaxLog2 == nil || *e.AcceptanceMaxLog2 <= limit+math.Log2(math.Sqrt(154)/1.312)
		if e.Meets != (float64(e.ErrorLog2) <= limit && e.Flips == 0 && accOK) {
			t.Errorf("evaluation %d: meets %v with 2^%g, acceptance %v", i, e.Meets, e.ErrorLog2, e.AcceptanceMaxLog2)
		}
		// A 24-bit sampler or expm_p63 misplaces the acceptance
		// probabilities by far more than the budget, flip or no flip.
		if e.Widths[arith.PlanSampler] <= 24 || e.Widths[arith.PlanExpm] <= 24 {
			narrowSampler++
			if e.Meets || accOK {
				t.Errorf("evaluation %d (%s): a 24-bit sampler stage within the acceptance budget (2^%v)", i, e.Plan, *e.AcceptanceMaxLog2)
			}
		}
	}
	if narrowSampler == 0 {
		t.Error("the search never tried a 24-bit sampler or expm stage")
	}
	for i := 1; i < len(res.Pareto); i++ {
		if res.Pareto[i].Cost < res.Pareto[i-1].Cost || res.Pareto[i].ErrorLog2 >= res.Pareto[i-1].ErrorLog2 {
			t.Errorf("front not sorted by cost with falling error at %d", i)
		}
	}
	if lines != len(res.Evaluations)+res.Confirmations {
		t.Errorf("%d progress lines for %d measurements", lines, len(res.Evaluations)+res.Confirmations)
	}
	if !res.Chosen.Confirmation.Meets {
		t.Errorf("chosen plan %s misses on fresh signatures", res.Chosen.Plan)
	}
	t.Logf("chosen %s: 2^%.2f, cost %.4g (uniform 2^%.2f, %.4g); %d measurements", res.Chosen.Plan, res.Chosen.ErrorLog2, res.Chosen.Cost, res.Uniform.ErrorLog2, res.Uniform.Cost, len(res.Evaluations))
}
