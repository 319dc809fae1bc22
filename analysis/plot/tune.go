package plot

import (
	"fmt"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fprlab/fprlab/analysis/results"
)

// Pareto draws a precision-plan search (`fprlab tune`): every measured
// plan as a point of cost against the measured error (filled where the
// plan meets the target and flips nothing), the Pareto front as a line,
// the target, the uniform start and the chosen plan; below it, the chosen
// plan's significand width per stage beside binary64's 53 bits.
func Pareto(ts []results.Tune) (*Figure, error) {
	if len(ts) == 0 {
		return nil, fmt.Errorf("pareto: %w: no tune document", results.ErrNoData)
	}
	t := ts[0]
	p := newPlot(fmt.Sprintf("Falcon-%d precision plans (fprlab tune): cost against %s delta_c + delta_sigma\n%d plans measured on %d signatures each; filled: meets 2^%g, the acceptance budget and no decision flip",
		t.Params, t.Statistic, len(t.Evaluations), t.Signatures, t.TargetLog2),
		"cost: "+t.CostUnit+" ("+t.Cost+")", "log2(delta_c + delta_sigma)")
	p.X.Tick.Marker = gplot.DefaultTicks{}
	p.Legend.Left = true // the uniform start and the costly plans sit on the right
	var meets, misses, front plotter.XYs
	for _, e := range t.Evaluations {
		if !e.ErrorLog2.Finite() {
			continue // a plan that could not sign, or exact: no point
		}
		xy := plotter.XY{X: e.Cost, Y: float64(e.ErrorLog2)}
		if e.Meets {
			meets = append(meets, xy)
		} else {
			misses = append(misses, xy)
		}
	}
	for _, e := range t.Pareto {
		if e.ErrorLog2.Finite() {
			front = append(front, plotter.XY{X: e.Cost, Y: float64(e.ErrorLog2)})
		}
	}
	if len(meets)+len(misses) == 0 {
		return nil, fmt.Errorf("pareto: %w: no plan with a finite error", results.ErrNoData)
	}
	if len(front) > 1 {
		l, err := plotter.NewLine(front)
		if err != nil {
			return nil, err
		}
		l.Color = colour(2)
		p.Add(l)
		p.Legend.Add("Pareto front", l)
	}
	for i, set := range []struct {
		xy    plotter.XYs
		label string
		glyph draw.GlyphDrawer
	}{{meets, "meets the target", draw.CircleGlyph{}}, {misses, "misses it", draw.RingGlyph{}}} {
		if len(set.xy) == 0 {
			continue
		}
		s, err := plotter.NewScatter(set.xy)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: colour(i), Radius: vg.Points(2.5), Shape: set.glyph}
		p.Add(s)
		p.Legend.Add(set.label, s)
	}
	for i, m := range []struct {
		e     *results.TunePlan
		label string
	}{{t.Uniform, "uniform start"}, {t.Chosen, "chosen"}} {
		if m.e == nil || !m.e.ErrorLog2.Finite() {
			continue
		}
		s, err := plotter.NewScatter(plotter.XYs{{X: m.e.Cost, Y: float64(m.e.ErrorLog2)}})
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: colour(4 + i), Radius: vg.Points(5), Shape: draw.CrossGlyph{}}
		p.Add(s)
		p.Legend.Add(m.label, s)
	}
	p.Add(newRefLine(t.TargetLog2, false, fmt.Sprintf("target 2^%g", t.TargetLog2), colour(6)))

	// The chosen plan's widths.
	b := newPlot(fmt.Sprintf("Chosen plan: significand bits per stage (confirmed on %d fresh signatures: %s)", t.Confirm, confirmation(t.Chosen)),
		"stage of signing", "significand bits")
	vals := make(plotter.Values, len(t.Chosen.Widths))
	for i, w := range t.Chosen.Widths {
		vals[i] = float64(w)
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(18))
	if err != nil {
		return nil, err
	}
	bars.Color = colour(0)
	b.Add(bars)
	b.NominalX(t.Stages...)
	b.Add(newRefLine(53, false, "binary64 (53)", colour(6)))
	b.Y.Min = 0
	return &Figure{panels: []*gplot.Plot{p, b}, w: width, h: 2 * heightOne}, nil
}

func confirmation(e *results.TunePlan) string {
	if e == nil || e.Confirmation == nil {
		return "not confirmed"
	}
	c := e.Confirmation
	v := "meets"
	if !c.Meets {
		v = "misses"
	}
	if !c.ErrorLog2.Finite() {
		return v
	}
	return strings.TrimSpace(fmt.Sprintf("2^%.2f, %d flips, %s", float64(c.ErrorLog2), c.Flips, v))
}
