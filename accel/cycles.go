package accel

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// A cycle model per phase of the NIST flow: counted operations times
// per-unit costs, in software and with accelerators, set against the
// published cycles of a platform.
//
// The costs are data, one JSON table per platform (costs/*.json, or a
// user's file) whose every entry cites its source. For each phase the
// model takes the platform's measured software cycles B (the baseline),
// the mean count n_u of each unit's operation over the records run, and
// the unit's software and accelerated cycles s_u and a_u:
//
//	saved     = sum_u n_u (s_u - a_u)
//	optimised = B - saved
//	speedup   = B / optimised
//
// Only the counted operations change; the rest of the phase (control,
// memory, the operations no unit takes) costs what it cost in software.
// sum_u n_u s_u is also reported beside B: the share of the baseline the
// counted operations explain under the table's software costs (above 1,
// the table's software costs overstate the platform's).
//
// The NIST flow has no separate key expansion: crypto_sign signs with the
// dynamic variant (sign_dyn), so the LDL tree is built inside signing and
// its work is counted in the sign phase.

// CycleUnits are the units of a cost table, under the names of the
// reference's counts file (and keccak_f1600), in report order.
var CycleUnits = []string{"fpr", "fpr_norm64", "modp_montymul", "mq_montymul", "keccak_f1600"}

// CyclePhases are the phases of a cost table.
var CyclePhases = []string{"keygen", "sign", "verify"}

// CostEntry is one cost of a table: cycles per operation and where the
// figure comes from.
type CostEntry struct {
	Cycles float64 `json:"cycles"`
	Source string  `json:"source"`
}

// UnitCost is a unit's cost per operation in software and on the
// accelerator (equal when the platform does not accelerate it).
type UnitCost struct {
	Software    CostEntry `json:"software"`
	Accelerated CostEntry `json:"accelerated"`
}

// PhaseFigures are a platform's measured cycles for one phase: the software
// baseline the model needs, and optionally the published accelerated
// cycles and speedup it is compared with.
type PhaseFigures struct {
	BaselineK        float64 `json:"baseline_kcycles"`
	PublishedK       float64 `json:"published_kcycles,omitempty"`
	PublishedSpeedup float64 `json:"published_speedup,omitempty"`
	Source           string  `json:"source"`
}

// CostTable is a platform's cost table.
type CostTable struct {
	Platform    string `json:"platform"`
	Description string `json:"description"`
	// Notes are remarks on the published figures, printed with the
	// report.
	Notes []string            `json:"notes,omitempty"`
	Units map[string]UnitCost `json:"units"`
	// Phases maps a degree ("512", "1024") to the figures per phase.
	Phases map[string]map[string]PhaseFigures `json:"phases"`
	// VerifyPath, when given, prices verification bottom up (see
	// ModelVerifyPath).
	VerifyPath *VerifyPathTable `json:"verify_path,omitempty"`
}

//go:embed costs/*.json
var costFiles embed.FS

// Platforms lists the built-in cost tables.
var Platforms = []string{"horcrux"}

// PlatformCosts returns the built-in cost table of a platform.
func PlatformCosts(name string) (*CostTable, error) {
	if !slices.Contains(Platforms, name) {
		return nil, fmt.Errorf("accel: no built-in cost table %q (built in: %s; or give a JSON file)", name, strings.Join(Platforms, ", "))
	}
	data, err := costFiles.ReadFile("costs/" + name + ".json")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	return ParseCostTable(data)
}

// LoadCostTable returns the built-in table of a platform name, or the
// table of a JSON file (a name ending in .json, or "-" for standard
// input) that read returns, at most limit bytes (CostTableLimit).
func LoadCostTable(platform string, read func(path string, limit int) ([]byte, error)) (*CostTable, error) {
	if slices.Contains(Platforms, platform) {
		return PlatformCosts(platform)
	}
	if !strings.HasSuffix(strings.ToLower(platform), ".json") && platform != "-" {
		return nil, fmt.Errorf("--platform %s: not a built-in platform (%s) nor a .json cost table file", platform, strings.Join(Platforms, ", "))
	}
	data, err := read(platform, CostTableLimit)
	if err != nil {
		return nil, err
	}
	t, err := ParseCostTable(data)
	if err != nil {
		return nil, fmt.Errorf("--platform %s: %w", platform, err)
	}
	return t, nil
}

