// Package tune searches for mixed-precision plans: the cheapest assignment
// of significand widths to the stages of Falcon signing (arith/plan) whose
// measured error, in the Falcon specification's sense (delta_c +
// delta_sigma at the sampler, section 2.6), stays within a target such as
// 2^-46.
//
// A plan meets the target when the statistic is within it, the sampler's
// acceptance probabilities are within the budget the specification's
// argument allows at the target (see AcceptanceSlackLog2), and no decision
// of the sample flips (a flip is a decision -- the sampler's floor, its
// Bernoulli trials re-decided with the same random bytes, the final
// roundings -- that exact arithmetic along the same path takes otherwise):
// delta_c and delta_sigma measure the sampler's inputs, and only the
// decisions see the errors of the sampler's own arithmetic, of expm_p63 and
// of the lattice stage.
//
// The search is a greedy descent from a uniform plan (every stage at the
// same width), in the manner of Precimonious (Rubio-Gonzalez et al., SC
// 2013) but on the real scheme and measured exactly: each candidate plan is
// run by shadow execution (analysis/shadow) over the same signatures, one
// stage's width is lowered at a time, a move is kept when the plan still
// meets the target, and a stage whose lowering fails halves its step. Every
// plan measured is a point of the cost-error plane; the Pareto front of
// the plans that meet the target is reported. The search chooses on its own sample, so the
// chosen plan is measured again on fresh signatures (a confirmation); when
// it misses there, the search walks back along its accepted moves to the
// last plan that holds on the fresh sample too. Each plan of the front (of
// the plans that meet the target) is confirmed the same way. A margin (the search's
// measurements must stay some bits below the target) makes walking back
// rare: a worst case over more signatures is larger.
package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/plan"
	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/scheme"
)

// Statistic is the error measure a plan must keep within the target.
type Statistic string

// The statistics.
const (
	// PerSignatureWorst is the largest delta_c + delta_sigma of any
	// sampler call of any signature: the specification's worst case.
	PerSignatureWorst Statistic = "per-signature-worst"
	// PerLeafMedian is the median of delta_c + delta_sigma over sampler
	// calls (the typical error TWFalcon reports).
	PerLeafMedian Statistic = "per-leaf-median"
)

// ParseStatistic checks a statistic's name.
func ParseStatistic(s string) (Statistic, error) {
	switch Statistic(s) {
	case PerSignatureWorst, PerLeafMedian:
		return Statistic(s), nil
	}
	return "", fmt.Errorf("statistic %q: want %q or %q", s, PerSignatureWorst, PerLeafMedian)
}

// AcceptanceSlackLog2 is log2(sqrt(154)/1.312): the Falcon
// specification's precision argument (v1.2, section 2.6) turns a centre
// error delta_c into a relative error of the sampler's output distribution
// of at most (sqrt(154)/1.312) delta_c per sample. A plan's sampler may
// therefore misplace its acceptance probability (relative) by as much as
// that at the target. The measured acceptance error is against exact
// inputs, so the centre's error is charged to this budget as well as the
// sampler's own arithmetic and expm_p63 (stricter than a bound on the
// latter alone); the factor of up to 2 by which normalisation can turn a
// relative error of every acceptance probability into one of the output
// distribution is not included. Without this bound only decision flips
// would see the sampler's errors, and a sample of K signatures flips only
// for errors above about 1/(K x 1800) per trial.
var AcceptanceSlackLog2 = math.Log2(math.Sqrt(154) / 1.312)

// Limits of the widths the search tries. The shadow is double-double
// (106-bit significand; its own error is below 2^-93), so plans stay at most
// MaxBits wide.
const (
	MinBits = 11
	MaxBits = 90
)

