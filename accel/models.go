package accel

import (
	"context"
	"math"
	"slices"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
)

// The model checks of fprlab accel fpru, mult and ripst: each datapath
// model replayed on NIST KAT records, its exactness checked (ExactChecker)
// and its cost reported. The result types are the commands' --json
// documents.

// FPRUnitReport is the result of CheckFPRUnit (accel fpru --json).
type FPRUnitReport struct {
	Params int `json:"params"`
	Record int `json:"record"`
	// ModelMatchesKAT: the record regenerated over emu64 with packing and
	// normalisation done by the instruction model equals the published
	// one; Instructions are the fpr-unit instructions it issued.
	ModelMatchesKAT bool          `json:"instruction_model_matches_kat"`
	Exact           ExactCheck    `json:"exactness"`
	Instructions    uint64        `json:"instructions"`
	Cycles          FPRUnitCycles `json:"cycles_per_call"`
	// Model is the per-phase estimate of the fpr-unit alone over the mean
	// counts of the first records KAT records.
	Model *CycleReport `json:"model"`
}

// CheckFPRUnit regenerates NIST KAT record record of degree 2^logn over
// emu64 with FPR and FPR_NORM64 done by HORCRUX's fpr-unit instruction
// model (HorcruxArith), checks it (ExactChecker), and estimates each
// phase's cycles with the fpr-unit alone under the per-call costs c from
// the mean counts of the first records KAT records.
func CheckFPRUnit(ctx context.Context, logn uint, record, records int, c FPRUnitCycles) (*FPRUnitReport, error) {
	h := NewHorcruxArith()
	chk, err := (&ExactChecker{LogN: logn, Record: record}).Check(arith.Backend{Name: "emu64+fpru", Bits: 53, ExpBits: 11, Impl: h})
	if err != nil {
		return nil, err
	}
	tab, err := FPRUnitTable(c)
	if err != nil {
		return nil, err
	}
	recs, counts, err := CountKATPhases(ctx, logn, records)
	if err != nil {
		return nil, err
	}
	rep, err := ModelCycles(tab, 1<<logn, recs, counts)
	if err != nil {
		return nil, err
	}
	return &FPRUnitReport{Params: 1 << logn, Record: record, ModelMatchesKAT: chk.KATMatch, Exact: chk,
		Instructions: h.Instructions().Total(), Cycles: c, Model: rep}, nil
}

// MultDesignCheck is one multiplier design of accel mult --json.
type MultDesignCheck struct {
	Design string          `json:"design"`
	Width  int             `json:"width"`
	Cost   MultCost        `json:"cost"`
	Phases []MultPhaseCost `json:"phases"`
	// Resources on each DSP slice (DSPFamilies order).
	Resources []DesignResources `json:"resources"`
	KATMatch  bool              `json:"kat_match"`
	Exact     ExactCheck        `json:"exactness"`
}

// MultReport is the result of CheckMultipliers (accel mult --json).
type MultReport struct {
	Params  int               `json:"params"`
	Record  int               `json:"record"`
	Designs []MultDesignCheck `json:"designs"`
}

// Exact reports whether every design computed emu64's results and the
// published record.
func (r *MultReport) Exact() bool {
	for _, d := range r.Designs {
		if !d.Exact.Exact() {
			return false
		}
	}
	return true
}

// CheckMultipliers costs every mantissa multiplier design (AllMultipliers)
// on the counts k of NIST KAT record record of degree 2^logn and checks
// the record regenerated over emu64 with each design as its multiplier (a
// 64-bit design also serves expm_p63's fixed-point products).
func CheckMultipliers(logn uint, record int, k *KATCounts) (*MultReport, error) {
	ms, err := AllMultipliers()
	if err != nil {
		return nil, err
	}
	res := &MultReport{Params: 1 << logn, Record: record}
	ed := &ExactChecker{LogN: logn, Record: record}
	for _, m := range ms {
		d := emu64.Datapath{MantProduct: m.Product}
		if m.Width == 64 {
			d.FixedProduct = m.Product
		}
		chk, err := ed.Check(arith.Backend{Name: "emu64+" + m.Name, Bits: 53, ExpBits: 11, Impl: emu64.NewStaged(d)})
		if err != nil {
			return nil, err
		}
		row := MultDesignCheck{Design: m.Name, Width: m.Width, Cost: m.Cost, Phases: MultiplierCosts(k, m), KATMatch: chk.KATMatch, Exact: chk}
		for _, f := range DSPFamilies {
			r, err := m.Resources(f)
			if err != nil {
				return nil, err
			}
			row.Resources = append(row.Resources, r)
		}
		res.Designs = append(res.Designs, row)
	}
	return res, nil
}

