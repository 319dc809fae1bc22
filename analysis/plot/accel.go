package plot

import (
	"fmt"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fprlab/fprlab/analysis/results"
)

// The figures of the hardware models (package accel; fprlab accel fpru and
// accel ripst --plot), drawn from their results.

// FPRUnitPhase is one phase of the HORCRUX fpr-unit figure, in cycles: the
// published baseline, the cost of the phase's FPR and FPR_NORM64 calls in
// software and with the fpr-unit extension, and the published optimised
// cycles (HORCRUX Table IV).
type FPRUnitPhase struct {
	Phase               string
	Baseline, Published float64
	SoftFPR, SoftNorm64 float64
	ExtFPR, ExtNorm64   float64
}

// FPRUnit draws the cycle breakdown per phase in percent of each phase's
// baseline: for each phase a bar for the baseline (the calls at their
// software cost, and the rest), a bar for the estimate with the
// extension, and a bar for the published optimised cycles. inputs (the
// record and the cycle costs) goes into the title.
func FPRUnit(phases []FPRUnitPhase, params int, inputs string) (*Figure, error) {
	if len(phases) == 0 {
		return nil, fmt.Errorf("fpr-unit: no phases")
	}
	var fpr, norm, other, pub plotter.Values
	var names []string
	for _, e := range phases {
		if !(e.Baseline > 0) {
			return nil, fmt.Errorf("fpr-unit: phase %q: baseline %v cycles", e.Phase, e.Baseline)
		}
		pct := func(x float64) float64 { return 100 * x / e.Baseline }
		rest := e.Baseline - e.SoftFPR - e.SoftNorm64
		fpr = append(fpr, pct(e.SoftFPR), pct(e.ExtFPR), 0)
		norm = append(norm, pct(e.SoftNorm64), pct(e.ExtNorm64), 0)
		other = append(other, pct(rest), pct(rest), 0)
		pub = append(pub, 0, 0, pct(e.Published))
		names = append(names, e.Phase+" base", e.Phase+" est.", e.Phase+" pub.")
	}
	p := newPlot(withInputs(fmt.Sprintf("Falcon-%d with the HORCRUX fpr-unit: cycles per phase", params), inputs),
		"phase: baseline, estimate with the fpr-unit, published optimised", "% of the phase's baseline cycles (Table IV)")
	w := vg.Points(14)
	var bars []*plotter.BarChart
	for i, s := range []struct {
		v       plotter.Values
		label   string
		stacked bool
	}{
		{other, "other work", false},
		{norm, "FPR_NORM64", true},
		{fpr, "FPR packing", true},
		{pub, "published optimised", false},
	} {
		b, err := plotter.NewBarChart(s.v, w)
		if err != nil {
			return nil, fmt.Errorf("fpr-unit: %w", err)
		}
		b.Color = colour(i)
		b.LineStyle.Width = 0
		if s.stacked {
			b.StackOn(bars[len(bars)-1])
		}
		bars = append(bars, b)
		p.Add(b)
		p.Legend.Add(s.label, b)
	}
	log := drawnLog{}
	for i, v := range []plotter.Values{other, norm, fpr, pub} {
		for j, y := range v {
			log.add([]string{"other", "norm64", "fpr", "published"}[i], plotter.XYs{{X: float64(j), Y: y}})
		}
	}
	p.Y.Max = 100*(1+legendFrac(4, heightOne)) + 10
	nominalX(p, names)
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne, drawn: log}, nil
}

// RIPSTBar is one design of the RIPST figure: the formula's (or
// published) time and, when simulated, the simulation's, in ns.
type RIPSTBar struct {
	Design        string
	Ns, SimNs     float64
	HasSimulation bool
}