// Config describes a search.
type Config struct {
	LogN uint
	// TargetLog2 is the target as a power of two (-46 for 2^-46).
	TargetLog2 float64
	// MarginBits: the search's own measurements must be MarginBits below
	// the target (a worst case over K signatures grows on a larger
	// sample); confirmations are judged against the target itself.
	MarginBits float64
	Statistic  Statistic
	Cost       CostModel
	// Signatures per measurement (Keys keys), from Seed; the confirmation
	// uses ConfirmSignatures fresh ones (seed Seed+"/confirm").
	Signatures, Keys, ConfirmSignatures int
	Seed                                string
	// Scheme is the scheme signed (nil: scheme.Default, round 3), at the
	// degrees it takes, with its own 1/sigma table on the exact side when
	// it fixes one (as compare does).
	Scheme scheme.Scheme
	// KeySource is the key generation of the search's keys, as
	// shadow.Config's: shadow.KeysOf(Scheme) (the scheme's own key
	// generation of shadow.SchemeKeySeed(Scheme, seed, i), the keys compare
	// signs with for the same seed) or shadow.KeysFalcon (round 3's over
	// emu64; also the zero value's, which every FN-DSA search made before
	// FN-DSA key generation used). Round 3 takes "" or KeysFalcon.
	KeySource shadow.KeySource
	// Format is the stage format with %d for the width, e.g. "vprec:%d"
	// or "vprec:%d:e11:rz".
	Format string
	// Start is the uniform plan's width; Step the first step of each
	// stage's descent; Floor the narrowest width tried.
	Start, Step, Floor int
	Workers            int
	// Have returns an earlier measurement (resume); Done receives each new
	// one. Both may be nil. Progress receives one line per measurement.
	Have     func(key string) (*Evaluation, bool)
	Done     func(e *Evaluation) error
	Progress func(line string)
}

// Check validates the configuration.
func (c *Config) Check() error {
	switch {
	case c.LogN < 1 || c.LogN > 10:
		return fmt.Errorf("tune: degree 2^%d: want 2^1..2^10 (Falcon-512 is 2^9)", c.LogN)
	case c.MarginBits < 0 || c.MarginBits > 10 || math.IsNaN(c.MarginBits):
		return fmt.Errorf("tune: margin %g bits: want 0..10", c.MarginBits)
	case c.TargetLog2 >= 0 || c.TargetLog2 < -80 || math.IsNaN(c.TargetLog2):
		return fmt.Errorf("tune: target 2^%g: want a power of two between 2^-80 and 2^-1", c.TargetLog2)
	case c.Signatures < 1 || c.ConfirmSignatures < 1 || c.Keys < 1:
		return fmt.Errorf("tune: %d signatures, %d for confirmation, %d keys: want at least 1 each", c.Signatures, c.ConfirmSignatures, c.Keys)
	case c.Start < MinBits || c.Start > MaxBits || c.Floor < MinBits || c.Floor > c.Start || c.Step < 1:
		return fmt.Errorf("tune: start %d, floor %d, step %d: want %d <= floor <= start <= %d and step >= 1", c.Start, c.Floor, c.Step, MinBits, MaxBits)
	case strings.Count(c.Format, "%d") != 1:
		return fmt.Errorf("tune: format %q: want one %%d for the width", c.Format)
	}
	if c.Scheme == nil {
		sc, err := scheme.Lookup("")
		if err != nil {
			return fmt.Errorf("tune: %w", err)
		}
		c.Scheme = sc
	}
	if err := c.Scheme.CheckLogN(c.LogN); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	scfg := c.shadowConfig(c.Seed, 1, 1)
	if err := scfg.Check(); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	if _, err := ParseStatistic(string(c.Statistic)); err != nil {
		return err
	}
	if _, err := ParseCostModel(string(c.Cost)); err != nil {
		return err
	}
	_, err := plan.Parse("all=" + fmt.Sprintf(c.Format, c.Start))
	return err
}