// RIPSTRow is one row of accel ripst --json: a design of the published
// table, or (Simulated) the cycle-level simulation of a design driven by
// the attempts of real signing.
type RIPSTRow struct {
	Design      string  `json:"design"`
	Model       string  `json:"model"`
	TTFS        float64 `json:"ttfs"`
	TTNS        float64 `json:"ttns"`
	MHz         float64 `json:"mhz"`
	RIPSTCycles float64 `json:"ripst_cycles"`
	RIPSTNs     float64 `json:"ripst_ns"`

	Simulated bool `json:"simulated,omitempty"`
	// Simulation only: the run, cycles per pair, attempts per pair
	// (issued includes the discarded speculative ones), random bits per
	// pair drawn by the issued attempts with the reference's byte-wise
	// BerExp (measured bits per attempt) and with the two-Bernoulli
	// 64-bit design (modelled), and by the needed attempts only.
	Params                    int      `json:"params,omitempty"`
	Backend                   string   `json:"backend,omitempty"`
	Pairs                     int      `json:"pairs,omitempty"`
	Lanes                     int      `json:"lanes,omitempty"`
	CyclesPerPair             float64  `json:"cycles_per_pair,omitempty"`
	IssuedPerPair             float64  `json:"issued_attempts_per_pair,omitempty"`
	UsefulPerPair             float64  `json:"useful_attempts_per_pair,omitempty"`
	BitsPerAttempt            float64  `json:"bytewise_berexp_bits_per_attempt,omitempty"`
	RandomBitsPerPair         float64  `json:"random_bits_per_pair,omitempty"`
	RandomBitsPerPairTwoBern  float64  `json:"random_bits_per_pair_two_bernoulli64,omitempty"`
	RandomBitsPerPairUseful   float64  `json:"random_bits_per_pair_useful,omitempty"`
	MeasuredCyclesPerPair     *float64 `json:"hardware_cycles_per_pair,omitempty"`
	MeasuredRandomBitsPerPair *float64 `json:"hardware_random_bits_per_pair,omitempty"`
}

// RIPSTTable is the published table's rows (SamplerDesigns), to two
// decimals, the precision of the published table.
func RIPSTTable() ([]RIPSTRow, error) {
	var rows []RIPSTRow
	round2 := func(x float64) float64 { return math.Round(x*100) / 100 }
	for _, d := range SamplerDesigns {
		c, ns, err := d.RIPST()
		if err != nil {
			return nil, err
		}
		rows = append(rows, RIPSTRow{Design: d.Name, Model: d.Model, TTFS: d.TTFS, TTNS: d.TTNS, MHz: d.MHz, RIPSTCycles: round2(c), RIPSTNs: round2(ns)})
	}
	return rows, nil
}