// CostTableLimit bounds a cost table file: the built-in tables are a few
// KiB.
const CostTableLimit = 1 << 20

// ParseCostTable decodes and validates a cost table: JSON with no unknown
// fields, every unit of CycleUnits present with finite, non-negative costs
// (an accelerated cost above the software one is accepted: a slower unit
// is a valid design), and for each degree given, every phase with a positive
// baseline. Errors name the field at fault.
func ParseCostTable(data []byte) (*CostTable, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var t CostTable
	if err := dec.Decode(&t); err != nil {
		return nil, fmt.Errorf("cost table: not a valid cost table JSON document: %w", err)
	}
	if dec.More() {
		return nil, errors.New("cost table: trailing data after the JSON document")
	}
	if t.Platform == "" {
		return nil, errors.New(`cost table: missing "platform" (a name for the report)`)
	}
	for name := range t.Units {
		if !slices.Contains(CycleUnits, name) {
			return nil, fmt.Errorf("cost table: unknown unit %q (the units are %s)", name, strings.Join(CycleUnits, ", "))
		}
	}
	for _, name := range CycleUnits {
		u, ok := t.Units[name]
		if !ok {
			return nil, fmt.Errorf("cost table: units.%s is missing (give equal software and accelerated costs for a unit the platform does not accelerate)", name)
		}
		for _, c := range []struct {
			side string
			v    float64
		}{{"software", u.Software.Cycles}, {"accelerated", u.Accelerated.Cycles}} {
			if math.IsNaN(c.v) || math.IsInf(c.v, 0) || c.v < 0 || c.v > 1e9 {
				return nil, fmt.Errorf("cost table: units.%s.%s.cycles %v: want cycles per operation from 0 to 1e9", name, c.side, c.v)
			}
		}
	}
	if len(t.Phases) == 0 {
		return nil, errors.New(`cost table: missing "phases" (the measured software cycles per degree and phase)`)
	}
	for deg, ph := range t.Phases {
		if deg != "512" && deg != "1024" {
			return nil, fmt.Errorf("cost table: phases.%s: the degrees are 512 and 1024", deg)
		}
		for name := range ph {
			if !slices.Contains(CyclePhases, name) {
				return nil, fmt.Errorf("cost table: phases.%s.%s: unknown phase (the phases are %s)", deg, name, strings.Join(CyclePhases, ", "))
			}
		}
		for _, name := range CyclePhases {
			f, ok := ph[name]
			if !ok {
				return nil, fmt.Errorf("cost table: phases.%s.%s is missing", deg, name)
			}
			for _, v := range []struct {
				field    string
				x        float64
				positive bool
			}{{"baseline_kcycles", f.BaselineK, true}, {"published_kcycles", f.PublishedK, false}, {"published_speedup", f.PublishedSpeedup, false}} {
				if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x < 0 || v.x > 1e12 || (v.positive && v.x == 0) {
					want := "a number from 0 (not published) to 1e12"
					if v.positive {
						want = "a positive number up to 1e12"
					}
					return nil, fmt.Errorf("cost table: phases.%s.%s.%s %v: want %s", deg, name, v.field, v.x, want)
				}
			}
		}
	}
	if t.VerifyPath != nil {
		if err := t.VerifyPath.validate(); err != nil {
			return nil, err
		}
	}
	return &t, nil
}

// UnitCounts are one phase's operation counts in the order of CycleUnits.
type UnitCounts [5]uint64

