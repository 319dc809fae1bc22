package shadow

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/fprlab/fprlab/arith"
)

// Aggregate is the mergeable state a Summary is computed from: the exact
// histograms (1/16-bit bins, exact extremes), the counts, the smallest
// margins, the first decision flips with their locations and the stage
// statistics of a set of records. Records are folded in as they arrive
// (Add) and aggregates of disjoint sets of units unite (Merge); neither
// depends on the order, so a campaign computed in one process, resumed,
// or sharded and merged has the same aggregate, and nothing has to hold
// all of its records. The one exception is Seconds, a floating-point sum
// whose last bits follow the order of the additions.
//
// An aggregate's size does not grow with the number of records: its
// histograms have at most a few thousand bins, and it keeps only the first
// maxFlipDetails flip descriptions.
type Aggregate struct {
	Signatures     int64   `json:"signatures"`
	Keys           int64   `json:"keys"`
	Seconds        float64 `json:"seconds"`
	SamplerCalls   int64   `json:"sampler_calls"`
	AttemptsTotal  int64   `json:"attempts"`
	AttemptsFailed int64   `json:"failed_attempts"`
	// FailureReasons counts failed attempts by failureClass.
	FailureReasons map[string]int64 `json:"failure_reasons"`
	// Per sampler call, per tree leaf, per expm_p63 call and per
	// acceptance trial (the records' histograms, merged).
	DeltaC     *Hist `json:"delta_c"`
	DeltaSigma *Hist `json:"delta_sigma"`
	Sum        *Hist `json:"sum"`
	LeafSum    *Hist `json:"leaf_sum"`
	Expm       *Hist `json:"expm_p63_rel"`
	Accept     *Hist `json:"acceptance_rel"`
	// Per signature: the records' maxima (log2, -Inf when exact).
	SigDeltaC     *Hist `json:"signature_max_delta_c"`
	SigDeltaSigma *Hist `json:"signature_max_delta_sigma"`
	SigSum        *Hist `json:"signature_max_sum"`
	// SigFlips and KeyFlips are the decisions of signatures and of key
	// generations; SigStages and KeyStages their stage statistics.
	SigFlips  *FlipAggregate  `json:"signature_flips"`
	KeyFlips  *FlipAggregate  `json:"keygen_flips"`
	SigStages *StageAggregate `json:"signature_stages"`
	KeyStages *StageAggregate `json:"keygen_stages"`
}

// NewAggregate returns an empty aggregate.
func NewAggregate() *Aggregate {
	return &Aggregate{
		FailureReasons: map[string]int64{},
		DeltaC:         NewHist(), DeltaSigma: NewHist(), Sum: NewHist(), LeafSum: NewHist(), Expm: NewHist(), Accept: NewHist(),
		SigDeltaC: NewHist(), SigDeltaSigma: NewHist(), SigSum: NewHist(),
		SigFlips: newFlipAggregate(), KeyFlips: newFlipAggregate(),
		SigStages: newStageAggregate(), KeyStages: newStageAggregate(),
	}
}

// UnitPos orders what a summary lists by first appearance: the unit's
// index, then the position within the unit's record. Folding records in
// index order (keygen and signature records apart) and keeping the first
// items is the same as keeping the items of smallest UnitPos.
type UnitPos struct{ Index, Pos int }

func (p UnitPos) compare(o UnitPos) int {
	return cmp.Or(cmp.Compare(p.Index, o.Index), cmp.Compare(p.Pos, o.Pos))
}

// FlipAggregate is the mergeable state of Flips.
type FlipAggregate struct {
	ByKind, Decisions, Unresolved map[string]int64
	// MinMargin is the smallest margin per decision kind (log2; -Inf for
	// a margin of zero).
	MinMargin map[string]float64
	// WithFlips counts the records with at least one flip.
	WithFlips int64
	// First holds the flip descriptions of smallest UnitPos, at most
	// maxFlipDetails, in that order; Where names the unit.
	First []PositionedFlip
}

// PositionedFlip is a flip description and where it stands in the
// campaign's order.
type PositionedFlip struct {
	At     UnitPos
	Detail FlipDetail
}

func newFlipAggregate() *FlipAggregate {
	return &FlipAggregate{ByKind: map[string]int64{}, Decisions: map[string]int64{}, Unresolved: map[string]int64{}, MinMargin: map[string]float64{}}
}

// StageAggregate is the mergeable state of the stage rows: a histogram per
// (stage, level) and where it first appears.
type StageAggregate struct {
	Rows map[StageLevel]*StageRowAggregate
}

// StageLevel names a row of the where-error-is-born table.
type StageLevel struct {
	Stage string
	Level int
}

// StageRowAggregate is one row's histogram and first appearance.
type StageRowAggregate struct {
	First UnitPos
	Rel   *Hist
}

