package plot

import (
	"fmt"
	"sort"
	"strings"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/arith"
)

// Kind names a figure.
type Kind string

// The figures, in report order.
const (
	KindHistogram Kind = "histogram" // per-call error histogram per backend (compare)
	KindPrecision Kind = "precision" // worst and median error against precision (sweep)
	KindSecurity  Kind = "security"  // bits lost and max queries against precision (sweep)
	KindStages    Kind = "stages"    // per-stage error per backend (compare)
	KindExpm      Kind = "expm"      // expm_p63 error over [0, ln 2) per backend (measured here)
	KindKAT       Kind = "kat"       // KAT pass rate and failed attempts against precision (sweep)
	KindOps       Kind = "ops"       // per-operation errors per backend (arith errors)
	KindPareto    Kind = "pareto"    // precision plans: cost against error, chosen plan's widths (tune)
	KindCost      Kind = "cost"      // per-signature δc against a cost given per backend (compare + Options.Cost)
	KindDiverge   Kind = "diverge"   // rate of differing and key-revealing signatures per pair of arithmetics (diverge)
)

// Kinds lists every kind with what it draws from.
var Kinds = []struct {
	Kind  Kind
	Needs string
}{
	{KindHistogram, "compare documents (per_leaf.sum.histogram)"},
	{KindStages, "compare documents (stages)"},
	{KindPrecision, "sweep documents, or compare documents over vprec:P formats (+ compare documents for reference points)"},
	{KindSecurity, "sweep documents, or compare documents over vprec:P formats (renyi)"},
	{KindKAT, "sweep documents (kat, attempts)"},
	{KindOps, "arith errors documents (max_rel_err_log2, median_rel_err_log2, bound_log2)"},
	{KindPareto, "a tune result (fprlab tune --json, DIR/result.json)"},
	{KindCost, "compare documents and a cost per backend (--cost BACKEND=N: Yosys cells, LUTs, cycles)"},
	{KindDiverge, "diverge documents (fprlab diverge --json, DIR/result.json)"},
	{KindExpm, "nothing: measures the backends (default: those of the compare documents, else native, emu64, triword)"},
}

// ParseKind checks a kind name.
func ParseKind(s string) (Kind, error) {
	var names []string
	for _, k := range Kinds {
		if string(k.Kind) == s {
			return k.Kind, nil
		}
		names = append(names, string(k.Kind))
	}
	return "", fmt.Errorf("plot kind %q: want one of %s", s, strings.Join(names, ", "))
}

// Options tune Draw.
type Options struct {
	// ExpmBackends are the backends whose expm_p63 KindExpm measures;
	// empty: the registered backends of the campaign's compare
	// documents, else DefaultExpmBackends.
	ExpmBackends []string
	// ExpmPoints is the grid size of KindExpm (0: DefaultExpmPoints).
	ExpmPoints int
	// Select names the backends or formats the histogram and stages
	// figures draw (see ComparesFor); empty: the default choice.
	Select []string
	// Cost is KindCost's cost of each backend drawn, in CostUnit ("Yosys
	// cells"); backends without one are not drawn.
	Cost     map[string]float64
	CostUnit string
}

// Defaults of KindExpm.
var (
	DefaultExpmBackends = []string{"native", "emu64", "triword"}
	DefaultExpmPoints   = 256
)

// Draw draws one kind of figure from a campaign. A campaign without the
// documents the kind needs gives an error wrapping results.ErrNoData.
func Draw(k Kind, c *results.Campaign, o Options) (*Figure, error) {
	switch k {
	case KindHistogram, KindStages:
		cs, notes, err := comparesFor(c, o.Select)
		if err != nil {
			return nil, err
		}
		if k == KindHistogram {
			return histogram(cs, notes)
		}
		return stages(cs, notes)
	case KindPrecision:
		pts := c.PrecisionPoints()
		return Precision(pts, References(pts, c.AllCompares()))
	case KindSecurity:
		pts := c.PrecisionPoints()
		return Security(pts, References(pts, c.AllCompares()))
	case KindKAT:
		return KAT(c.AllPoints())
	case KindOps:
		return Ops(c.AllOpErrors())
	case KindPareto:
		var ts []results.Tune
		for _, d := range c.Tunes {
			ts = append(ts, d.Tune)
		}
		return Pareto(ts)
	case KindDiverge:
		var ds []results.Diverge
		for _, d := range c.Diverges {
			ds = append(ds, d.Diverge)
		}
		return Diverge(ds)
	case KindCost:
		return Cost(c.AllCompares(), o.Cost, o.CostUnit)
	case KindExpm:
		curves, err := measureExpm(ExpmBackendsFor(c, o.ExpmBackends), o.ExpmPoints)
		if err != nil {
			return nil, err
		}
		return Expm(curves)
	}
	_, err := ParseKind(string(k))
	return nil, err
}

// maxSweptDefault is how many swept formats a histogram or stages figure
// of a sweep shows by default (more overlaid curves are unreadable).
const maxSweptDefault = 5

// ComparesFor chooses the measurements a histogram or stages figure draws:
// those named in sel (backends of compare documents or formats and
// reference backends of sweep documents), else every fixed backend of the
// compare documents and of the sweeps' reference entries, and at most
// maxSweptDefault formats of precision families (vprec:P), chosen around
// each curve's P* (see AroundPStar).
func ComparesFor(c *results.Campaign, sel []string) ([]results.Compare, error) {
	cs, _, err := comparesFor(c, sel)
	return cs, err
}

