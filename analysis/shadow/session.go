package shadow

import (
	"fmt"
	"math"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
)

// maxFlipDetails is the number of decision flips a record describes in
// words; all of them are counted.
const maxFlipDetails = 16

// FlipDetail describes one decision flip: where it happened and the two
// outcomes.
type FlipDetail struct {
	Kind  string   `json:"kind"`
	Where string   `json:"where"`
	B     int64    `json:"backend"`
	X     int64    `json:"exact"`
	Gap   *float64 `json:"margin_log2"` // the exact side's distance to the decision boundary
}

// StageStat holds the errors of the values one stage produced at one
// level, each relative to the largest exact magnitude in its polynomial
// (normwise relative error).
type StageStat struct {
	Stage string `json:"stage"`
	Level int    `json:"level"`
	Rel   *Hist  `json:"rel"`
}

// maxStageLevel is the largest level a record holds statistics of (the
// degree exponent of Falcon-1024).
const maxStageLevel = arith.MaxLogN

// Record is the measurement of one signature (or one generated key): what
// a campaign directory holds, one JSON line each, and what summaries are
// computed from.
type Record struct {
	Kind  string `json:"kind"` // "signature" or "keygen"
	Index int    `json:"index"`
	Key   int    `json:"key"`
	// Attempts is the number of signing attempts; AttemptFailures says why
	// each failed attempt was not a signature.
	Attempts        int      `json:"attempts"`
	AttemptFailures []string `json:"attempt_failures,omitempty"`
	Calls           int64    `json:"sampler_calls"`
	Rejections      int64    `json:"sampler_rejections"`
	// Per sampler call.
	DeltaC     *Hist `json:"delta_c"`
	DeltaSigma *Hist `json:"delta_sigma"`
	Sum        *Hist `json:"sum"`
	// Per tree leaf: the worse of its two calls' delta_c + delta_sigma.
	LeafSum *Hist `json:"leaf_sum"`
	// The maxima over this record's calls (log2; null when exact).
	MaxDeltaC     *float64 `json:"max_delta_c_log2"`
	MaxDeltaSigma *float64 `json:"max_delta_sigma_log2"`
	MaxSum        *float64 `json:"max_sum_log2"`
	// Decisions: counts per kind, flips per kind, the smallest margins.
	Decisions map[string]int64 `json:"decisions"`
	Flips     map[string]int64 `json:"flips"`
	// Unresolved counts decisions that differ between the two sides where
	// the exact margin lies below the shadow's own resolution: the shadow
	// cannot tell which side is right (rerun with --shadow oracle).
	Unresolved map[string]int64    `json:"unresolved,omitempty"`
	MinMargin  map[string]*float64 `json:"min_margin_log2"`
	FlipDetail []FlipDetail        `json:"flip_details,omitempty"`
	// ExpmErr holds the log2 relative errors of the backend's ExpmP63.
	ExpmErr *Hist `json:"expm_p63_rel"`
	// AcceptErr holds the relative errors of the Bernoulli trials'
	// acceptance probability 2^63 ccs exp(-r) as the backend computed it
	// (ExpmP63 of its own x and ccs) against the exact side's value on exact
	// inputs: the centre's and sigma's errors as they reach the
	// exponential, the sampler's own arithmetic and expm_p63's, together.
	AcceptErr *Hist        `json:"acceptance_rel,omitempty"`
	Stages    []*StageStat `json:"stages"`
	Seconds   float64      `json:"seconds"`
	// Signature is the signature the shadowed run made (not written out:
	// for callers that check it against an unshadowed run's).
	Signature []byte `json:"-"`
}

// observer is the falcon.Observer of one shadowed run (one signature, or
// one key generation) over the pair arithmetic p; it fills rec.
type observer[F, X any, A arith.Arith[F], AX Exact[X]] struct {
	p   *PairArith[F, X, A, AX]
	rec *Record

	keygen    bool
	attempt   int // current signing attempt, from 0
	call      int // sampler call within the attempt
	candidate int // key-generation candidate
	leafWorst float64
	stages    [falcon.NumStages][maxStageLevel + 1]*StageStat
	flips     [numDecisions]int64
	// acc is the acceptance that replaces BerExp in the run (nil: BerExp).
	acc ExactAcceptance
}

func newObserver[F, X any, A arith.Arith[F], AX Exact[X]](p *PairArith[F, X, A, AX], kind string, index, key int) *observer[F, X, A, AX] {
	return &observer[F, X, A, AX]{
		p: p,
		rec: &Record{
			Kind: kind, Index: index, Key: key,
			DeltaC: NewHist(), DeltaSigma: NewHist(), Sum: NewHist(), LeafSum: NewHist(),
		},
		keygen: kind == "keygen",
	}
}