// PhaseUnitCounts returns the unit counts of the phases of a KAT record, in
// the order of CyclePhases.
func PhaseUnitCounts(k *KATCounts) [3]UnitCounts {
	u := func(c Counts, i IntCounts) UnitCounts {
		return UnitCounts{c.FPR, c.FPRNorm64, i.ModpMontymul, i.MqMontymul, i.KeccakF1600}
	}
	return [3]UnitCounts{u(k.Keypair, k.KeypairInt), u(k.Sign, k.SignInt), u(k.Open, k.OpenInt)}
}

// UnitStat is a unit's count over the records of a phase.
type UnitStat struct {
	Unit     string  `json:"unit"`
	Mean     float64 `json:"mean"`
	Min      uint64  `json:"min"`
	Max      uint64  `json:"max"`
	Software float64 `json:"software_cycles_per_op"`
	Accel    float64 `json:"accelerated_cycles_per_op"`
	// SavedK is Mean (Software - Accel) / 1000.
	SavedK float64 `json:"saved_kcycles"`
}

// PhaseCycles is the model's result for one phase.
type PhaseCycles struct {
	Phase string `json:"phase"`
	PhaseFigures
	Units []UnitStat `json:"units"`
	// CountedSoftK is sum_u mean n_u s_u / 1000, the software cycles of
	// the counted operations, and CountedShare CountedSoftK / BaselineK.
	CountedSoftK float64 `json:"counted_software_kcycles"`
	CountedShare float64 `json:"counted_share_of_baseline"`
	SavedK       float64 `json:"saved_kcycles"`
	// EstK and EstSpeedup are the model's optimised kilocycles and
	// speedup from the mean counts; MinSpeedup and MaxSpeedup the
	// speedups of the records taken one at a time. Valid is false when
	// the saving reaches the baseline (the table's software costs exceed
	// the platform's measured cycles): then there is no estimate.
	EstK                   float64 `json:"estimated_kcycles"`
	EstSpeedup             float64 `json:"estimated_speedup"`
	MinSpeedup, MaxSpeedup float64 `json:"-"`
	// RecordSpeedupMin and Max are MinSpeedup and MaxSpeedup for JSON:
	// null when a record's saving reaches the baseline (no finite
	// speedup).
	RecordSpeedupMin *float64 `json:"record_speedup_min"`
	RecordSpeedupMax *float64 `json:"record_speedup_max"`
	Valid            bool     `json:"valid"`
	// Against the published speedup (when the table has one): the
	// relative difference EstSpeedup/PublishedSpeedup - 1, whether it is
	// within 10 %, and the published saving beside the model's.
	RelDiff    *float64 `json:"relative_difference,omitempty"`
	Reproduced *bool    `json:"reproduced_within_10pct,omitempty"`
	PubSavedK  float64  `json:"published_saved_kcycles,omitempty"`
	// Implied are, when the table has a published optimised figure and
	// the model misses it, the accelerated cost per operation each unit
	// would need, alone, to close the gap (the others at the table's
	// costs); FPRUnitImplied is the one per-call cost of both fpr-unit
	// blocks (FPR and FPR_NORM64) that would.
	Implied        []ImpliedCost `json:"implied_accelerated_costs,omitempty"`
	FPRUnitImplied *float64      `json:"fpr_unit_implied_cycles_per_call,omitempty"`
	// Record0Speedup is the model's speedup with the counts of KAT
	// record 0 alone, when the records run include it: HORCRUX Table II's
	// calls are record 0's exactly, so its baselines may be record 0's.
	Record0Speedup *float64 `json:"record0_speedup,omitempty"`
	Explanation    string   `json:"explanation"`
}

// ImpliedCost is the accelerated cost per operation a unit would need,
// alone, for the model to give a phase's published optimised cycles.
// Feasible is false when that cost is negative (removing every operation
// of the unit saves too little) or above the software cost (the unit would
// have to slow the phase down).
type ImpliedCost struct {
	Unit     string  `json:"unit"`
	Table    float64 `json:"table_cycles_per_op"`
	Implied  float64 `json:"implied_cycles_per_op"`
	Software float64 `json:"software_cycles_per_op"`
	Feasible bool    `json:"feasible"`
}