// comparesFor is ComparesFor with the legend notes of the formats chosen
// around P*.
func comparesFor(c *results.Campaign, sel []string) ([]results.Compare, map[string]string, error) {
	all := c.AllCompares()
	if len(sel) > 0 {
		pool := all
		for _, p := range c.AllPoints() {
			pool = append(pool, p.Compare)
		}
		var out []results.Compare
		for _, name := range sel {
			found := false
			for _, cmp := range pool {
				if cmp.Backend == name {
					out, found = append(out, cmp), true
					break
				}
			}
			if !found {
				var names []string
				for _, cmp := range pool {
					names = append(names, cmp.Backend)
				}
				return nil, nil, fmt.Errorf("--backend %s: not in the documents (they hold %s)", name, strings.Join(names, ", "))
			}
		}
		return out, nil, nil
	}
	var out []results.Compare
	seen := map[string]bool{}
	addFixed := func(x results.Compare) {
		k := fmt.Sprint(x.Backend, x.Params)
		if !results.IsFamilyName(x.Backend) && !seen[k] {
			seen[k] = true
			out = append(out, x)
		}
	}
	for _, x := range all {
		addFixed(x)
	}
	for _, p := range c.AllPoints() {
		addFixed(p.Compare)
	}
	picked, notes := AroundPStar(c.PrecisionPoints(), maxSweptDefault)
	for _, p := range picked {
		x := p.Compare
		x.Backend = p.Format
		out = append(out, x)
	}
	return out, notes, nil
}

// AroundPStar chooses at most n swept formats to draw: first each curve's
// P* (worst case), then the format just below it (the largest that fails),
// then the one just above, then the curve's lowest and highest precision;
// a curve without P* contributes its highest precision first. notes holds,
// per chosen backend, a legend note saying which P* it is. The formats are
// returned curve by curve in order of precision.
func AroundPStar(pts []results.Point, n int) (picked []results.Point, notes map[string]string) {
	keys, m := results.Curves(pts)
	star := map[results.Curve]results.PStar{}
	for _, s := range results.PStars(pts) {
		if s.Criterion == results.Worst {
			star[s.Curve] = s
		}
	}
	type pick struct {
		curve int
		p     results.Point
		note  string
	}
	var tiers [5][]pick
	for ci, k := range keys {
		v := m[k]
		s := star[k]
		at := -1
		if s.Found {
			for i := range v {
				if v[i].Bits == s.Bits {
					at = i
				}
			}
		}
		if at < 0 {
			tiers[0] = append(tiers[0], pick{ci, v[len(v)-1], fmt.Sprintf(" (%s: highest swept, none meets 2^-46)", k)})
			tiers[3] = append(tiers[3], pick{ci, v[0], ""})
			continue
		}
		tiers[0] = append(tiers[0], pick{ci, v[at], fmt.Sprintf(" = P* (worst) of %s", k)})
		if at > 0 {
			tiers[1] = append(tiers[1], pick{ci, v[at-1], fmt.Sprintf(" (%s: fails 2^-46)", k)})
		}
		if at+1 < len(v) {
			tiers[2] = append(tiers[2], pick{ci, v[at+1], ""})
		}
		tiers[3] = append(tiers[3], pick{ci, v[0], ""})
		tiers[4] = append(tiers[4], pick{ci, v[len(v)-1], ""})
	}
	var chosen []pick
	seen := map[string]bool{}
	for _, tier := range tiers {
		for _, pk := range tier {
			k := fmt.Sprint(pk.p.Format, pk.p.Params)
			if len(chosen) < n && !seen[k] {
				seen[k] = true
				chosen = append(chosen, pk)
			}
		}
	}
	sort.SliceStable(chosen, func(i, j int) bool {
		if chosen[i].curve != chosen[j].curve {
			return chosen[i].curve < chosen[j].curve
		}
		return chosen[i].p.Bits < chosen[j].p.Bits
	})
	notes = map[string]string{}
	for _, pk := range chosen {
		picked = append(picked, pk.p)
		if pk.note != "" {
			notes[pk.p.Format] = pk.note
		}
	}
	return picked, notes
}

// ExpmBackendsFor chooses the backends of an expm figure: the given ones,
// else those of the campaign's compare documents that the registry knows,
// else DefaultExpmBackends.
func ExpmBackendsFor(c *results.Campaign, given []string) []string {
	if len(given) > 0 {
		return given
	}
	var out []string
	seen := map[string]bool{}
	if c != nil {
		for _, x := range c.AllCompares() {
			if _, err := arith.Lookup(x.Backend); err == nil && !seen[x.Backend] {
				seen[x.Backend] = true
				out = append(out, x.Backend)
			}
		}
	}
	if len(out) == 0 {
		return DefaultExpmBackends
	}
	return out
}

// MeasureExpm measures the expm_p63 curves of the named backends at
// points grid points each, for KindExpm: the one figure that is a
// measurement rather than a document. Package plot draws documents and
// links no backend, so a program that draws the expm figure sets it (fprlab
// sets analysis.MeasureExpmCurves); while it is nil, KindExpm is
// results.ErrNoData.
var MeasureExpm func(names []string, points int) ([]results.ExpmCurve, error)

// measureExpm is KindExpm's measurement.
func measureExpm(names []string, points int) ([]results.ExpmCurve, error) {
	if MeasureExpm == nil {
		return nil, fmt.Errorf("expm: %w: no measurement of the backends in this program", results.ErrNoData)
	}
	if points == 0 {
		points = DefaultExpmPoints
	}
	return MeasureExpm(names, points)
}