// SimulateRIPST simulates each design with a schedule (serial: lanes 1;
// alternating: lanes 2) cycle by cycle on the attempts of rec, the
// sampler record of signing at degree 2^logn over backend.
func SimulateRIPST(rec *SamplerRecord, logn uint, backend string) ([]RIPSTRow, error) {
	var rows []RIPSTRow
	bits := rec.RandomBitsPerAttempt()
	for _, d := range SamplerDesigns {
		lanes := 1
		switch d.Model {
		case ModelAlternating:
			lanes = 2
		case ModelSerial:
		default:
			continue // a published figure without a schedule to simulate
		}
		pl := Pipeline{TTFS: int(d.TTFS), TTNS: int(d.TTNS), Lanes: lanes}
		st, err := pl.SimulatePairs(rec.Attempts)
		if err != nil {
			return nil, err
		}
		r := RIPSTRow{Design: d.Name, Model: d.Model, TTFS: d.TTFS, TTNS: d.TTNS, MHz: d.MHz,
			RIPSTCycles: st.CyclesPerPair, RIPSTNs: st.CyclesPerPair * 1e3 / d.MHz, Simulated: true,
			Params: 1 << logn, Backend: backend, Pairs: st.Pairs, Lanes: lanes, CyclesPerPair: st.CyclesPerPair,
			IssuedPerPair: st.IssuedPerPair, UsefulPerPair: st.UsefulAttemptsPerPair, BitsPerAttempt: bits,
			RandomBitsPerPair:        st.IssuedPerPair * bits,
			RandomBitsPerPairTwoBern: st.IssuedPerPair * TwoBernoulli64Bits,
			RandomBitsPerPairUseful:  st.UsefulAttemptsPerPair * bits,
		}
		if d.Model == ModelAlternating {
			m := PipelinedMeasured
			r.MeasuredCyclesPerPair, r.MeasuredRandomBitsPerPair = &m.CyclesPerPair, &m.RandomBitsPerPair
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// RIPSTReport is the result of CompareRIPST (accel ripst): the published
// table, the designs simulated on the SamplerZ calls of real signing, and
// the record of those calls, which the text sets beside the table (the
// measured acceptance rate). Its --json document is Rows.
type RIPSTReport struct {
	Params  int
	Records int
	Backend string
	// Table is RIPSTTable; Simulations is SimulateRIPST on Sampler.
	Table, Simulations []RIPSTRow
	Sampler            *SamplerRecord
}

// CompareRIPST sets the published RIPST table beside the simulation of
// each design on the SamplerZ calls of signing the first records NIST KAT
// requests of degree 2^logn over backend (KATSamplerRecord).
func CompareRIPST(logn uint, records int, backend string) (*RIPSTReport, error) {
	table, err := RIPSTTable()
	if err != nil {
		return nil, err
	}
	rec, err := KATSamplerRecord(backend, logn, records)
	if err != nil {
		return nil, err
	}
	sim, err := SimulateRIPST(rec, logn, backend)
	if err != nil {
		return nil, err
	}
	return &RIPSTReport{Params: 1 << logn, Records: records, Backend: backend, Table: table, Simulations: sim, Sampler: rec}, nil
}

// Rows are the table's rows, then the simulations' (accel ripst --json).
func (r *RIPSTReport) Rows() []RIPSTRow {
	return slices.Concat(r.Table, r.Simulations)
}

// FPRUnitPhase is one phase of the fpr-unit estimate in cycles, as accel
// fpru --plot draws it: HORCRUX Table IV's baseline and optimised cycles,
// and the mean cycles the FPR and FPR_NORM64 calls take in software and
// with the fpr-unit (mean calls per record times the per-call cost).
type FPRUnitPhase struct {
	Phase               string
	Baseline, Published float64
	SoftFPR, SoftNorm64 float64
	ExtFPR, ExtNorm64   float64
}

// PhaseCycles is the estimate per phase in cycles under the report's
// per-call costs.
func (r *FPRUnitReport) PhaseCycles() []FPRUnitPhase {
	fpr, norm := slices.Index(CycleUnits, "fpr"), slices.Index(CycleUnits, "fpr_norm64")
	c := r.Cycles
	var out []FPRUnitPhase
	for _, p := range r.Model.Phases {
		f, n := p.Units[fpr].Mean, p.Units[norm].Mean
		out = append(out, FPRUnitPhase{Phase: p.Phase, Baseline: p.BaselineK * 1e3, Published: p.PublishedK * 1e3,
			SoftFPR: f * c.SoftFPR, SoftNorm64: n * c.SoftNorm64, ExtFPR: f * c.ExtFPR, ExtNorm64: n * c.ExtNorm64})
	}
	return out
}

// RIPSTPair is one design of the published table beside its simulation,
// if it has one (accel ripst --plot): the RIPST in ns from the table's
// formula and from the cycle-level simulation.
type RIPSTPair struct {
	Design        string
	Ns, SimNs     float64
	HasSimulation bool
}

// Pairs sets each design of the table beside its simulation, in the
// table's order.
func (r *RIPSTReport) Pairs() []RIPSTPair {
	out := make([]RIPSTPair, 0, len(r.Table))
	for _, row := range r.Table {
		p := RIPSTPair{Design: row.Design, Ns: row.RIPSTNs}
		for _, s := range r.Simulations {
			if s.Design == row.Design {
				p.SimNs, p.HasSimulation = s.RIPSTNs, true
			}
		}
		out = append(out, p)
	}
	return out
}
