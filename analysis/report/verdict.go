package report

import (
	"fmt"
	"math"
	"strings"

	"github.com/fprlab/fprlab/analysis/results"
)

// The verdict box answers first: per compare document whether each
// backend meets the specification's 2^-46 per signature, per sweep its P*,
// per tune result the chosen plan, per arith errors document whether the
// operations stay within their proven bounds, and against a baseline
// what changed.

// pow2 writes a log2 value as a power of two: "2^-47.12", "0 (exact)",
// "–" (not measured), "∞".
func pow2(v results.Log2) string {
	if v.Finite() {
		return fmt.Sprintf("2^%.2f", float64(v))
	}
	return l2(v)
}

// meetsCell is the verdict cell of a backend.
func meetsCell(c *results.Compare) string {
	switch {
	case c.Meets246 == nil || c.Signatures == 0:
		return "not measured"
	case *c.Meets246:
		return "✔ meets"
	}
	return "✘ fails"
}

// lambdaOf is the security level of a document's Rényi figures (256 when
// the document predates the field).
func lambdaOf(r *results.Renyi) int {
	if r.Lambda > 0 {
		return r.Lambda
	}
	return 256
}

// renyiSentence is the Rényi consequence of a backend's measured errors
// in one sentence (Falcon specification v1.2, section 2.6; Prest,
// ASIACRYPT 2017): up to how many signing queries the worst-case bound
// keeps all lambda bits, and how many it loses at 2^64 queries, worst
// case and on average.
func renyiSentence(c *results.Compare) string {
	r := c.Renyi
	if r == nil || c.Signatures == 0 || math.IsNaN(float64(r.BitsLostAt264)) {
		return "not measured"
	}
	lambda := lambdaOf(r)
	if math.IsInf(float64(r.DWorstLog2), -1) || (float64(r.BitsLostAt264) == 0 && !r.MaxQueriesLog2.Finite()) {
		return "Exact against the shadow: no security is lost."
	}
	avg := ""
	if a := r.BitsLostAt264Average; a.Finite() {
		avg = fmt.Sprintf("; average case: %.3g bits lost", float64(a))
	}
	lost := float64(r.BitsLostAt264)
	if lost >= float64(lambda) {
		return fmt.Sprintf("The worst-case bound keeps λ = %d bits only up to 2^%.1f signing queries and guarantees nothing at 2^64 (all %d bits lost%s).", lambda, float64(r.MaxQueriesLog2), lambda, avg)
	}
	return fmt.Sprintf("Keeps λ = %d bits up to 2^%.1f signing queries (worst case); at 2^64 queries it loses %.3g bits (worst case%s).", lambda, float64(r.MaxQueriesLog2), lost, avg)
}

func compareVerdict(d results.CompareDoc) verdict {
	v := verdict{Kind: "compare"}
	v.Table = newTable("", d.File, "backend", "per signature\n≤ 2^-46", "on", "worst\nper signature | the largest δc+δσ of any signature",
		"median\nper call | the median of δc+δσ over all sampler calls", "flips | decisions that came out otherwise than in exact arithmetic",
		"Rényi consequence | Falcon specification v1.2, section 2.6: the signature distribution's relative error bounds the security loss")
	met, measured := 0, 0
	for i := range d.Backends {
		c := &d.Backends[i]
		if c.Meets246 != nil && c.Signatures > 0 {
			measured++
			if *c.Meets246 {
				met++
			}
		}
		if c.Signatures == 0 {
			v.Table.Rows = append(v.Table.Rows, []string{c.Backend, "not measured", "no signature measured (this shard holds none of the campaign's units)", "–", "–", "–", "–"})
			continue
		}
		name := c.Backend
		if c.WeakShadow {
			name += " ⚠ weak shadow: its figures include the shadow's own error"
		}
		on := fmt.Sprintf("%s signatures, %s", results.Thousands(c.Signatures), c.SchemeName())
		if k := c.Certified; k != nil && k.Keys > 0 {
			if k.Proven == k.Keys {
				on = fmt.Sprintf("proven for every message (%d keys certified, bound 2^%.2f); %s", k.Keys, k.SumBoundLog2, on)
			} else {
				on = fmt.Sprintf("sampled on %s signatures, %s (certified for %d of %d keys; largest bound 2^%.2f)", results.Thousands(c.Signatures), c.SchemeName(), k.Proven, k.Keys, k.SumBoundLog2)
			}
		}
		v.Table.Rows = append(v.Table.Rows, []string{name, meetsCell(c), on,
			pow2(c.PerSignature.Sum.Max), pow2(c.PerLeaf.Sum.Median), flips(c), renyiSentence(c)})
	}
	v.Heading = fmt.Sprintf("Compare %s: %d of %d backends meet 2^-46 per signature", d.File, met, measured)
	v.Table.align()
	return v
}

