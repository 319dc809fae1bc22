package plot

import (
	"fmt"
	"math"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fprlab/fprlab/analysis/results"
)

// Expm draws the error of each backend's expm_p63 over [0, ln 2), as
// measured by analysis.MeasureExpmCurve: one marker per grid point, at the
// worst of its ccs values; exact points are left out and counted in the
// legend.
func Expm(curves []results.ExpmCurve) (*Figure, error) {
	if len(curves) == 0 {
		return nil, fmt.Errorf("expm: no backends measured")
	}
	n := len(curves[0].X)
	var ccs []string
	for _, c := range curves[0].CCS {
		ccs = append(ccs, fmt.Sprintf("%.2f", c))
	}
	p := newPlot(
		fmt.Sprintf("expm_p63 error against the exact floor(2^63·ccs·exp(-x)), worst over ccs in {%s}\n%d points of [0, ln 2) per backend", strings.Join(ccs, ", "), n),
		"x (argument of exp(-x), the sampler's reduced exponent)", "log2(|error| / 2^63)")
	p.X.Min, p.X.Max = 0, math.Ln2
	p.Legend.Left = true
	log := drawnLog{}
	for i, c := range curves {
		var xy plotter.XYs
		worst := math.Inf(-1)
		for k, e := range c.ErrLog2 {
			if !math.IsInf(e, -1) {
				xy = append(xy, plotter.XY{X: c.X[k], Y: e})
				worst = max(worst, e)
			}
		}
		label := fmt.Sprintf("%s: exact at all %d points", c.Backend, len(c.X))
		if len(xy) == 0 {
			// Nothing to draw: the legend says so (its marker is drawn
			// in the legend only).
			s, err := markers(plotter.XYs{{X: 0, Y: 0}}, i, shape(i), vg.Points(2))
			if err != nil {
				return nil, err
			}
			p.Legend.Add(label, s)
			continue
		}
		log.add(c.Backend, xy)
		s, err := markers(xy, i, shape(i), vg.Points(1.6))
		if err != nil {
			return nil, err
		}
		p.Add(s)
		label = fmt.Sprintf("%s: worst 2^%.1f, exact at %d of %d", c.Backend, worst, len(c.X)-len(xy), len(c.X))
		p.Legend.Add(label, s)
	}
	headroom(&p.Y, 0.35) // room for the legend
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne, drawn: log}, nil
}
