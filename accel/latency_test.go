package accel

import (
	"math"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// TestSignLatencyRecord0 checks the latency model on Falcon-512 record 0
// (one attempt) against figures by hand: 2 x 512 transferred words; 6 x
// 511 + 2 x 512 = 4,090 transitions (the state machine's count, docs/accel.md)
// plus 2 x 2 x 511 pushes and pops of 8 words = 16,352 stack cycles; 512
// leaf pairs; and the stage counts, which must cover every arithmetic call
// of the signature as a plain counter over emu64 sees it.
func TestSignLatencyRecord0(t *testing.T) {
	u := DefaultSignUnits
	u.TransitionCycles, u.StackWordCycles, u.TransferCycles, u.FFTButterflies, u.FPROpsPerCycle = 2, 3, 5, 2, 4
	l, err := ModelSignLatency(9, 1, u)
	if err != nil {
		t.Fatal(err)
	}
	p := l.Parts
	if l.Attempts != 1 || p[0].Cycles != 1024*5 || p[3].Work != 4090 || p[3].Cycles != 4090*2+16352*3 || p[4].Work != 512 {
		t.Errorf("parts %+v", p)
	}
	if math.Abs(p[4].Cycles-512*l.CyclesPerPair) > 1e-9 || math.Abs(p[1].Cycles-p[1].Work/20) > 1e-9 || math.Abs(p[2].Cycles-p[2].Work/4) > 1e-9 {
		t.Errorf("throughputs not applied: %+v", p)
	}
	// The stages' operations against a plain counter's calls.
	kb, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	c := NewCounting[emu64.FPR](emu64.Arith{})
	rec, err := falcon.KATRequest(0)
	if err != nil {
		t.Fatal(err)
	}
	if err := falcon.GenerateKAT(9, &rec, falcon.KATOptions{Keygen: kb, Sign: c.Backend(kb)}); err != nil {
		t.Fatal(err)
	}
	var calls float64
	for o := range arith.NumOps {
		if o != arith.OpConst && o != arith.OpGM {
			calls += float64(c.Count(o))
		}
	}
	ops, err := CountStages(1, func(b arith.Backend) error {
		r, err := falcon.KATRequest(0)
		if err != nil {
			return err
		}
		return falcon.GenerateKAT(9, &r, falcon.KATOptions{Keygen: kb, Sign: b})
	})
	if err != nil {
		t.Fatal(err)
	}
	all := stageSum(ops, arith.PlanFFT, arith.PlanGram, arith.PlanLDL, arith.PlanLeaf, arith.PlanTarget, arith.PlanFFSampling, arith.PlanSampler, arith.PlanExpm, arith.PlanLattice)
	if all != calls || p[1].Work+p[2].Work >= calls {
		t.Errorf("stage operations %v (FFT unit %v, actuation %v), counter's calls %v", all, p[1].Work, p[2].Work, calls)
	}
	t.Logf("Falcon-512 record 0: %.0f cycles per signature; %v", l.Cycles, p)
}

func TestSignUnitsErrors(t *testing.T) {
	for _, c := range []struct {
		edit func(*SignUnits)
		want string
	}{
		{func(u *SignUnits) { u.FFTButterflies = 0 }, "FFT butterflies per cycle 0"},
		{func(u *SignUnits) { u.TransferCycles = math.NaN() }, "cycles per transferred word NaN"},
		{func(u *SignUnits) { u.Sampler = "Bi-SamplerZ" }, "no schedule"},
		{func(u *SignUnits) { u.Sampler = "nosuch" }, `unknown sampler "nosuch"`},
	} {
		u := DefaultSignUnits
		c.edit(&u)
		if _, err := ModelSignLatency(9, 1, u); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want %q", err, c.want)
		}
	}
	if _, err := ModelSignLatency(9, 0, DefaultSignUnits); err == nil {
		t.Error("0 records accepted")
	}
}