// shadowConfig is the shadowed campaign of n signatures from seed that
// measures (or counts) a plan: the keys of KeySource (round 3's over
// emu64, or the scheme's own), dd shadow, and the scheme's
// exact 1/sigma -- the formula for round 3, the scheme's own table for
// a scheme that fixes one (FN-DSA's is the formula correctly rounded to
// binary64, and the shadow takes no other for it).
func (c *Config) shadowConfig(seed string, n, workers int) shadow.Config {
	sigma := shadow.SigmaFormula
	if c.Scheme != nil && c.Scheme.FixedInvSigma() {
		sigma = shadow.SigmaReference
	}
	return shadow.Config{
		LogN: c.LogN, Signatures: n, Keys: min(c.Keys, n), Seed: seed, Shadow: shadow.ShadowDD,
		Sigma: sigma, KeygenBackend: "emu64", Workers: workers, OracleBits: 256, Scheme: c.Scheme, KeySource: c.KeySource,
	}
}

// Widths is a significand width per plan stage.
type Widths [arith.NumPlanStages]int

func (w Widths) total() int {
	t := 0
	for _, v := range w {
		t += v
	}
	return t
}

// Evaluation is one measured plan.
type Evaluation struct {
	Plan       string `json:"plan"`
	Widths     Widths `json:"widths"`
	Seed       string `json:"seed"`
	Signatures int    `json:"signatures"`
	// ErrorLog2 is the statistic (log2; -Inf when every sampler call was
	// exact), with both statistics beside it.
	ErrorLog2           checkpoint.Float `json:"error_log2"`
	PerSignatureMaxLog2 *float64         `json:"per_signature_max_log2"`
	PerLeafMedianLog2   *float64         `json:"per_leaf_median_log2"`
	Meets               bool             `json:"meets_target"`
	// AcceptanceMaxLog2 is the largest relative error of a Bernoulli
	// trial's acceptance probability (shadow.Summary.AcceptanceRel).
	AcceptanceMaxLog2  *float64 `json:"acceptance_max_log2"`
	Flips              int64    `json:"flips"`
	FailedAttemptsFrac float64  `json:"failed_attempts_fraction"`
	Cost               float64  `json:"cost"`
	// Misses lists the criteria a measured plan fails (the statistic, the
	// acceptance budget, flips); empty when it meets the target.
	Misses []string `json:"misses,omitempty"`
	// Failure says why the plan could not sign (error +Inf), if so.
	Failure      string      `json:"failure,omitempty"`
	Seconds      float64     `json:"seconds"`
	Confirmation *Evaluation `json:"confirmation,omitempty"`
}

// key identifies a measurement for resuming.
func key(p plan.Plan, seed string, n int) string { return fmt.Sprintf("%s|%s|%d", p, seed, n) }

// Verdict says whether e meets the target, or why not.
func (e *Evaluation) Verdict() string {
	switch {
	case e.Failure != "":
		return "misses (cannot sign: " + e.Failure + ")"
	case e.Meets:
		return "meets"
	case len(e.Misses) > 0:
		return "misses (" + strings.Join(e.Misses, "; ") + ")"
	}
	return "misses"
}

// measurement returns a copy of e without its confirmation: what Have and
// Done exchange (the search attaches confirmations to its own copies).
func (e *Evaluation) measurement() *Evaluation {
	c := *e
	c.Confirmation = nil
	return &c
}

// Key is the resume key of e.
func (e *Evaluation) Key() string { return fmt.Sprintf("%s|%s|%d", e.Plan, e.Seed, e.Signatures) }