var _ falcon.Observer[Pair[float64, *big.Float]] = (*observer[float64, *big.Float, arith.Arith[float64], BigExact])(nil)
var _ falcon.AcceptanceObserver[Pair[float64, *big.Float]] = (*observer[float64, *big.Float, arith.Arith[float64], BigExact])(nil)

// flush attributes the decisions since the previous event to where.
func (o *observer[F, X, A, AX]) flush(where func() string) {
	for _, f := range o.p.d.take() {
		kind := f.kind.String()
		if f.unresolved {
			if o.rec.Unresolved == nil {
				o.rec.Unresolved = map[string]int64{}
			}
			o.rec.Unresolved[kind]++
			kind += " (unresolved)"
		} else {
			o.flips[f.kind]++
		}
		if len(o.rec.FlipDetail) < maxFlipDetails {
			o.rec.FlipDetail = append(o.rec.FlipDetail, FlipDetail{
				Kind: kind, Where: where() + fmt.Sprintf(", %s #%d", f.kind, f.idx), B: f.b, X: f.x, Gap: finite(f.gap),
			})
		}
	}
}

// Stage implements falcon.Observer.
func (o *observer[F, X, A, AX]) Stage(st falcon.Stage, level, iter int, values ...[]Pair[F, X]) {
	switch st {
	case falcon.StageCandidate:
		o.candidate = iter
	}
	o.flush(func() string { return o.where(st, level, iter) })
	if len(values) == 0 || st < 0 || st >= falcon.NumStages || level < 0 || level > maxStageLevel {
		return // a record has no statistics of other stages and levels
	}
	ss := o.stages[st][level]
	if ss == nil {
		ss = &StageStat{Stage: st.String(), Level: level, Rel: NewHist()}
		o.stages[st][level] = ss
	}
	for _, vs := range values {
		o.addStage(vs, ss.Rel)
	}
}

// addStage adds to h the errors of the values vs of one polynomial,
// relative to its largest exact value (normwise): FFT-domain values that
// are zero or tiny in exact arithmetic (structural cancellations) would
// otherwise show huge componentwise relative errors that say nothing about
// precision.
func (o *observer[F, X, A, AX]) addStage(vs []Pair[F, X], h *Hist) {
	if o.p.stageX != nil {
		o.p.stageX(vs, h)
		return
	}
	scale := 0.0
	for _, v := range vs {
		scale = math.Max(scale, math.Abs(o.p.x.Float64(v.X)))
	}
	for _, v := range vs {
		abs, _ := o.p.errs(v)
		h.AddLinear(normwise(abs, scale))
	}
}

// normwise is the error abs of a value of a polynomial whose largest exact
// magnitude is scale, relative to it: abs/scale, an exact zero, or +Inf
// for an error where the whole exact polynomial is zero.
func normwise(abs, scale float64) float64 {
	switch {
	case abs == 0:
		return 0
	case scale == 0:
		return math.Inf(1)
	}
	return abs / scale
}

// where describes the place of an event in words, e.g. "keygen candidate
// 3, NTRUSolve depth 1, Babai iteration 3".
func (o *observer[F, X, A, AX]) where(st falcon.Stage, level, iter int) string {
	if o.keygen {
		switch st {
		case falcon.StageBabai:
			return fmt.Sprintf("keygen candidate %d, NTRUSolve depth %d, Babai iteration %d", o.candidate, level, iter)
		case falcon.StageGSNorm:
			return fmt.Sprintf("keygen candidate %d, Gram-Schmidt norm check", o.candidate)
		}
		return fmt.Sprintf("keygen candidate %d, %s", o.candidate, st)
	}
	return fmt.Sprintf("sign attempt %d, %s (level %d)", o.attempt+1, st, level)
}

// Sample implements falcon.Observer.
func (o *observer[F, X, A, AX]) Sample(mu, isigma Pair[F, X], z int64, rejections int) {
	call := o.call
	o.flush(func() string { return fmt.Sprintf("sign attempt %d, sampler call %d (z = %d)", o.attempt+1, call, z) })
	o.call++
	o.rec.Calls++
	o.rec.Rejections += int64(rejections)
	dc, _ := o.p.errs(mu)
	_, ds := o.p.errs(isigma)
	sum := dc + ds
	o.rec.DeltaC.AddLinear(dc)
	o.rec.DeltaSigma.AddLinear(ds)
	o.rec.Sum.AddLinear(sum)
	// Calls come in pairs per leaf (falcon.Observer.Sample).
	o.leafWorst = math.Max(o.leafWorst, sum)
	if call%2 == 1 {
		o.rec.LeafSum.AddLinear(o.leafWorst)
		o.leafWorst = 0
	}
}

