package plot

import (
	"fmt"
	"math"
	"strconv"
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
// the target and the margin below it the search asks for, the uniform
// start and the chosen plan as large black markers; below it, the chosen
// plan's significand width per stage, each bar labelled with its value,
// beside binary64's 53 bits. Costs are drawn in millions when large.
func Pareto(ts []results.Tune) (*Figure, error) {
	if len(ts) == 0 {
		return nil, fmt.Errorf("pareto: %w: no tune document", results.ErrNoData)
	}
	t := ts[0]
	var meets, misses, front plotter.XYs
	maxCost := 0.0
	for _, e := range t.Evaluations {
		if e.ErrorLog2.Finite() {
			maxCost = max(maxCost, math.Abs(e.Cost))
		}
	}
	scale, unit := 1.0, ""
	if maxCost >= 1e5 {
		scale, unit = 1e6, " (×10^6)"
	}
	for _, e := range t.Evaluations {
		if !e.ErrorLog2.Finite() {
			continue // a plan that could not sign, or exact: no point
		}
		xy := plotter.XY{X: e.Cost / scale, Y: float64(e.ErrorLog2)}
		if e.Meets {
			meets = append(meets, xy)
		} else {
			misses = append(misses, xy)
		}
	}
	for _, e := range t.Pareto {
		if e.ErrorLog2.Finite() {
			front = append(front, plotter.XY{X: e.Cost / scale, Y: float64(e.ErrorLog2)})
		}
	}
	if len(meets)+len(misses) == 0 {
		return nil, fmt.Errorf("pareto: %w: no plan with a finite error", results.ErrNoData)
	}
	p := newPlot(fmt.Sprintf("%s precision plans (fprlab tune): cost against %s δc + δσ\n%d plans measured on %d signatures each; filled: meets 2^%g, the acceptance budget and no decision flip",
		t.Name(), t.Statistic, len(t.Evaluations), t.Signatures, t.TargetLog2),
		"cost"+unit+": "+t.CostUnit+" ("+t.Cost+")", "log2(δc + δσ)")
	p.Legend.Left = true // the uniform start and the costly plans sit on the right
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
	var marks plotter.XYs // the uniform start, then the chosen plan
	// The uniform start and the chosen plan, drawn last and large, over
	// the plans they coincide with.
	for _, m := range []struct {
		e     *results.TunePlan
		label string
		glyph draw.GlyphDrawer
	}{{t.Uniform, "uniform start", draw.SquareGlyph{}}, {t.Chosen, "chosen", draw.RingGlyph{}}} {
		if m.e == nil || !m.e.ErrorLog2.Finite() {
			continue
		}
		s, err := plotter.NewScatter(plotter.XYs{{X: m.e.Cost / scale, Y: float64(m.e.ErrorLog2)}})
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: refBlack, Radius: vg.Points(7), Shape: m.glyph}
		marks = append(marks, plotter.XY{X: m.e.Cost / scale, Y: float64(m.e.ErrorLog2)})
		p.Add(s)
		p.Legend.Add(fmt.Sprintf("%s: 2^%.2f at %s", m.label, float64(m.e.ErrorLog2), costString(m.e.Cost/scale, unit)), s)
	}
	addRef(p, t.TargetLog2, false, fmt.Sprintf("target 2^%g", t.TargetLog2), refBlack)
	if t.MarginBits > 0 {
		l := addRef(p, t.TargetLog2-t.MarginBits, false, fmt.Sprintf("target − margin (%g bits): 2^%g, what the search accepts", t.MarginBits, t.TargetLog2-t.MarginBits), refGrey)
		l.Style.Dashes = []vg.Length{vg.Points(1.5), vg.Points(2)}
	}
	// Room around the data so that no marker sits on the frame, and above
	// it for the legend.
	span := p.X.Max - p.X.Min
	pad(&p.X, span*0.04+1e-9, span*0.04+1e-9)
	ys := p.Y.Max - p.Y.Min
	pad(&p.Y, ys*0.05, ys*0.05)
	p.X.Tick.Marker = gplot.DefaultTicks{}
	legendRoom(p, 7, heightOne)

	// The chosen plan's widths.
	b := newPlot(fmt.Sprintf("Chosen plan: significand bits per stage (confirmed on %d fresh signatures: %s)", t.Confirm, confirmation(t.Chosen)),
		"stage of signing", "significand bits")
	vals := make(plotter.Values, len(t.Chosen.Widths))
	var labels []string
	var pos plotter.XYs
	for i, w := range t.Chosen.Widths {
		if !t.Tuned(i) {
			// No arithmetic in this stage (FN-DSA's expm): no bar.
			labels = append(labels, "not tuned")
			pos = append(pos, plotter.XY{X: float64(i), Y: 0})
			continue
		}
		vals[i] = float64(w)
		labels = append(labels, strconv.Itoa(w))
		pos = append(pos, plotter.XY{X: float64(i), Y: float64(w)})
	}
	bars, err := plotter.NewBarChart(vals, vg.Points(18))
	if err != nil {
		return nil, err
	}
	bars.Color = colour(0)
	b.Add(bars)
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: pos, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].XAlign, lab.TextStyle[i].YAlign = draw.XCenter, draw.YBottom
		lab.TextStyle[i].Font.Size = legendSize
		lab.Offset = vg.Point{Y: vg.Points(2)}
	}
	b.Add(lab)
	b.NominalX(t.Stages...)
	addRef(b, 53, false, "binary64 (53 bits)", refGrey)
	b.Y.Min = 0
	b.Y.Max = max(b.Y.Max, 53) * 1.25 // room for the labels and the legend
	b.Legend.Left = true
	log := drawnLog{"marks": marks, "meets": meets, "misses": misses, "front": front, "widths": pos}
	return &Figure{panels: []*gplot.Plot{p, b}, w: width, h: 2 * heightOne, drawn: log}, nil
}

// costString writes a cost on the figure's axis scale.
func costString(c float64, unit string) string {
	if unit == "" {
		return strconv.FormatFloat(c, 'g', 6, 64)
	}
	return fmt.Sprintf("%.3f%s", c, unit)
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
