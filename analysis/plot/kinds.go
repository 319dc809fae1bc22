package plot

import (
	"fmt"
	"strings"

	"github.com/fprlab/fprlab/analysis"
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
	case KindHistogram:
		return Histogram(c.AllCompares())
	case KindStages:
		return Stages(c.AllCompares())
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
		curves, err := MeasureExpm(ExpmBackendsFor(c, o.ExpmBackends), o.ExpmPoints)
		if err != nil {
			return nil, err
		}
		return Expm(curves)
	}
	_, err := ParseKind(string(k))
	return nil, err
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

// MeasureExpm measures the expm_p63 curves of the named backends.
func MeasureExpm(names []string, points int) ([]analysis.ExpmCurve, error) {
	if points == 0 {
		points = DefaultExpmPoints
	}
	var out []analysis.ExpmCurve
	for _, n := range names {
		b, err := arith.Lookup(n)
		if err != nil {
			return nil, err
		}
		cv, err := analysis.MeasureExpmCurve(b, points, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, cv)
	}
	return out, nil
}
