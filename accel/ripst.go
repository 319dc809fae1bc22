package accel

import (
	"fmt"
	"math"
)

// Rejection-inclusive pair sampling time (RIPST) of hardware SamplerZ
// designs, after Vojáček and Novotný, "Pipelining FALCON's Gaussian
// sampler: Towards practical FALCON acceleration" (TCHES 2026/4).
//
// ffSampling reaches a leaf of the Falcon tree with a pair of targets
// (t0, t1) and samples z1 from t1 first, then z0 from t0 corrected by
// (t1 - z1) l10 (Falcon specification v1.2, Algorithm 11, lines 4-6): the
// second sample depends on the first. RIPST is the expected time from the
// request of a pair to both samples, rejections included. With p the
// probability that one SamplerZ attempt is accepted, TTFS the cycles from
// a request to the first decision and TTNS the cycles from one decision to
// the next attempt's decision:
//
//	serial         2 (TTFS + (1-p) TTNS / p)
//	alternating    TTFS + (3 - 2p) TTNS / p
//	parallel_last  TTFS + (1-p)(3-p) TTNS / (p (2-p))
//	parallel_both  TTFS + (1-p^2) TTNS / p^2
//
// Serial samples z1 and then z0, each by repeated attempts. Alternating
// interleaves the two samples' attempts in one pipeline: while z1 is
// pending every other issue slot is z1's (2 TTNS per rejection of z1), the
// slot after z1's accepted attempt starts z0, and from then on every slot
// is z0's (1 TTNS per rejection of z0): TTFS + TTNS (2(1-p)/p + 1 +
// (1-p)/p), which is the formula. The parallel models run two attempts per
// round.

// AcceptRate is the acceptance probability p of one SamplerZ attempt that
// the RIPST comparison of Vojáček and Novotný uses, averaged over Falcon's
// leaves.
const AcceptRate = 0.575752

// RIPST models.
const (
	ModelSerial       = "serial"
	ModelAlternating  = "alternating"
	ModelParallelLast = "parallel_last"
	ModelParallelBoth = "parallel_both"
	// ModelReported marks a design whose RIPST is the published figure,
	// not one of the four formulas (Bi-SamplerZ).
	ModelReported = "reported"
)

// RIPSTModels lists the models RIPSTCycles evaluates.
var RIPSTModels = []string{ModelSerial, ModelAlternating, ModelParallelLast, ModelParallelBoth}

// RIPSTCycles returns the expected pair sampling time in cycles of the
// named model for acceptance probability p (0 < p <= 1).
func RIPSTCycles(model string, ttfs, ttns, p float64) (float64, error) {
	if !(p > 0 && p <= 1) {
		return 0, fmt.Errorf("accel: acceptance probability %v is not in (0, 1]", p)
	}
	if !(ttfs >= 0) || !(ttns >= 0) || math.IsInf(ttfs, 0) || math.IsInf(ttns, 0) {
		return 0, fmt.Errorf("accel: TTFS %v and TTNS %v must be finite and non-negative", ttfs, ttns)
	}
	switch model {
	case ModelSerial:
		return 2 * (ttfs + (1-p)*ttns/p), nil
	case ModelAlternating:
		return ttfs + (3-2*p)*ttns/p, nil
	case ModelParallelLast:
		return ttfs + (1-p)*(3-p)*ttns/(p*(2-p)), nil
	case ModelParallelBoth:
		return ttfs + (1-p*p)*ttns/(p*p), nil
	}
	return 0, fmt.Errorf("accel: unknown RIPST model %q (want one of %v)", model, RIPSTModels)
}

// SamplerDesign is one row of the RIPST comparison of Vojáček and Novotný:
// a hardware SamplerZ, the model of its schedule, its latencies in cycles
// and its clock.
type SamplerDesign struct {
	Name  string
	Model string
	TTFS  float64
	TTNS  float64
	MHz   float64
	// Reported is the published RIPST in cycles for ModelReported rows,
	// zero otherwise.
	Reported float64
}

// RIPST returns the design's RIPST in cycles (AcceptRate for p) and in
// nanoseconds at its clock.
func (d SamplerDesign) RIPST() (cycles, ns float64, err error) {
	if !(d.MHz > 0) {
		return 0, 0, fmt.Errorf("accel: design %q: clock %v MHz is not positive", d.Name, d.MHz)
	}
	if d.Model == ModelReported {
		cycles = d.Reported
	} else if cycles, err = RIPSTCycles(d.Model, d.TTFS, d.TTNS, AcceptRate); err != nil {
		return 0, 0, fmt.Errorf("accel: design %q: %w", d.Name, err)
	}
	return cycles, cycles * 1e3 / d.MHz, nil
}

// SamplerDesigns are the rows of the RIPST comparison table of Vojáček and
// Novotný (TCHES 2026/4): the prior designs in their order, then the
// pipelined design. Bi-SamplerZ's 106.1 cycles are its authors' figure
// (none of the four formulas gives it from TTFS 59 / TTNS 34).
var SamplerDesigns = []SamplerDesign{
	{Name: "Karabulut-Aysu HW/SW", Model: ModelSerial, TTFS: 1807, TTNS: 1807, MHz: 121},
	{Name: "RVCE-FAL", Model: ModelSerial, TTFS: 104, TTNS: 104, MHz: 83},
	{Name: "FalconSign", Model: ModelSerial, TTFS: 67, TTNS: 40, MHz: 185},
	{Name: "Bi-SamplerZ", Model: ModelReported, TTFS: 59, TTNS: 34, MHz: 150, Reported: 106.1},
	{Name: "Millennium C1", Model: ModelSerial, TTFS: 22, TTNS: 22, MHz: 135},
	{Name: "pipelined (Vojacek-Novotny)", Model: ModelAlternating, TTFS: 19, TTNS: 1, MHz: 222},
}

// PipelinedMeasurement is what Vojáček and Novotný measured on their
// pipelined SamplerZ (TCHES 2026/4, one-shot mode: one pair requested at a
// time), the figures the simulation of the pipelined row is set beside.
type PipelinedMeasurement struct {
	CyclesPerPair     float64 `json:"cycles_per_pair"`
	RandomBitsPerPair float64 `json:"random_bits_per_pair"`
	Source            string  `json:"source"`
}

// PipelinedMeasured is the pipelined design's one-shot measurement.
var PipelinedMeasured = PipelinedMeasurement{CyclesPerPair: 22.15, RandomBitsPerPair: 185.25,
	Source: "Vojacek and Novotny, TCHES 2026/4, hardware measurement of the pipelined SamplerZ (one-shot)"}

// AcceptanceRate is the fraction of SamplerZ attempts accepted in a run
// whose samples took attempts[i] attempts each (the last one accepted):
// samples / attempts, the measured counterpart of AcceptRate.
func AcceptanceRate(attempts []int) float64 {
	total := totalAttempts(attempts)
	if total == 0 {
		return 0
	}
	return float64(len(attempts)) / float64(total)
}

// totalAttempts is the attempts of a run whose samples took attempts[i]
// attempts each.
func totalAttempts(attempts []int) int {
	var total int
	for _, a := range attempts {
		total += a
	}
	return total
}