func sweepVerdict(d results.SweepDoc) verdict {
	v := verdict{Kind: "sweep", Heading: "Sweep " + d.File + ": P*, the least precision that suffices"}
	if d.Shard != "" {
		v.Sentences = append(v.Sentences, fmt.Sprintf("This document is shard %s of its sweep: P* needs every format (fprlab merge the shards).", d.Shard))
		return v
	}
	v.Table = newTable("", d.File, "curve", "P*: per-signature\nworst ≤ 2^-46", "P*: per-call\nmedian ≤ 2^-46", "P*: no decision\nflip in the sample", "sample | the smallest number of signatures of the curve's formats", "swept")
	type row struct {
		cells []string
	}
	rows := map[results.Curve]*row{}
	var order []results.Curve
	for _, p := range results.SweptPStars(d.Points) {
		r := rows[p.Curve]
		if r == nil {
			r = &row{cells: []string{p.Curve.String(), "–", "–", "–", fmt.Sprintf("%s signatures per format", results.Thousands(p.Signatures)), fmt.Sprintf("%d..%d bits", p.MinBits, p.MaxBits)}}
			rows[p.Curve] = r
			order = append(order, p.Curve)
		}
		for i, c := range results.Criteria {
			if c == p.Criterion {
				r.cells[1+i] = p.String()
			}
		}
	}
	for _, k := range order {
		v.Table.Rows = append(v.Table.Rows, rows[k].cells)
	}
	if len(order) == 0 {
		v.Sentences = append(v.Sentences, "No swept format (vprec:P or oracle:P) in this document: no P*.")
	}
	v.Table.align()
	return v
}

func tuneVerdict(d results.TuneDoc) verdict {
	r := &d.Tune
	v := verdict{Kind: "tune", Heading: fmt.Sprintf("Tune %s: the chosen precision plan, %s", d.File, r.Name())}
	hdr := append([]string{"stage"}, r.Stages...)
	v.Table = newTable("", d.File, hdr...)
	row := []string{"significand bits"}
	for i, w := range r.Chosen.Widths {
		if !r.Tuned(i) {
			row = append(row, "not tuned")
			continue
		}
		row = append(row, fmt.Sprint(w))
	}
	v.Table.Rows = append(v.Table.Rows, row)
	cost := fmt.Sprintf("Cost %.4g %s", r.Chosen.Cost, r.CostUnit)
	if u := r.Uniform; u != nil && u.Cost > 0 && len(u.Widths) > 0 {
		cost += fmt.Sprintf(", %.0f%% of the uniform %d-bit plan's %.4g", 100*r.Chosen.Cost/u.Cost, u.Widths[0], u.Cost)
	}
	v.Sentences = append(v.Sentences, cost+".",
		fmt.Sprintf("Error: %s δc+δσ %s on the search's %s signatures (target 2^%g), %s flips.", strings.ReplaceAll(r.Statistic, "-", " "), pow2(r.Chosen.ErrorLog2), results.Thousands(int64(r.Chosen.Signatures)), r.TargetLog2, results.Thousands(r.Chosen.Flips)),
		"Confirmation on fresh signatures: "+confirmation(r.Chosen)+".")
	for _, n := range r.NotTuned {
		v.Sentences = append(v.Sentences, fmt.Sprintf("Stage %s: %s.", n.Stage, n.Reason))
	}
	v.Table.align()
	return v
}

