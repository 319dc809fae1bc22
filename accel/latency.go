package accel

import (
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/ffsfsm"
)

// End-to-end signing latency of a hardware signer built from units: an
// FFT unit for the FFT-domain polynomial work, an fpr datapath running the
// ffSampling state machine's actuation steps, the state machine's control
// and stack (Peregrino section IV-F), a SamplerZ pipeline for the leaves
// (Vojacek and Novotny, TCHES 2026/4), and the host transfers. The units
// run one after another (signing's steps depend on each other); per
// signature:
//
//	transfers   2n words x TransferCycles: the private key's f, g, F, G
//	            (4n bytes, n words), the hashed message (n 16-bit values,
//	            n/2 words) and the signature's s2 (n/2 words)
//	fft unit    the operations of the plan stages fft, gram, target and
//	            lattice / (10 x FFTButterflies): a radix-2 complex
//	            butterfly is 4 products and 6 additions
//	actuation   the operations of the stages ldl, leaf and ffsampling /
//	            FPROpsPerCycle
//	control     per attempt 6(n-1) + 2n state transitions x
//	            TransitionCycles, and 2(n-1) pushes and as many pops of an
//	            8-word frame x StackWordCycles
//	sampler     the leaves' pairs x the pipeline's cycles per pair,
//	            simulated on the attempts of the same signatures
//
// The operation counts are measured per stage (CountStages) on real
// signatures, the state machine's transitions and leaves by running it
// (ffsfsm.KAT), the sampler's attempts by recording them; the sampler
// stage's own arithmetic and expm_p63 are inside the sampler pipeline.
// The per-unit throughputs are the design's parameters, not published
// figures.

// SignUnits are the throughputs of a signer's units.
type SignUnits struct {
	// FFTButterflies is the FFT unit's complex butterflies per cycle.
	FFTButterflies float64 `json:"fft_butterflies_per_cycle"`
	// FPROpsPerCycle is the fpr datapath's operations per cycle.
	FPROpsPerCycle float64 `json:"fpr_ops_per_cycle"`
	// TransitionCycles is the state machine's cycles per state entered,
	// StackWordCycles its cycles per stack word moved.
	TransitionCycles float64 `json:"transition_cycles"`
	StackWordCycles  float64 `json:"stack_word_cycles"`
	// TransferCycles is the host interface's cycles per 32-bit word.
	TransferCycles float64 `json:"transfer_cycles_per_word"`
	// Sampler is the SamplerZ design (a SamplerDesigns name with a
	// serial or alternating schedule).
	Sampler string `json:"sampler"`
}

// DefaultSignUnits: one butterfly and one fpr operation per cycle, one
// cycle per state and per word, the pipelined SamplerZ.
var DefaultSignUnits = SignUnits{FFTButterflies: 1, FPROpsPerCycle: 1, TransitionCycles: 1, StackWordCycles: 1, TransferCycles: 1,
	Sampler: SamplerDesigns[len(SamplerDesigns)-1].Name}

// fftButterflyOps is the real operations of a radix-2 complex butterfly.
const fftButterflyOps = 10

// frameWords is the state machine's stack frame: six region addresses,
// the degree and the checkpoint.
const frameWords = 8

// LatencyPart is one unit's share of a signature.
type LatencyPart struct {
	Part   string  `json:"part"`
	Work   float64 `json:"work"`
	Unit   string  `json:"work_unit"`
	Cycles float64 `json:"cycles"`
}

// SignLatency is the model's result: mean cycles per signature over the
// signatures of the first Records KAT records.
type SignLatency struct {
	Params   int           `json:"params"`
	Records  int           `json:"records"`
	Units    SignUnits     `json:"units"`
	Attempts float64       `json:"attempts_per_signature"`
	Parts    []LatencyPart `json:"parts"`
	Cycles   float64       `json:"cycles_per_signature"`
	// CyclesPerPair is the sampler pipeline's simulated cycles per leaf
	// pair.
	CyclesPerPair float64 `json:"sampler_cycles_per_pair"`
}

func (u SignUnits) check() (SamplerDesign, error) {
	for _, v := range []struct {
		name string
		x    float64
		pos  bool
	}{{"FFT butterflies per cycle", u.FFTButterflies, true}, {"fpr operations per cycle", u.FPROpsPerCycle, true},
		{"cycles per transition", u.TransitionCycles, false}, {"cycles per stack word", u.StackWordCycles, false}, {"cycles per transferred word", u.TransferCycles, false}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 || v.x > 1e6 || (v.pos && v.x == 0) {
			return SamplerDesign{}, fmt.Errorf("accel: %s %v: want a number up to 1e6 (positive for a throughput)", v.name, v.x)
		}
	}
	for _, d := range SamplerDesigns {
		if d.Name == u.Sampler {
			if d.Model != ModelSerial && d.Model != ModelAlternating {
				return SamplerDesign{}, fmt.Errorf("accel: sampler %q has no schedule to simulate (%s)", d.Name, d.Model)
			}
			return d, nil
		}
	}
	return SamplerDesign{}, fmt.Errorf("accel: unknown sampler %q", u.Sampler)
}

