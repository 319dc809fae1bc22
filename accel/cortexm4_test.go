package accel

import (
	"math"
	"testing"
)

// TestPredictCortexM4F checks the Cortex-M4F estimate on one record: both
// backends run the same signing algorithm on the same random stream, so
// they make the same priced calls; the leaves' square roots are n per
// attempt (Falcon-512 record 0 signs in one attempt); the cycles are the
// calls times TWFalcon's per-operation figures, typed in here from the
// paper (add 171/80, mul 76/45, div 223/460, sqrt 244/612).
func TestPredictCortexM4F(t *testing.T) {
	p, err := PredictCortexM4F(9, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i := range p.TriwordOps {
		if p.TriwordOps[i] != p.Emu64Ops[i] {
			t.Errorf("%s: triword %v calls, emu64 %v", CortexM4FCosts[i].Op, p.TriwordOps[i], p.Emu64Ops[i])
		}
	}
	if p.Emu64Ops[3] != 512 {
		t.Errorf("sqrt calls %v, want 512", p.Emu64Ops[3])
	}
	o := p.Emu64Ops
	tw := o[0]*171 + o[1]*76 + o[2]*223 + o[3]*244
	em := o[0]*80 + o[1]*45 + o[2]*460 + o[3]*612
	if math.Abs(p.TriwordCycles-tw) > 1e-6 || math.Abs(p.Emu64Cycles-em) > 1e-6 || math.Abs(p.Ratio-tw/em) > 1e-12 {
		t.Errorf("cycles %v, %v, ratio %v; want %v, %v, %v", p.TriwordCycles, p.Emu64Cycles, p.Ratio, tw, em, tw/em)
	}
	t.Logf("predicted triword %.1fM, emu64 %.1fM, %.2fx (TWFalcon: 40.7M, 22.5M, 1.84x)", tw/1e6, em/1e6, tw/em)
	if _, err := PredictCortexM4F(9, 0); err == nil {
		t.Error("0 records accepted")
	}
}