func opVerdict(d results.OpErrorDoc) verdict {
	v := verdict{Kind: "ops", Heading: "Operation errors " + d.File + ": the largest error per backend, against the proven bounds"}
	v.Table = newTable("", d.File, "backend", "operations", "largest error", "of operation", "within the\nproven bound", "samples\nbelow range | operands or results below the backend's normal range, counted apart")
	type acc struct {
		ops, bounded, within int
		worst                results.Log2
		worstOp              string
		below                int64
	}
	m := map[string]*acc{}
	var order []string
	for _, o := range d.Ops {
		a := m[o.Backend]
		if a == nil {
			a = &acc{worst: results.Log2(math.Inf(-1))}
			m[o.Backend] = a
			order = append(order, o.Backend)
		}
		a.ops++
		a.below += int64(o.BelowRange)
		if results.Log2(o.MaxRelErrLog2) > a.worst || a.worstOp == "" {
			a.worst, a.worstOp = results.Log2(o.MaxRelErrLog2), o.Op
		}
		if o.HasBound {
			a.bounded++
			if o.MaxRelErrLog2 <= o.BoundLog2 || math.IsInf(o.MaxRelErrLog2, -1) {
				a.within++
			}
		}
	}
	for _, b := range order {
		a := m[b]
		within := "no proven bound"
		if a.bounded > 0 {
			within = fmt.Sprintf("%d of %d", a.within, a.bounded)
		}
		v.Table.Rows = append(v.Table.Rows, []string{b, fmt.Sprint(a.ops), pow2(a.worst), a.worstOp, within, results.Thousands(a.below)})
	}
	v.Table.align()
	return v
}

func diffVerdict(d *results.Diff) verdict {
	v := verdict{Kind: "diff", Heading: "Against the baseline " + d.A}
	worse := 0
	v.Table = newTable("", "", "backend", "verdict\n(2^-46 per sig.)", "worst per signature\nbaseline → this", "change\n(bits) | positive: a larger error (worse)", "flips\nbaseline → this", "flips\nchange")
	for i := range d.Pairs {
		p := &d.Pairs[i]
		if p.Worse() {
			worse++
		}
		name := pairName(p)
		w := p.Stats[0]
		change := "–"
		if w.ChangeBits.Finite() {
			change = fmt.Sprintf("%+.2f", float64(w.ChangeBits))
		}
		verdictText := p.Verdict
		if p.Verdict == results.VerdictUnchanged {
			verdictText = "unchanged: fails"
			if *p.MeetsA {
				verdictText = "unchanged: meets"
			}
		}
		v.Table.Rows = append(v.Table.Rows, []string{fmt.Sprintf("%s (Falcon-%d)%s", name, p.Params, mismatchNote(p)), verdictText, pow2(w.ALog2) + " → " + pow2(w.BLog2), change,
			countOrDash(p.FlipsA) + " → " + countOrDash(p.FlipsB), p.Flips})
	}
	v.Sentences = append(v.Sentences, fmt.Sprintf("%d of %d backends got worse than the baseline (their verdict now fails, or decision flips appeared).", worse, len(d.Pairs)))
	for _, p := range d.Pairs {
		if p.SignaturesA != p.SignaturesB {
			v.Sentences = append(v.Sentences, "The two campaigns measured different numbers of signatures (see the details): a worst case over a larger sample can be larger by chance alone.")
			break
		}
	}
	for _, p := range d.PStar {
		if p.ChangeBits != nil && *p.ChangeBits != 0 {
			v.Sentences = append(v.Sentences, fmt.Sprintf("P* of %s (%s) moved from %d to %d bits.", p.Curve, p.Criterion.Describe(), *p.A, *p.B))
		}
	}
	v.Table.align()
	return v
}

// pairName names a pair's backends: this campaign's, after the
// baseline's where they differ.
func pairName(p *results.DiffPair) string {
	if p.A != p.B {
		return p.A + " → " + p.B
	}
	return p.B
}

// mismatchNote marks a pair measured under other conditions than its
// baseline (set side by side with --allow-mismatch).
func mismatchNote(p *results.DiffPair) string {
	if p.Mismatch == "" {
		return ""
	}
	return " — measured under other conditions: " + p.Mismatch
}

func countOrDash(n *int64) string {
	if n == nil {
		return "–"
	}
	return results.Thousands(*n)
}

// diffTables are the details of a diff: every statistic of every pair,
// and P* side by side.
func diffTables(d *results.Diff) []table {
	t := newTable("diff-stats", "", "backend", "statistic", "baseline\n(log2)", "this\n(log2)", "change\n(bits) | positive: a larger error (worse)", "signatures\nbaseline, this")
	for _, p := range d.Pairs {
		name := pairName(&p) + mismatchNote(&p)
		for _, s := range p.Stats {
			change := "–"
			if s.ChangeBits.Finite() {
				change = fmt.Sprintf("%+.2f", float64(s.ChangeBits))
			}
			t.Rows = append(t.Rows, []string{name, s.Name, l2(s.ALog2), l2(s.BLog2), change, results.Thousands(p.SignaturesA) + ", " + results.Thousands(p.SignaturesB)})
		}
	}
	t.align()
	out := []table{t}
	if len(d.PStar) > 0 {
		ps := newTable("diff-pstar", "", "curve", "criterion", "baseline P*", "this P*", "change\n(bits)")
		for _, p := range d.PStar {
			a, b, change := p.Cells("–")
			ps.Rows = append(ps.Rows, []string{p.Curve, p.Criterion.Describe(), a, b, change})
		}
		ps.align()
		out = append(out, ps)
	}
	return out
}