// Result is the outcome of a search.
type Result struct {
	// Scheme is the scheme signed: "falcon" (round 3) or "fn-dsa".
	Scheme string `json:"scheme"`
	// KeySource is the key generation of an FN-DSA search's keys:
	// "fn-dsa" (FN-DSA's own) or "falcon" (round 3's); absent for round
	// 3 and in FN-DSA documents written before the field (round 3's).
	KeySource  string    `json:"key_source,omitempty"`
	Params     int       `json:"params"`
	TargetLog2 float64   `json:"target_log2"`
	MarginBits float64   `json:"margin_bits"`
	Statistic  Statistic `json:"statistic"`
	Cost       CostModel `json:"cost_model"`
	CostUnit   string    `json:"cost_unit"`
	Format     string    `json:"format"`
	Signatures int       `json:"signatures"`
	Confirm    int       `json:"confirm_signatures"`
	Seed       string    `json:"seed"`
	Stages     []string  `json:"stages"`
	// NotTuned lists the stages in which the scheme's signing makes no
	// arithmetic operation at all (counted): their width changes
	// nothing, the search leaves them at the uniform plan's, and they are
	// not results of the search (FN-DSA's expm: its ApproxExp is integer).
	NotTuned []StageNote `json:"not_tuned,omitempty"`
	// CostNote says what the cost leaves out, if anything.
	CostNote string `json:"cost_note,omitempty"`
	// OpsPerSignature is the operation count per stage the cost uses.
	OpsPerSignature map[string]map[string]float64 `json:"ops_per_signature"`
	Uniform         *Evaluation                   `json:"uniform"`
	// Chosen is the last plan of the descent whose confirmation meets
	// the target: Descent moves were accepted, the last WalkedBack of
	// them undone because their plans missed on fresh signatures.
	Chosen      *Evaluation   `json:"chosen"`
	Descent     int           `json:"descent_moves"`
	WalkedBack  int           `json:"walked_back"`
	Pareto      []*Evaluation `json:"pareto"`
	Evaluations []*Evaluation `json:"evaluations"`
	// Confirmations is the number of confirmation measurements.
	Confirmations int `json:"confirmations"`
	// Below53 and Above53 list the stages the chosen plan computes with
	// fewer, and more, significand bits than binary64.
	// MeasuredSeconds is the time of every measurement, this run's and
	// those an earlier run left in the checkpoint; Seconds this run's.
	MeasuredSeconds float64  `json:"measured_seconds"`
	Below53         []string `json:"below_53"`
	Above53         []string `json:"above_53"`
	Seconds         float64  `json:"seconds"`
}

// StageNote is a stage and what is said about it.
type StageNote struct {
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
}

type searcher struct {
	ctx   context.Context
	cfg   Config
	ops   StageOps
	idle  [arith.NumPlanStages]bool // stages with no operation (not tuned)
	evals map[string]*Evaluation
	order []*Evaluation
}