func newStageAggregate() *StageAggregate {
	return &StageAggregate{Rows: map[StageLevel]*StageRowAggregate{}}
}

// Add folds one record into the aggregate. A nil record adds nothing.
func (a *Aggregate) Add(r *Record) {
	if r == nil {
		return
	}
	a.Seconds += r.Seconds
	if r.Kind == "keygen" {
		a.Keys++
		a.KeyFlips.add(r)
		a.KeyStages.add(r)
		return
	}
	a.Signatures++
	a.SamplerCalls += r.Calls
	a.DeltaC.Merge(r.DeltaC)
	a.DeltaSigma.Merge(r.DeltaSigma)
	a.Sum.Merge(r.Sum)
	a.LeafSum.Merge(r.LeafSum)
	a.Expm.Merge(r.ExpmErr)
	a.Accept.Merge(r.AcceptErr)
	a.SigDeltaC.Add(orInf(r.MaxDeltaC))
	a.SigDeltaSigma.Add(orInf(r.MaxDeltaSigma))
	a.SigSum.Add(orInf(r.MaxSum))
	a.SigFlips.add(r)
	a.SigStages.add(r)
	a.AttemptsTotal += int64(r.Attempts)
	a.AttemptsFailed += int64(len(r.AttemptFailures))
	for _, f := range r.AttemptFailures {
		a.FailureReasons[failureClass(f)]++
	}
}

// Merge adds the aggregate of a disjoint set of units.
func (a *Aggregate) Merge(o *Aggregate) {
	a.Signatures += o.Signatures
	a.Keys += o.Keys
	a.Seconds += o.Seconds
	a.SamplerCalls += o.SamplerCalls
	a.AttemptsTotal += o.AttemptsTotal
	a.AttemptsFailed += o.AttemptsFailed
	addCounts(a.FailureReasons, o.FailureReasons)
	for _, p := range [][2]*Hist{{a.DeltaC, o.DeltaC}, {a.DeltaSigma, o.DeltaSigma}, {a.Sum, o.Sum}, {a.LeafSum, o.LeafSum},
		{a.Expm, o.Expm}, {a.Accept, o.Accept}, {a.SigDeltaC, o.SigDeltaC}, {a.SigDeltaSigma, o.SigDeltaSigma}, {a.SigSum, o.SigSum}} {
		p[0].Merge(p[1])
	}
	a.SigFlips.merge(o.SigFlips)
	a.KeyFlips.merge(o.KeyFlips)
	a.SigStages.merge(o.SigStages)
	a.KeyStages.merge(o.KeyStages)
}

func addCounts(dst, src map[string]int64) {
	for k, v := range src {
		dst[k] += v
	}
}

func (f *FlipAggregate) add(r *Record) {
	flipped := false
	for k, v := range r.Flips {
		f.ByKind[k] += v
		flipped = flipped || v > 0
	}
	addCounts(f.Decisions, r.Decisions)
	addCounts(f.Unresolved, r.Unresolved)
	for k, v := range r.MinMargin {
		f.minMargin(k, orInf(v))
	}
	if flipped {
		f.WithFlips++
	}
	var ds []PositionedFlip
	for i, d := range r.FlipDetail {
		d.Where = recordLabel(r) + ": " + d.Where
		ds = append(ds, PositionedFlip{UnitPos{r.Index, i}, d})
	}
	f.first(ds)
}

func (f *FlipAggregate) minMargin(k string, x float64) {
	if cur, ok := f.MinMargin[k]; !ok || x < cur {
		f.MinMargin[k] = x
	}
}

// first keeps the maxFlipDetails flips of smallest position among f.First
// and ds.
func (f *FlipAggregate) first(ds []PositionedFlip) {
	if len(ds) == 0 {
		return
	}
	all := append(slices.Clone(f.First), ds...)
	slices.SortStableFunc(all, func(a, b PositionedFlip) int { return a.At.compare(b.At) })
	f.First = all[:min(len(all), maxFlipDetails)]
}

func (f *FlipAggregate) merge(o *FlipAggregate) {
	addCounts(f.ByKind, o.ByKind)
	addCounts(f.Decisions, o.Decisions)
	addCounts(f.Unresolved, o.Unresolved)
	for k, v := range o.MinMargin {
		f.minMargin(k, v)
	}
	f.WithFlips += o.WithFlips
	f.first(o.First)
}

// flips returns the summary's form.
func (f *FlipAggregate) flips() Flips {
	out := Flips{ByKind: maps.Clone(f.ByKind), Decisions: maps.Clone(f.Decisions), Unresolved: maps.Clone(f.Unresolved),
		MinMarginLog2: map[string]*float64{}, First: []FlipDetail{}, SignaturesWithFlips: int(f.WithFlips)}
	for _, v := range f.ByKind {
		out.Total += v
	}
	for k, v := range f.MinMargin {
		out.MinMarginLog2[k] = finite(v)
	}
	for _, d := range f.First {
		out.First = append(out.First, d.Detail)
	}
	return out
}