// BerExp implements falcon.Observer: it decides the trial again with the
// exact side's threshold and the same random bytes. The bytes drawn fix the
// random 64-bit value R to an interval [lo, hi]; exact arithmetic accepts
// when R < threshold, which is decided when the whole interval lies on one
// side. When it does not, exact arithmetic would have drawn more bytes
// (DecBerExpMore): the random streams diverge from there.
func (o *observer[F, X, A, AX]) BerExp(expm uint64, shift uint, drawn uint64, nbytes int, accept bool) {
	zx := ((o.p.d.lastExpmX << 1) - 1) >> shift
	var span uint64 // the undrawn low bytes of R
	if nbytes < 8 {
		span = uint64(1)<<(64-8*uint(nbytes)) - 1
	}
	lo, hi := drawn, drawn+span
	// The trial draws bytes while they equal the threshold's; the backend's
	// threshold matched the first nbytes-1 drawn bytes. Where the exact
	// threshold differs from one of them, exact arithmetic stops there,
	// having drawn fewer bytes: whatever its outcome, the random stream
	// parts from the backend's (DecBerExpFewer).
	for k := range nbytes - 1 {
		if sh := 56 - 8*uint(k); byte(drawn>>sh) != byte(zx>>sh) {
			o.p.d.noteLog2(DecBerExpFewer, int64(nbytes), int64(k+1), math.Inf(-1), func() float64 { return math.Inf(-1) })
			return
		}
	}
	var margin float64
	switch {
	case hi < zx:
		margin = float64(zx - hi)
		o.p.d.note(DecBerExp, b2i(accept), 1, margin, 64, o.resolution)
	case lo >= zx:
		margin = float64(lo - zx)
		o.p.d.note(DecBerExp, b2i(accept), 0, margin, 64, o.resolution)
	default:
		o.p.d.noteLog2(DecBerExpMore, 0, 1, math.Inf(-1), func() float64 { return math.Inf(-1) })
	}
}

// resolution is the exact side's resolution of a Bernoulli trial's margin
// (log2, relative to 2^64).
func (o *observer[F, X, A, AX]) resolution() float64 { return o.p.resLog2 }

// ExactAcceptance is an acceptance test that replaces the sampler's BerExp
// (falcon.Acceptance) and can also decide exactly: ExactAccept decides as
// the design would with exact arithmetic, from the exact x and ccs of the
// attempt and the same random words, and returns how far the outcome was
// from changing (log2 of a probability).
type ExactAcceptance interface {
	falcon.Acceptance
	ExactAccept(x, ccs *big.Float, words []uint64) (accept bool, marginLog2 float64)
}

// Acceptance implements falcon.AcceptanceObserver: it decides the trial of
// the replacing acceptance again from the exact side's x and ccs.
func (o *observer[F, X, A, AX]) Acceptance(x, ccs Pair[F, X], words []uint64, accept bool) {
	if o.acc == nil {
		return
	}
	ex, m := o.acc.ExactAccept(o.p.x.Big(x.X), o.p.x.Big(ccs.X), words)
	o.p.d.noteLog2(DecAcceptance, b2i(accept), b2i(ex), m, func() float64 { return o.p.resAt(o.p.x.Float64(x.X)) })
}

// Attempt implements falcon.Observer.
func (o *observer[F, X, A, AX]) Attempt(at *falcon.Attempt) {
	a := o.attempt
	o.flush(func() string { return fmt.Sprintf("sign attempt %d, rounding of the lattice point into (s1, s2)", a+1) })
	o.rec.Attempts++
	if !at.Short {
		o.rec.AttemptFailures = append(o.rec.AttemptFailures, at.Failure())
	}
	o.attempt++
	o.call = 0
	o.leafWorst = 0
}

// finish completes the record.
func (o *observer[F, X, A, AX]) finish() *Record {
	o.flush(func() string { return "end of run" })
	r := o.rec
	r.MaxDeltaC, r.MaxDeltaSigma, r.MaxSum = finite(r.DeltaC.Max), finite(r.DeltaSigma.Max), finite(r.Sum.Max)
	d := o.p.d
	r.Decisions = map[string]int64{}
	r.Flips = map[string]int64{}
	r.MinMargin = map[string]*float64{}
	for k := range numDecisions {
		if d.count[k] == 0 {
			continue
		}
		r.Decisions[k.String()] = d.count[k]
		r.Flips[k.String()] = o.flips[k]
		r.MinMargin[k.String()] = finite(d.minMargin[k])
	}
	r.ExpmErr = d.expmErr
	r.AcceptErr = d.acceptErr
	for st := range falcon.NumStages {
		for lv := maxStageLevel; lv >= 0; lv-- {
			if ss := o.stages[st][lv]; ss != nil {
				r.Stages = append(r.Stages, ss)
				ss.Rel.compact()
			}
		}
	}
	for _, h := range []*Hist{r.DeltaC, r.DeltaSigma, r.Sum, r.LeafSum, r.ExpmErr, r.AcceptErr} {
		h.compact()
	}
	return r
}
