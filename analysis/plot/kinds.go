package plot

import (
	"fmt"
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
		cs, err := ComparesFor(c, o.Select)
		if err != nil {
			return nil, err
		}
		if k == KindHistogram {
			return Histogram(cs)
		}
		return Stages(cs)
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
// reference backends of sweep documents), else every compare document's
// backends, else -- a sweep alone -- its reference backends and
// maxSweptDefault of its formats evenly spaced over the swept range.
func ComparesFor(c *results.Campaign, sel []string) ([]results.Compare, error) {
	all := c.AllCompares()
	var refs, swept []results.Compare
	for _, p := range c.AllPoints() {
		if p.IsSwept() {
			swept = append(swept, p.Compare)
		} else {
			refs = append(refs, p.Compare)
		}
	}
	if len(sel) > 0 {
		pool := append(append(append([]results.Compare(nil), all...), refs...), swept...)
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
				return nil, fmt.Errorf("--backend %s: not in the documents (they hold %s)", name, strings.Join(names, ", "))
			}
		}
		return out, nil
	}
	if len(all) > 0 {
		return all, nil
	}
	if len(swept) > maxSweptDefault {
		picked := make([]results.Compare, maxSweptDefault)
		for i := range picked {
			picked[i] = swept[i*(len(swept)-1)/(maxSweptDefault-1)]
		}
		swept = picked
	}
	return append(refs, swept...), nil
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
