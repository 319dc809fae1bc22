package plot

import (
	"fmt"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
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
// extension, and a bar for the published optimised cycles.
func FPRUnit(phases []FPRUnitPhase, params int) (*Figure, error) {
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
	p := newPlot(fmt.Sprintf("Falcon-%d with the HORCRUX fpr-unit: cycles per phase", params),
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
	p.Y.Max = 130
	nominalX(p, names, math.Pi/5)
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne}, nil
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
// simulation side by side.
func RIPST(bars []RIPSTBar) (*Figure, error) {
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
	p := newPlot("SamplerZ RIPST (Vojacek-Novotny comparison)", "design", "RIPST per leaf pair, ns (log scale)")
	w := vg.Points(12)
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
	p.Y.Min, p.Y.Max = 1, 5.5
	p.Y.Tick.Marker = log10Ticks{}
	nominalX(p, names, math.Pi/6)
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne}, nil
}

// nominalX labels the x axis with names, rotated by angle.
func nominalX(p *gplot.Plot, names []string, angle float64) {
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = angle
	p.X.Tick.Label.XAlign = -0.9
	p.X.Tick.Label.YAlign = -0.5
}

// log10Ticks labels an axis of log10 values with the powers of ten.
type log10Ticks struct{}

func (log10Ticks) Ticks(min, max float64) []gplot.Tick {
	var t []gplot.Tick
	for k := math.Ceil(min); k <= max; k++ {
		t = append(t, gplot.Tick{Value: k, Label: fmt.Sprintf("%g", math.Pow(10, k))})
	}
	return t
}