// divergeVerdict states, per diverge document, how often the two sides
// signed differently and how often the difference was the key.
func divergeVerdict(ds []results.DivergeDoc) verdict {
	v := verdict{Kind: "diverge", Heading: "Diverge: how often two arithmetics sign the same inputs differently, and when that reveals the key"}
	v.Table = newTable("", "", "A", "B", "n", "signatures", "differing", "rate (95 % interval) | Wilson score interval", "key-\nrevealing", "right: A / B /\nneither / undecided | which side signed as exact arithmetic would (shadow)", "file")
	revealing := 0
	for _, d := range ds {
		right := "not judged"
		if d.Right != nil {
			right = fmt.Sprintf("%d / %d / %d / %d", d.Right["A"], d.Right["B"], d.Right["neither"], d.Right["undecided"])
			if d.Ties > 0 {
				right += fmt.Sprintf(" (%d at ties)", d.Ties)
			}
		}
		name := d.File
		if d.Shard != "" {
			name += " (shard " + d.Shard + ")"
		}
		n := fmt.Sprint(d.N)
		if d.Scheme != "" {
			n += " " + d.Scheme
		}
		v.Table.Rows = append(v.Table.Rows, []string{d.Backend, d.Against, n, results.Thousands(int64(d.Compared)), results.Thousands(int64(d.Differing)),
			oneIn(d.Rate, d.RateCI95), results.Thousands(int64(d.KeyRevealing)), right, name})
		revealing += d.KeyRevealing
	}
	if revealing > 0 {
		v.Sentences = append(v.Sentences, fmt.Sprintf("%d differing pairs hand over the secret key: an implementation that can sign the same inputs with both arithmetics leaks it.", revealing))
	} else {
		v.Sentences = append(v.Sentences, "No differing pair revealed the secret key in these samples.")
	}
	v.Table.align()
	return v
}

// oneIn writes a rate and its interval as "1 in N (1 in N_hi to 1 in
// N_lo)", or "0 (below 1 in N)" when nothing differed.
func oneIn(rate float64, ci [2]float64) string {
	inv := func(r float64) string { return results.Thousands(int64(math.Round(1 / r))) }
	if rate == 0 {
		return "0 (below 1 in " + inv(ci[1]) + ")"
	}
	lo := "∞"
	if ci[0] > 0 {
		lo = inv(ci[0])
	}
	return fmt.Sprintf("1 in %s (1 in %s to %s)", inv(rate), inv(ci[1]), lo)
}

// divergePairsTable lists every differing pair of the diverge documents.
func divergePairsTable(ds []results.DivergeDoc) table {
	files := make([]string, len(ds))
	for i, d := range ds {
		files[i] = d.File
	}
	t := newTable("diverge-0", strings.Join(files, ", "), "A vs B, n", "signature", "key", "parting decision | first decision where the two runs part", "margin | how near that decision was on side A", "s2_A - s2_B", "right | which side signed as exact arithmetic would")
	for _, d := range ds {
		for _, p := range d.Pairs {
			diff := fmt.Sprintf("norm %.1f (%d nonzero)", p.Diff.Norm, p.Diff.Nonzero)
			if p.KeyRevealing() {
				diff = fmt.Sprintf("%d x^%d %s: the key", p.Diff.C, p.Diff.K, p.Diff.Kind)
			}
			right := "–"
			if p.Exact != nil {
				right = p.Exact.Right
				if p.Exact.Tie {
					right += " (tie)"
				}
			}
			t.Rows = append(t.Rows, []string{d.Name(), fmt.Sprint(p.Index), fmt.Sprint(p.Key),
				fmt.Sprintf("attempt %d, call %d, %s", p.Parting.Attempt, p.Parting.Call, p.Parting.Kind), fmt.Sprintf("%.3g", p.Parting.Margin), diff, right})
		}
	}
	t.align()
	return t
}