// CycleReport is the model's result for one degree.
type CycleReport struct {
	Platform string        `json:"platform"`
	Params   int           `json:"params"`
	Records  []int         `json:"records"`
	Phases   []PhaseCycles `json:"phases"`
	// Verify is the bottom-up verify path, when the table has one.
	Verify *VerifyPathReport `json:"verify_path,omitempty"`
}

// ReproduceTolerance is the relative difference from a published speedup
// within which the model counts as reproducing it.
const ReproduceTolerance = 0.10

// ModelCycles applies cost table t to the per-record counts of degree
// params (counts[i][p] is phase CyclePhases[p] of records[i]).
func ModelCycles(t *CostTable, params int, records []int, counts [][3]UnitCounts) (*CycleReport, error) {
	figs, ok := t.Phases[fmt.Sprint(params)]
	if !ok {
		return nil, fmt.Errorf("accel: cost table %q has no figures for Falcon-%d", t.Platform, params)
	}
	if len(counts) == 0 || len(counts) != len(records) {
		return nil, fmt.Errorf("accel: %d count sets for %d records", len(counts), len(records))
	}
	rep := &CycleReport{Platform: t.Platform, Params: params, Records: records}
	for p, phase := range CyclePhases {
		f := figs[phase]
		pc := PhaseCycles{Phase: phase, PhaseFigures: f, MinSpeedup: math.Inf(1), MaxSpeedup: math.Inf(-1)}
		b := f.BaselineK * 1e3
		for ui, name := range CycleUnits {
			uc := t.Units[name]
			st := UnitStat{Unit: name, Min: math.MaxUint64, Software: uc.Software.Cycles, Accel: uc.Accelerated.Cycles}
			for _, c := range counts {
				n := c[p][ui]
				st.Mean += float64(n)
				st.Min, st.Max = min(st.Min, n), max(st.Max, n)
			}
			st.Mean /= float64(len(counts))
			st.SavedK = st.Mean * (st.Software - st.Accel) / 1e3
			pc.CountedSoftK += st.Mean * st.Software / 1e3
			pc.SavedK += st.SavedK
			pc.Units = append(pc.Units, st)
		}
		pc.CountedShare = pc.CountedSoftK * 1e3 / b
		pc.EstK = f.BaselineK - pc.SavedK
		pc.Valid = pc.EstK > 0
		if pc.Valid {
			pc.EstSpeedup = f.BaselineK / pc.EstK
		}
		for _, c := range counts {
			var saved float64
			for ui, name := range CycleUnits {
				uc := t.Units[name]
				saved += float64(c[p][ui]) * (uc.Software.Cycles - uc.Accelerated.Cycles)
			}
			s := math.Inf(1)
			if saved < b {
				s = b / (b - saved)
			}
			pc.MinSpeedup, pc.MaxSpeedup = min(pc.MinSpeedup, s), max(pc.MaxSpeedup, s)
		}
		finite := func(x float64) *float64 {
			if math.IsInf(x, 0) {
				return nil
			}
			return &x
		}
		pc.RecordSpeedupMin, pc.RecordSpeedupMax = finite(pc.MinSpeedup), finite(pc.MaxSpeedup)
		if f.PublishedK > 0 {
			pc.PubSavedK = f.BaselineK - f.PublishedK
			impliedCosts(&pc)
		}
		if records[0] == 0 {
			var saved float64
			for ui, name := range CycleUnits {
				uc := t.Units[name]
				saved += float64(counts[0][p][ui]) * (uc.Software.Cycles - uc.Accelerated.Cycles)
			}
			if saved < b {
				x := b / (b - saved)
				pc.Record0Speedup = &x
			}
		}
		if f.PublishedSpeedup > 0 && pc.Valid {
			d := pc.EstSpeedup/f.PublishedSpeedup - 1
			ok := math.Abs(d) <= ReproduceTolerance
			pc.RelDiff, pc.Reproduced = &d, &ok
		}
		pc.Explanation = explainPhase(&pc)
		rep.Phases = append(rep.Phases, pc)
	}
	if t.VerifyPath != nil {
		keccak := make([]uint64, len(counts))
		for i, c := range counts {
			keccak[i] = c[2][4]
		}
		v, err := ModelVerifyPath(t.VerifyPath, params, records, keccak)
		if err != nil {
			return nil, err
		}
		rep.Verify = v
	}
	return rep, nil
}