// Search runs the search.
func Search(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	t0 := time.Now()
	s := &searcher{ctx: ctx, cfg: cfg, evals: map[string]*Evaluation{}}
	ops, err := countOps(cfg)
	if err != nil {
		return nil, err
	}
	s.ops = ops
	var notTuned []StageNote
	for _, st := range plan.Stages() {
		if s.idle[st] = idleStage(ops[st]); s.idle[st] {
			notTuned = append(notTuned, StageNote{Stage: st.String(), Reason: idleReason(cfg.Scheme, st)})
		}
	}

	var w Widths
	for i := range w {
		w[i] = cfg.Start
	}
	limit := cfg.TargetLog2 - cfg.MarginBits
	uni, err := s.measure(w, cfg.Seed, cfg.Signatures, limit)
	if err != nil {
		return nil, err
	}
	if !uni.Meets {
		return nil, fmt.Errorf("tune: the uniform plan at %d bits measures 2^%.2f with %d flips; the search needs 2^%g (the target less the margin) and none: start wider (--start)", cfg.Start, float64(uni.ErrorLog2), uni.Flips, limit)
	}

	// Greedy descent: lower one stage at a time by its step, keep the
	// move when the plan still meets the target, halve the stage's step
	// when it does not. Stages are tried most expensive first.
	var step Widths
	for i := range step {
		step[i] = cfg.Step
	}
	cur := uni
	path := []*Evaluation{uni} // the accepted moves, in order
	for {
		moved, active := false, false
		for _, st := range s.byCost(cur.Widths) {
			if s.idle[st] {
				continue
			}
			for step[st] >= 1 && cur.Widths[st]-step[st] < cfg.Floor {
				step[st] /= 2
			}
			if step[st] < 1 {
				continue
			}
			active = true
			cand := cur.Widths
			cand[st] -= step[st]
			e, err := s.measure(cand, cfg.Seed, cfg.Signatures, limit)
			if err != nil {
				return nil, err
			}
			// Equal cost is a move too (the accel model prices widths
			// in steps of whole DSP tiles): it is never worse, and it
			// leads to the next step down.
			if e.Meets && e.Cost <= cur.Cost {
				cur, moved = e, true
				path = append(path, e)
			} else {
				step[st] /= 2
			}
		}
		if !active || (!moved && allZero(step)) {
			break
		}
	}

	// The descent chose on its own sample. Confirm on fresh signatures,
	// walking back along the accepted moves until a plan holds there too.
	var chosen *Evaluation
	for i := len(path) - 1; i >= 0 && chosen == nil; i-- {
		c, err := s.measure(path[i].Widths, s.confirmSeed(), cfg.ConfirmSignatures, cfg.TargetLog2)
		if err != nil {
			return nil, err
		}
		path[i].Confirmation = c
		if c.Meets {
			chosen = path[i]
		}
	}
	if chosen == nil {
		return nil, fmt.Errorf("tune: not even the uniform plan at %d bits meets 2^%g on %d fresh signatures (it measures 2^%.2f with %d flips): start wider (--start)",
			cfg.Start, cfg.TargetLog2, cfg.ConfirmSignatures, float64(uni.Confirmation.ErrorLog2), uni.Confirmation.Flips)
	}
	scfg := cfg.shadowConfig(cfg.Seed, cfg.Signatures, cfg.Workers)
	res := &Result{
		Scheme: cfg.Scheme.Name(), KeySource: string(scfg.KeySourceOf()), NotTuned: notTuned, CostNote: cfg.Scheme.CostNote(),
		Params: 1 << cfg.LogN, TargetLog2: cfg.TargetLog2, MarginBits: cfg.MarginBits, Statistic: cfg.Statistic, Cost: cfg.Cost, CostUnit: cfg.Cost.Unit(),
		Format: cfg.Format, Signatures: cfg.Signatures, Confirm: cfg.ConfirmSignatures, Seed: cfg.Seed,
		OpsPerSignature: opsTable(ops), Uniform: uni, Chosen: chosen, Descent: len(path) - 1, WalkedBack: len(path) - 1 - slices.Index(path, chosen),
	}
	for _, st := range plan.Stages() {
		res.Stages = append(res.Stages, st.String())
		if s.idle[st] {
			continue
		}
		switch w := chosen.Widths[st]; {
		case w < 53:
			res.Below53 = append(res.Below53, st.String())
		case w > 53:
			res.Above53 = append(res.Above53, st.String())
		}
	}
	res.Pareto = pareto(s.order, cfg.Seed)
	// Confirm every front plan.
	for _, e := range res.Pareto {
		if e.Confirmation != nil {
			continue
		}
		c, err := s.measure(e.Widths, s.confirmSeed(), cfg.ConfirmSignatures, cfg.TargetLog2)
		if err != nil {
			return nil, err
		}
		e.Confirmation = c
	}
	// The evaluation list holds the search's own measurements only.
	res.Evaluations = slices.DeleteFunc(slices.Clone(s.order), func(e *Evaluation) bool { return e.Seed != cfg.Seed })
	res.Confirmations = len(s.order) - len(res.Evaluations)
	for _, e := range s.order {
		res.MeasuredSeconds += e.Seconds
	}
	res.Seconds = time.Since(t0).Seconds()
	return res, nil
}

// idleStage reports whether a stage's counts hold no operation at all.
func idleStage(n [arith.NumOps]float64) bool {
	for _, v := range n {
		if v != 0 {
			return false
		}
	}
	return true
}

// idleReason says why a stage without operations is not tuned.
func idleReason(sc scheme.Scheme, st arith.PlanStage) string {
	if r := sc.IdleStage(st); r != "" {
		return r
	}
	return "no arithmetic operation of signing falls in this stage; not tuned, its width changes nothing"
}

