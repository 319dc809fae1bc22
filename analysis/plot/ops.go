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

// Ops draws, per operation, each backend's largest (filled) and median
// (hollow) relative error against the oracle from `arith errors --json`,
// and its proven bound (a bar) where it has one. Exact results (the oracle
// against itself) have no point and say so in the legend.
func Ops(ops []results.OpError) (*Figure, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("ops: %w: no arith errors document", results.ErrNoData)
	}
	var opNames, backends []string
	opIndex, bIndex := map[string]int{}, map[string]int{}
	samples := int64(-1)
	for _, o := range ops {
		if _, ok := opIndex[o.Op]; !ok {
			opIndex[o.Op] = len(opNames)
			opNames = append(opNames, o.Op)
		}
		if _, ok := bIndex[o.Backend]; !ok {
			bIndex[o.Backend] = len(backends)
			backends = append(backends, o.Backend)
		}
		if samples < 0 || o.Samples < samples {
			samples = o.Samples
		}
	}
	if err := checkCategories("operations", len(opNames)); err != nil {
		return nil, fmt.Errorf("ops: %w", err)
	}
	p := newPlot(fmt.Sprintf("Relative error of each operation against the 256-bit oracle (arith errors)\nat least %s samples per operation and backend; filled: maximum, hollow: median, bar: proven bound", results.Thousands(samples)),
		"operation", "log2(relative error)  (expm_p63: of full scale 2^63)")
	p.NominalX(opNames...)
	p.Legend.Top, p.Legend.Left = false, false
	width := 0.7 / float64(len(backends))
	for j, b := range backends {
		off := (float64(j) - float64(len(backends)-1)/2) * width
		var maxPts, medPts plotter.XYs
		exact := 0
		for _, o := range ops {
			if o.Backend != b {
				continue
			}
			x := float64(opIndex[o.Op]) + off
			if o.MaxRelErrLog2.Finite() {
				maxPts = append(maxPts, plotter.XY{X: x, Y: float64(o.MaxRelErrLog2)})
			} else if math.IsInf(float64(o.MaxRelErrLog2), -1) {
				exact++
			}
			if o.MedianRelErrLog2.Finite() {
				medPts = append(medPts, plotter.XY{X: x, Y: float64(o.MedianRelErrLog2)})
			}
			if o.BoundLog2 != nil {
				l, err := line(plotter.XYs{{X: x - width/2, Y: *o.BoundLog2}, {X: x + width/2, Y: *o.BoundLog2}}, j, false)
				if err != nil {
					return nil, err
				}
				l.Width = vg.Points(2.5)
				p.Add(l)
			}
		}
		label := b
		if exact > 0 {
			label += fmt.Sprintf(" (exact in %d operations)", exact)
		}
		thumb, err := markers(plotter.XYs{{X: 0, Y: 0}}, j, draw.CircleGlyph{}, vg.Points(3))
		if err != nil {
			return nil, err
		}
		if len(maxPts) > 0 {
			s, err := markers(maxPts, j, draw.CircleGlyph{}, vg.Points(3))
			if err != nil {
				return nil, err
			}
			p.Add(s)
		}
		if len(medPts) > 0 {
			s, err := markers(medPts, j, draw.RingGlyph{}, vg.Points(3))
			if err != nil {
				return nil, err
			}
			p.Add(s)
		}
		p.Legend.Add(label, thumb)
	}
	pad(&p.X, 0.3, 0.3)
	headroom(&p.Y, 0.04)
	return &Figure{panels: []*gplot.Plot{p}, w: width8(len(opNames)), h: heightOne}, nil
}

// width8 is the figure width for n categories: 8 inches, more beyond 12.
func width8(n int) vg.Length { return max(width, vg.Length(n)*vg.Inch*2/3) }