// impliedCosts fills pc.Implied and pc.FPRUnitImplied: with gap the
// model's saving minus the published one, a unit with mean count n and
// accelerated cost a alone closes it at a + gap / n; both fpr-unit blocks
// at one cost x save n_FPR s_FPR + n_NORM s_NORM - (n_FPR + n_NORM) x.
func impliedCosts(pc *PhaseCycles) {
	gap := (pc.SavedK - pc.PubSavedK) * 1e3
	var fprN, fprSoft, other float64
	for _, u := range pc.Units {
		if u.Unit == "fpr" || u.Unit == "fpr_norm64" {
			fprN += u.Mean
			fprSoft += u.Mean * u.Software
		} else {
			other += u.SavedK * 1e3
		}
		if u.Mean == 0 {
			continue
		}
		x := u.Accel + gap/u.Mean
		pc.Implied = append(pc.Implied, ImpliedCost{Unit: u.Unit, Table: u.Accel, Implied: x, Software: u.Software, Feasible: x >= 0 && x <= u.Software})
	}
	if fprN > 0 {
		x := (fprSoft - (pc.PubSavedK*1e3 - other)) / fprN
		pc.FPRUnitImplied = &x
	}
}

// explainPhase says, for a phase with a published speedup, whether the
// model reproduces it and, if not, which published figure disagrees, by how
// much, and which unit's saving dominates the model's.
func explainPhase(pc *PhaseCycles) string {
	top := pc.Units[0]
	for _, u := range pc.Units {
		if u.SavedK > top.SavedK {
			top = u
		}
	}
	switch {
	case !pc.Valid:
		return fmt.Sprintf("no estimate: the counted operations save %.0f kcycles at the table's costs, not less than the %.0f kcycle baseline (%s dominates); the table's software costs overstate this phase",
			pc.SavedK, pc.BaselineK, top.Unit)
	case pc.PublishedSpeedup == 0:
		return ""
	case *pc.Reproduced:
		return fmt.Sprintf("reproduced: %.2fx against the published %.2fx (%+.1f %%)", pc.EstSpeedup, pc.PublishedSpeedup, 100**pc.RelDiff)
	}
	s := fmt.Sprintf("MISS: the published speedup %.2fx disagrees: the model gives %.2fx (%+.1f %%)", pc.PublishedSpeedup, pc.EstSpeedup, 100**pc.RelDiff)
	if pc.PubSavedK > 0 {
		s += fmt.Sprintf("; the published optimised %.0f kcycles save %.0f, the model saves %.0f (%.2fx as much), %.0f of them in %s",
			pc.PublishedK, pc.PubSavedK, pc.SavedK, pc.SavedK/pc.PubSavedK, top.SavedK, top.Unit)
	}
	var alone []string
	for _, c := range pc.Implied {
		if c.Feasible {
			alone = append(alone, fmt.Sprintf("%s %.4g (table %.4g, software %.4g)", c.Unit, c.Implied, c.Table, c.Software))
		} else {
			alone = append(alone, fmt.Sprintf("%s cannot (it would need %.4g)", c.Unit, c.Implied))
		}
	}
	if len(alone) > 0 {
		s += "; accelerated cycles per operation that alone would give the published figure: " + strings.Join(alone, ", ")
	}
	if pc.FPRUnitImplied != nil {
		s += fmt.Sprintf("; both fpr-unit blocks at one cost: %.1f cycles per call", *pc.FPRUnitImplied)
	}
	if pc.Record0Speedup != nil {
		s += fmt.Sprintf("; with KAT record 0's counts alone the model gives %.2fx (%+.1f %%)", *pc.Record0Speedup, 100*(*pc.Record0Speedup/pc.PublishedSpeedup-1))
	}
	return s
}