func allZero(w Widths) bool {
	for _, v := range w {
		if v >= 1 {
			return false
		}
	}
	return true
}

// byCost orders the stages by their share of the plan's cost, largest
// first (ties in stage order).
func (s *searcher) byCost(w Widths) []arith.PlanStage {
	st := plan.Stages()
	share := func(x arith.PlanStage) float64 {
		var one StageOps
		one[x] = s.ops[x]
		return s.cfg.Cost.Cost(one, w)
	}
	sort.SliceStable(st, func(i, j int) bool { return share(st[i]) > share(st[j]) })
	return st
}

// planOf is the plan of widths w in the configured format.
func (s *searcher) planOf(w Widths) (plan.Plan, error) {
	var parts []string
	for i, b := range w {
		parts = append(parts, arith.PlanStage(i).String()+"="+fmt.Sprintf(s.cfg.Format, b))
	}
	return plan.Parse(strings.Join(parts, ","))
}

// confirmSeed is the seed of the confirmations' fresh signatures.
func (s *searcher) confirmSeed() string { return s.cfg.Seed + "/confirm" }

// measure runs (or recalls) the shadowed signatures of plan w; the plan
// meets when its statistic is at most limit (log2), its Bernoulli trials'
// acceptance probabilities are within limit+AcceptanceSlackLog2, and
// nothing flips.
func (s *searcher) measure(w Widths, seed string, n int, limit float64) (*Evaluation, error) {
	p, err := s.planOf(w)
	if err != nil {
		return nil, err
	}
	k := key(p, seed, n)
	if e, ok := s.evals[k]; ok {
		return e, nil
	}
	if s.cfg.Have != nil {
		if have, ok := s.cfg.Have(k); ok {
			e := have.measurement()
			e.Widths = w
			// The cost follows from the widths: priced by this run's
			// model, whatever an earlier run used.
			e.Cost = s.cfg.Cost.Cost(s.ops, w)
			s.keep(k, e)
			return e, nil
		}
	}
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	t0 := time.Now()
	b, err := plan.Backend(p)
	if err != nil {
		return nil, err
	}
	cfg := s.cfg.shadowConfig(seed, n, s.cfg.Workers)
	recs, err := shadow.Run(s.ctx, b, cfg)
	if err != nil && s.ctx.Err() == nil && cannotSign(err) {
		// Too little precision to sign at all: a measurement, not an
		// error of the search.
		e := &Evaluation{
			Plan: p.String(), Widths: w, Seed: seed, Signatures: n, ErrorLog2: checkpoint.Float(math.Inf(1)),
			Failure: err.Error(), Cost: s.cfg.Cost.Cost(s.ops, w), Seconds: time.Since(t0).Seconds(),
		}
		return s.done(k, e)
	}
	if err != nil {
		return nil, fmt.Errorf("tune: plan %s: %w", p, err)
	}
	sum := shadow.Summarize(b.Name, cfg, recs)
	e := &Evaluation{
		Plan: p.String(), Widths: w, Seed: seed, Signatures: n,
		PerSignatureMaxLog2: sum.PerSignature.Sum.Max, PerLeafMedianLog2: sum.PerLeaf.Sum.Median,
		Flips: sum.Flips.Total, FailedAttemptsFrac: sum.Attempts.FailedFraction(),
		Cost: s.cfg.Cost.Cost(s.ops, w), Seconds: time.Since(t0).Seconds(),
	}
	stat := e.PerSignatureMaxLog2
	if s.cfg.Statistic == PerLeafMedian {
		stat = e.PerLeafMedianLog2
	}
	e.ErrorLog2 = checkpoint.Float(math.Inf(-1))
	if stat != nil {
		e.ErrorLog2 = checkpoint.Float(*stat)
	}
	// The target bounds the errors of the sampler's inputs; the sampler's
	// own arithmetic, expm_p63 and the final rounding show only in its
	// decisions, so a plan must also keep every decision exact arithmetic
	// would take along the same path.
	e.AcceptanceMaxLog2 = sum.AcceptanceRel.Max
	if float64(e.ErrorLog2) > limit {
		e.Misses = append(e.Misses, fmt.Sprintf("error 2^%.2f > 2^%.2f", float64(e.ErrorLog2), limit))
	}
	if a := e.AcceptanceMaxLog2; a != nil && *a > limit+AcceptanceSlackLog2 {
		e.Misses = append(e.Misses, fmt.Sprintf("acceptance 2^%.2f > 2^%.2f", *a, limit+AcceptanceSlackLog2))
	}
	if e.Flips > 0 {
		e.Misses = append(e.Misses, fmt.Sprintf("%d flips", e.Flips))
	}
	e.Meets = len(e.Misses) == 0
	return s.done(k, e)
}