func (s *StageAggregate) add(r *Record) {
	for i, st := range r.Stages {
		s.row(StageLevel{st.Stage, st.Level}, UnitPos{r.Index, i}).Merge(st.Rel)
	}
}

// row returns the histogram of a row, created (or moved earlier) at
// position at.
func (s *StageAggregate) row(k StageLevel, at UnitPos) *Hist {
	row := s.Rows[k]
	if row == nil {
		row = &StageRowAggregate{First: at, Rel: NewHist()}
		s.Rows[k] = row
	}
	if at.compare(row.First) < 0 {
		row.First = at
	}
	return row.Rel
}

func (s *StageAggregate) merge(o *StageAggregate) {
	for k, row := range o.Rows {
		s.row(k, row.First).Merge(row.Rel)
	}
}

// rows returns the summary's rows in order of first appearance.
func (s *StageAggregate) rows() []StageSummary {
	keys := slices.SortedFunc(maps.Keys(s.Rows), func(a, b StageLevel) int { return s.Rows[a].First.compare(s.Rows[b].First) })
	rows := []StageSummary{}
	for _, k := range keys {
		h := s.Rows[k].Rel
		rows = append(rows, StageSummary{
			Stage: k.Stage, Level: k.Level, Values: h.Count(),
			MaxRelLog2: finite(h.Max), MedianRelLog2: finite(h.Median()), Q99RelLog2: finite(h.Quantile(0.99)),
			ExactValues: h.Zeros,
		})
	}
	return rows
}

// Summary computes the summary of the campaign cfg over backend from the
// aggregate of its records.
func (a *Aggregate) Summary(backend string, cfg Config) *Summary {
	n := 1 << cfg.LogN
	s := &Summary{Backend: backend, NamesRevision: arith.TriwordNamesRevision, Params: n, Shadow: cfg.Shadow, OracleBits: cfg.OracleBits, ExactSigma: cfg.Sigma}
	if cfg.Acceptance != nil {
		s.Acceptance = cfg.Acceptance.Name()
	}
	s.Scheme = cfg.SchemeName()
	s.KeySource = string(cfg.KeySourceOf())
	s.Mode = cfg.ModeName()
	if cfg.Shadow == ShadowDD {
		s.OracleBits = 106
	}
	s.Seconds = a.Seconds
	s.Signatures = int(a.Signatures)
	s.SamplerCalls = a.SamplerCalls
	s.Attempts = Attempts{Total: int(a.AttemptsTotal), Failed: int(a.AttemptsFailed), Reasons: map[string]int{}}
	for k, v := range a.FailureReasons {
		s.Attempts.Reasons[k] = int(v)
	}
	if s.Attempts.Total > 0 {
		rate := float64(s.Attempts.Failed) / float64(s.Attempts.Total)
		s.Attempts.FailRate = &rate
	}
	s.Leaves = s.SamplerCalls / 2
	s.PerLeaf = Triple{QOf(a.DeltaC), QOf(a.DeltaSigma), QOf(a.Sum)}
	s.PerTreeLeaf = QOf(a.LeafSum)
	s.PerSignature = Triple{QOf(a.SigDeltaC), QOf(a.SigDeltaSigma), QOf(a.SigSum)}
	s.Renyi = RenyiOf(n, maxOf(a.SigDeltaC), maxOf(a.SigDeltaSigma))
	if s.Signatures > 0 {
		meets := orInf(s.PerSignature.Sum.Max) <= -46
		s.Meets = &meets
	} else {
		// No signature: no verdict and no security figure (JSON null),
		// rather than values that read as an exact backend's.
		s.Renyi.BitsLostAt2_64, s.Renyi.BitsLostAt2_64Avg = nil, nil
	}
	s.Flips = a.SigFlips.flips()
	s.Stages = a.SigStages.rows()
	s.ExpmP63 = QOf(a.Expm)
	s.AcceptanceRel = QOf(a.Accept)
	if cfg.KATMode() {
		k := fmt.Sprintf("%d:%d", cfg.KATFrom, cfg.KATTo)
		s.KATRecords = &k
		s.Keys = s.Signatures
	} else {
		seed := cfg.Seed
		s.Seed = &seed
		s.Keys = cfg.Keys
	}
	if a.Keys > 0 {
		ks := &KeygenSummary{Keys: int(a.Keys), Shadowed: true, Flips: a.KeyFlips.flips(), Stages: a.KeyStages.rows()}
		for _, row := range ks.Stages {
			if row.Stage == "keygen_gs_norm" {
				ks.GSNormMaxRel = row.MaxRelLog2
			}
		}
		s.Keygen = ks
	}
	return s
}

func maxOf(h *Hist) float64 {
	if math.IsNaN(h.Max) {
		return math.Inf(-1)
	}
	return h.Max
}