// RIPST draws the SamplerZ RIPST in ns per design on a logarithmic axis
// (bar heights are log10 of the time, labelled in ns), formula and
// simulation side by side, each bar labelled with its time. inputs (the
// acceptance rate and what the simulation ran on) goes into the title.
func RIPST(bars []RIPSTBar, inputs string) (*Figure, error) {
	if len(bars) == 0 {
		return nil, fmt.Errorf("ripst: no designs")
	}
	var table, sim plotter.Values
	var names []string
	for _, b := range bars {
		if !(b.Ns > 1) {
			return nil, fmt.Errorf("ripst: design %q: RIPST %v ns cannot be drawn on the log axis", b.Design, b.Ns)
		}
		table = append(table, math.Log10(b.Ns))
		s := 0.0
		if b.HasSimulation && b.SimNs > 1 {
			s = math.Log10(b.SimNs)
		}
		sim = append(sim, s)
		names = append(names, b.Design)
	}
	p := newPlot(withInputs("SamplerZ RIPST (Vojacek-Novotny comparison)", inputs), "design", "RIPST per leaf pair, ns (log scale)")
	w := vg.Points(18)
	bt, err := plotter.NewBarChart(table, w)
	if err != nil {
		return nil, fmt.Errorf("ripst: %w", err)
	}
	bt.Color, bt.Offset, bt.LineStyle.Width = colour(0), -w/2, 0
	bs, err := plotter.NewBarChart(sim, w)
	if err != nil {
		return nil, fmt.Errorf("ripst: %w", err)
	}
	bs.Color, bs.Offset, bs.LineStyle.Width = colour(2), w/2, 0
	p.Add(bt, bs)
	p.Legend.Add("formula (published table)", bt)
	p.Legend.Add("simulated on real signing", bs)
	var pos plotter.XYs
	var labels []string
	var offs []vg.Length
	for i, b := range bars {
		pos, labels, offs = append(pos, plotter.XY{X: float64(i), Y: table[i]}), append(labels, fmt.Sprintf("%.4g", b.Ns)), append(offs, -w/2)
		if sim[i] > 0 {
			pos, labels, offs = append(pos, plotter.XY{X: float64(i), Y: sim[i]}), append(labels, fmt.Sprintf("%.4g", b.SimNs)), append(offs, w/2)
		}
	}
	for k := range pos {
		lab, err := plotter.NewLabels(plotter.XYLabels{XYs: pos[k : k+1], Labels: labels[k : k+1]})
		if err != nil {
			return nil, fmt.Errorf("ripst: %w", err)
		}
		lab.TextStyle[0].XAlign, lab.TextStyle[0].YAlign = draw.XCenter, draw.YBottom
		lab.TextStyle[0].Font.Size = legendSize * 0.9
		lab.Offset = vg.Point{X: offs[k], Y: vg.Points(2)}
		p.Add(lab)
	}
	p.Y.Min, p.Y.Max = 1, 6
	p.Y.Tick.Marker = log10Ticks{}
	nominalX(p, names)
	log := drawnLog{}
	for i := range table {
		log.add("formula", plotter.XYs{{X: float64(i), Y: table[i]}})
		log.add("simulated", plotter.XYs{{X: float64(i), Y: sim[i]}})
	}
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne, drawn: log}, nil
}

// nominalX labels the x axis with names, rotated when they would not fit
// side by side (about 6 points a character over the 7 inches of axis), and
// pads the axis so that the outer bars are not on the frame.
func nominalX(p *gplot.Plot, names []string) {
	p.NominalX(names...)
	longest := 0
	for _, n := range names {
		longest = max(longest, len(n))
	}
	if float64(longest*len(names))*5.5 > 7*72 {
		p.X.Tick.Label.Rotation = math.Pi / 6
		p.X.Tick.Label.XAlign = draw.XRight
		p.X.Tick.Label.YAlign = draw.YTop
	}
	pad(&p.X, 0.5, 0.5)
}

// withInputs appends a figure's inputs to its title as a second line.
func withInputs(title, inputs string) string {
	if inputs == "" {
		return title
	}
	return title + "\n" + inputs
}

// log10Ticks labels an axis of log10 values with the powers of ten.
type log10Ticks struct{}

func (log10Ticks) Ticks(min, max float64) []gplot.Tick {
	var t []gplot.Tick
	for k := math.Ceil(min); k <= max; k++ {
		t = append(t, gplot.Tick{Value: k, Label: results.Thousands(int64(math.Round(math.Pow(10, k))))})
	}
	return t
}
