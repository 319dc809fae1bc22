package accel

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// record0Latency is the latency model of Falcon-512 record 0 with units
// whose figures are easy to follow by hand: 2 cycles per transition, 3 per
// stack word, 5 per transferred word, 2 butterflies and 4 fpr operations
// per cycle.
func record0Latency(t *testing.T) *SignLatency {
	t.Helper()
	u := DefaultSignUnits
	u.TransitionCycles, u.StackWordCycles, u.TransferCycles, u.FFTButterflies, u.FPROpsPerCycle = 2, 3, 5, 2, 4
	l, err := ModelSignLatency(9, 1, u)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestSignLatencyRecord0 checks the latency model on Falcon-512 record 0
// (one attempt) against figures by hand: 2 x 512 transferred words; 6 x
// 511 + 2 x 512 = 4,090 transitions (the state machine's count, docs/accel.md)
// plus 2 x 2 x 511 pushes and pops of 8 words = 16,352 stack cycles; 512
// leaf pairs; and the stage counts, which must cover every arithmetic call
// of the signature as a plain counter over emu64 sees it.
func TestSignLatencyRecord0(t *testing.T) {
	l := record0Latency(t)
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

// TestSignLatencyText prints accel latency on Falcon-512 record 0 with the
// units of TestSignLatencyRecord0: a row per part with the figures by hand
// (2 x 512 words at 5 cycles; 4,090 transitions at 2 cycles plus 16,352
// stack words at 3; 512 leaf pairs), shares that add up to 100 %, the
// total (the parts' sum), and the units' throughputs.
func TestSignLatencyText(t *testing.T) {
	l := record0Latency(t)
	text := writeText(t, func(b *strings.Builder) error { return l.WriteText(b) })
	wantText(t, text, "Falcon-512 signing, mean per signature over the first 1 NIST KAT records (1.00 attempts per signature)",
		"1024.0 32-bit words             5120 ",
		"4090.0 transitions             57236 ",
		"512.0 leaf pairs ",
		"Units: 2 butterflies/cycle, 4 fpr ops/cycle, 2 cycles/transition, 3 cycles/stack word,\n5 cycles/transferred word; SamplerZ")
	var rows int
	var share, cycles float64
	num := func(s string) float64 {
		x, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		switch {
		case strings.HasSuffix(line, "%\n"):
			rows++
			cycles += num(f[len(f)-2])
			share += num(f[len(f)-1])
		case strings.HasPrefix(line, "total "):
			if len(f) != 2 || f[1] != fmt.Sprintf("%.0f", l.Cycles) || math.Abs(num(f[1])-cycles) > 0.5*float64(rows) {
				t.Errorf("total %q, want %.0f, the parts' sum", line, l.Cycles)
			}
		}
	}
	if rows != len(l.Parts) || math.Abs(share-100) > 0.05*float64(rows) {
		t.Errorf("%d rows sharing %.1f %%, want %d adding up to 100 %%:\n%s", rows, share, len(l.Parts), text)
	}
	if !strings.Contains(text, "SamplerZ ("+l.Units.Sampler+")") {
		t.Errorf("no row of the sampler %q:\n%s", l.Units.Sampler, text)
	}
}