// cannotSign reports whether err says that a plan has too little
// precision to sign: no short vector within the attempts' bound (the
// scheme's signer, scheme.ErrSignAttempts), or a sampler that rejects
// without end.
func cannotSign(err error) bool {
	return errors.Is(err, scheme.ErrSignAttempts) || errors.Is(err, scheme.ErrSamplerStuck)
}

// done records a new measurement.
func (s *searcher) done(k string, e *Evaluation) (*Evaluation, error) {
	if s.cfg.Done != nil {
		if err := s.cfg.Done(e.measurement()); err != nil {
			return nil, err
		}
	}
	s.keep(k, e)
	return e, nil
}

func (s *searcher) keep(k string, e *Evaluation) {
	s.evals[k] = e
	s.order = append(s.order, e)
	if s.cfg.Progress != nil {
		s.cfg.Progress(fmt.Sprintf("%s: 2^%.2f, %d flips: %s; cost %.4g (%d signatures, seed %s, %.1f s)", e.Plan, float64(e.ErrorLog2), e.Flips, e.Verdict(), e.Cost, e.Signatures, e.Seed, e.Seconds))
	}
}

// pareto returns the front of the plans of the search's own sample that
// meet the target: those no other meeting plan beats in both cost and error,
// by increasing cost (of plans with equal cost and error, the narrowest). Plans that miss are not on it, however cheap: they are points
// of the figure, not choices.
func pareto(es []*Evaluation, seed string) []*Evaluation {
	var front []*Evaluation
	seen := map[string]bool{}
	for _, e := range es {
		if seen[e.Plan] || e.Seed != seed || !e.Meets {
			continue
		}
		seen[e.Plan] = true
		dominated := false
		for _, o := range es {
			if o == e || o.Seed != seed || !o.Meets {
				continue
			}
			if o.Cost <= e.Cost && o.ErrorLog2 <= e.ErrorLog2 && (o.Cost < e.Cost || o.ErrorLog2 < e.ErrorLog2) {
				dominated = true
				break
			}
		}
		for i, f := range front {
			if f.Cost == e.Cost && f.ErrorLog2 == e.ErrorLog2 {
				// An equal point is on the front already: keep the
				// narrower plan (the descent's later, equal-cost move).
				if e.Widths.total() < f.Widths.total() {
					front[i] = e
				}
				dominated = true
			}
		}
		if !dominated {
			front = append(front, e)
		}
	}
	sort.SliceStable(front, func(i, j int) bool { return front[i].Cost < front[j].Cost })
	return front
}

// countOps counts the operations per stage on native signing of a few
// signatures with the search's keys and messages.
func countOps(cfg Config) (StageOps, error) {
	const n = 8
	return CountStages(n, func(b arith.Backend) error {
		_, err := shadow.Run(context.Background(), b, cfg.shadowConfig(cfg.Seed+"/count", n, 1))
		return err
	})
}

func opsTable(ops StageOps) map[string]map[string]float64 {
	t := map[string]map[string]float64{}
	for s := range ops {
		row := map[string]float64{}
		for o, v := range ops[s] {
			if v != 0 {
				row[arith.Op(o).String()] = v
			}
		}
		t[arith.PlanStage(s).String()] = row
	}
	return t
}