// stageSum is the operations of the given stages (table reads excluded:
// they cost no operation).
func stageSum(ops StageOps, stages ...arith.PlanStage) float64 {
	var t float64
	for _, s := range stages {
		for o, n := range ops[s] {
			if arith.Op(o) != arith.OpConst && arith.Op(o) != arith.OpGM {
				t += n
			}
		}
	}
	return t
}

// ModelSignLatency measures the signatures of the first records NIST KAT
// records of degree 2^logn (keys over emu64) and prices them with u.
func ModelSignLatency(logn uint, records int, u SignUnits) (*SignLatency, error) {
	d, err := u.check()
	if err != nil {
		return nil, err
	}
	if records < 1 || records > 100 {
		return nil, fmt.Errorf("accel: %d records: want 1 to 100", records)
	}
	kb, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	ops, err := CountStages(records, func(b arith.Backend) error {
		for r := range records {
			rec, err := falcon.KATRequest(r)
			if err != nil {
				return err
			}
			if err := falcon.GenerateKAT(logn, &rec, falcon.KATOptions{Keygen: kb, Sign: b}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := 1 << logn
	var attempts, transitions, leaves int
	for r := range records {
		rec, err := falcon.KATRequest(r)
		if err != nil {
			return nil, fmt.Errorf("accel: %w", err)
		}
		_, _, _, st, err := ffsfsm.KAT(kb, kb, logn, rec.Count, rec.Seed, rec.Msg)
		if err != nil {
			return nil, err
		}
		if st.Transitions != st.Attempts*(6*(n-1)+2*n) || st.Leaves != st.Attempts*n {
			return nil, fmt.Errorf("accel: record %d: %d transitions and %d leaves in %d attempts, not the tree's", r, st.Transitions, st.Leaves, st.Attempts)
		}
		attempts += st.Attempts
		transitions += st.Transitions
		leaves += st.Leaves
	}
	srec, err := KATSamplerRecord("emu64", logn, records)
	if err != nil {
		return nil, err
	}
	lanes := 1
	if d.Model == ModelAlternating {
		lanes = 2
	}
	ps, err := Pipeline{TTFS: int(d.TTFS), TTNS: int(d.TTNS), Lanes: lanes}.SimulatePairs(srec.Attempts)
	if err != nil {
		return nil, err
	}
	if ps.Pairs != leaves {
		return nil, errors.New("accel: the sampler record and the state machine disagree on the leaves")
	}
	sig := float64(records)
	att := float64(attempts) / sig
	fft := stageSum(ops, arith.PlanFFT, arith.PlanGram, arith.PlanTarget, arith.PlanLattice)
	act := stageSum(ops, arith.PlanLDL, arith.PlanLeaf, arith.PlanFFSampling)
	moves := att * float64(2*2*(n-1)*frameWords)
	words := float64(2 * n)
	l := &SignLatency{Params: n, Records: records, Units: u, Attempts: att, CyclesPerPair: ps.CyclesPerPair}
	l.Parts = []LatencyPart{
		{"host transfers", words, "32-bit words", words * u.TransferCycles},
		{"FFT unit", fft, "fpr operations", fft / (fftButterflyOps * u.FFTButterflies)},
		{"ffSampling actuation", act, "fpr operations", act / u.FPROpsPerCycle},
		{"ffSampling control", float64(transitions) / sig, "transitions", float64(transitions)/sig*u.TransitionCycles + moves*u.StackWordCycles},
		{"SamplerZ (" + d.Name + ")", float64(leaves) / sig, "leaf pairs", float64(leaves) / sig * ps.CyclesPerPair},
	}
	for _, p := range l.Parts {
		l.Cycles += p.Cycles
	}
	return l, nil
}

// WriteText writes l as accel latency prints it: each unit's work, cycles
// and share of the signature, the total, and the units' throughputs.
func (l *SignLatency) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Falcon-%d signing, mean per signature over the first %d NIST KAT records (%.2f attempts per signature)\n\n", l.Params, l.Records, l.Attempts)
	fmt.Fprintf(w, "%-44s %14s %-16s %12s %7s\n", "PART", "WORK", "", "CYCLES", "SHARE")
	for _, p := range l.Parts {
		fmt.Fprintf(w, "%-44s %14.1f %-16s %12.0f %6.1f%%\n", p.Part, p.Work, p.Unit, p.Cycles, 100*p.Cycles/l.Cycles)
	}
	u := l.Units
	_, err := fmt.Fprintf(w, "%-44s %14s %-16s %12.0f\n\nUnits: %g butterflies/cycle, %g fpr ops/cycle, %g cycles/transition, %g cycles/stack word,\n%g cycles/transferred word; SamplerZ %.3f cycles per pair (simulated).\n",
		"total", "", "", l.Cycles, u.FFTButterflies, u.FPROpsPerCycle, u.TransitionCycles, u.StackWordCycles, u.TransferCycles, l.CyclesPerPair)
	return err
}
