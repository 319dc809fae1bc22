package accel

import (
	"bytes"
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// Figures of the models, rendered with gonum/plot as PNG and SVG.

// render writes p as PNG and SVG of the given size.
func render(p *plot.Plot, w, h vg.Length) (png, svg []byte, err error) {
	for _, f := range []struct {
		format string
		out    *[]byte
	}{{"png", &png}, {"svg", &svg}} {
		wt, err := p.WriterTo(w, h, f.format)
		if err != nil {
			return nil, nil, fmt.Errorf("accel: rendering %s: %w", f.format, err)
		}
		var buf bytes.Buffer
		if _, err := wt.WriteTo(&buf); err != nil {
			return nil, nil, fmt.Errorf("accel: rendering %s: %w", f.format, err)
		}
		*f.out = buf.Bytes()
	}
	return png, svg, nil
}

var (
	colFPR    = color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff}
	colNorm   = color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff}
	colOther  = color.RGBA{R: 0x7f, G: 0x7f, B: 0x7f, A: 0xff}
	colPub    = color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff}
	colSimBar = color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff}
)

// PlotFPRUnit draws the cycle breakdown per phase of an EstimateHorcrux
// result, in percent of each phase's baseline: for each phase a bar for
// the baseline (the fpr-unit's FPR and FPR_NORM64 calls at their software
// cost, and the rest) and a bar for the estimate with the extension, and a
// bar for the published optimised cycles (HORCRUX Table IV).
func PlotFPRUnit(est []HorcruxEstimate, c FPRUnitCycles, params int) (png, svg []byte, err error) {
	var fpr, norm, other, pub plotter.Values
	var names []string
	for _, e := range est {
		base := e.BaselineK * 1e3
		pct := func(x float64) float64 { return 100 * x / base }
		f, n := float64(e.FPR), float64(e.Norm64)
		softF, softN := f*c.SoftFPR, n*c.SoftNorm64
		extF, extN := f*c.ExtFPR, n*c.ExtNorm64
		rest := base - softF - softN
		fpr = append(fpr, pct(softF), pct(extF), 0)
		norm = append(norm, pct(softN), pct(extN), 0)
		other = append(other, pct(rest), pct(rest), 0)
		pub = append(pub, 0, 0, pct(e.OptK*1e3))
		names = append(names, e.Phase+" base", e.Phase+" est.", e.Phase+" pub.")
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Falcon-%d with the HORCRUX fpr-unit: cycles per phase", params)
	p.Y.Label.Text = "% of the phase's baseline cycles (Table IV)"
	w := vg.Points(14)
	bars := []*plotter.BarChart{}
	for _, s := range []struct {
		v     plotter.Values
		col   color.Color
		label string
	}{
		{other, colOther, "other work"},
		{norm, colNorm, "FPR_NORM64"},
		{fpr, colFPR, "FPR packing"},
		{pub, colPub, "published optimised"},
	} {
		b, err := plotter.NewBarChart(s.v, w)
		if err != nil {
			return nil, nil, fmt.Errorf("accel: %w", err)
		}
		b.Color = s.col
		b.LineStyle.Width = 0
		if len(bars) > 0 && s.label != "published optimised" {
			b.StackOn(bars[len(bars)-1])
		}
		bars = append(bars, b)
		p.Add(b)
		p.Legend.Add(s.label, b)
	}
	p.Legend.Top = true
	p.Y.Max = 130
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 5
	p.X.Tick.Label.XAlign = -0.9
	p.X.Tick.Label.YAlign = -0.5
	return render(p, 20*vg.Centimeter, 12*vg.Centimeter)
}

// RIPSTBar is one design of the RIPST figure: the formula's (or
// published) time and, when simulated, the simulation's, in ns.
type RIPSTBar struct {
	Design        string
	Ns, SimNs     float64
	HasSimulation bool
}

// PlotRIPST draws RIPST in ns per design on a logarithmic axis (bar
// heights are log10 of the time, labelled in ns), formula and simulation
// side by side.
func PlotRIPST(bars []RIPSTBar) (png, svg []byte, err error) {
	var table, sim plotter.Values
	var names []string
	for _, b := range bars {
		if !(b.Ns > 1) {
			return nil, nil, fmt.Errorf("accel: design %q: RIPST %v ns cannot be drawn on the log axis", b.Design, b.Ns)
		}
		table = append(table, math.Log10(b.Ns))
		s := 0.0
		if b.HasSimulation && b.SimNs > 1 {
			s = math.Log10(b.SimNs)
		}
		sim = append(sim, s)
		names = append(names, b.Design)
	}
	p := plot.New()
	p.Title.Text = "SamplerZ RIPST (Vojacek-Novotny comparison)"
	p.Y.Label.Text = "RIPST per leaf pair, ns (log scale)"
	w := vg.Points(12)
	bt, err := plotter.NewBarChart(table, w)
	if err != nil {
		return nil, nil, fmt.Errorf("accel: %w", err)
	}
	bt.Color, bt.Offset, bt.LineStyle.Width = colPub, -w/2, 0
	bs, err := plotter.NewBarChart(sim, w)
	if err != nil {
		return nil, nil, fmt.Errorf("accel: %w", err)
	}
	bs.Color, bs.Offset, bs.LineStyle.Width = colSimBar, w/2, 0
	p.Add(bt, bs)
	p.Legend.Add("formula (published table)", bt)
	p.Legend.Add("simulated on real signing", bs)
	p.Legend.Top = true
	p.Y.Min, p.Y.Max = 1, 5.5
	p.Y.Tick.Marker = log10Ticks{}
	p.NominalX(names...)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign = -0.9
	p.X.Tick.Label.YAlign = -0.5
	return render(p, 20*vg.Centimeter, 12*vg.Centimeter)
}

// log10Ticks labels an axis of log10 values with the powers of ten.
type log10Ticks struct{}

func (log10Ticks) Ticks(min, max float64) []plot.Tick {
	var t []plot.Tick
	for k := math.Ceil(min); k <= max; k++ {
		t = append(t, plot.Tick{Value: k, Label: fmt.Sprintf("%g", math.Pow(10, k))})
	}
	return t
}
