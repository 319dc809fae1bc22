package plot

import (
	"fmt"
	"math"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/fprlab/fprlab/analysis/results"
)

// Ops draws, per operation, each backend's largest (filled) and median
// (hollow) relative error against the oracle from `arith errors --json`,
// its proven bound (a bar) where it has one, and (a cross) the largest
// relative error of its results below its exponent range (triple-word
// binary32 loses precision under 2^-78: a hardware datapath's concern).
// Operations no backend has an error in are left out and named in the
// title; a backend exact everywhere is named in the legend without a
// swatch.
func Ops(ops []results.OpError) (*Figure, error) {
	if len(ops) == 0 {
		return nil, fmt.Errorf("ops: %w: no arith errors document", results.ErrNoData)
	}
	drawable := func(o *results.OpError) bool {
		return results.Log2(o.MaxRelErrLog2).Finite() || results.Log2(o.MedianRelErrLog2).Finite() || o.HasBound || (o.BelowRange > 0 && results.Log2(o.BelowRangeMaxRelErrLog2).Finite())
	}
	var opNames, backends, exactOps []string
	opIndex, bIndex := map[string]int{}, map[string]int{}
	hasData := map[string]bool{}
	samples := int64(-1)
	for i := range ops {
		o := &ops[i]
		if drawable(o) {
			hasData[o.Op] = true
		}
		if _, ok := bIndex[o.Backend]; !ok {
			bIndex[o.Backend] = len(backends)
			backends = append(backends, o.Backend)
		}
		if samples < 0 || int64(o.Samples) < samples {
			samples = int64(o.Samples)
		}
	}
	seenOp := map[string]bool{}
	for _, o := range ops {
		if seenOp[o.Op] {
			continue
		}
		seenOp[o.Op] = true
		if hasData[o.Op] {
			opIndex[o.Op] = len(opNames)
			opNames = append(opNames, o.Op)
		} else {
			exactOps = append(exactOps, o.Op)
		}
	}
	if err := checkCategories("operations", len(opNames)+len(exactOps)); err != nil {
		return nil, fmt.Errorf("ops: %w", err)
	}
	if len(opNames) == 0 {
		return nil, fmt.Errorf("ops: %w: every operation is exact in every backend, nothing to draw", results.ErrNoData)
	}
	title := fmt.Sprintf("Relative error of each operation against the 256-bit oracle (arith errors)\nat least %s samples per operation and backend\nfilled: maximum, hollow: median, bar: proven bound, ×: maximum of the results below the backend's exponent range", results.Thousands(samples))
	if len(exactOps) > 0 {
		title += "\nexact in every backend, not drawn: " + strings.Join(exactOps, ", ")
	}
	p := newPlot(title, "operation", "log2(relative error)  (expm_p63: of full scale 2^63)")
	p.NominalX(opNames...)
	p.Legend.Top, p.Legend.Left = true, false
	width := 0.7 / float64(len(backends))
	log := drawnLog{}
	for j, b := range backends {
		off := (float64(j) - float64(len(backends)-1)/2) * width
		var maxPts, medPts, belowPts plotter.XYs
		exact, below := 0, ""
		for _, o := range ops {
			if o.Backend != b {
				continue
			}
			if math.IsInf(float64(o.MaxRelErrLog2), -1) {
				exact++
			}
			col, ok := opIndex[o.Op]
			if !ok {
				continue
			}
			x := float64(col) + off
			for _, q := range []struct {
				name string
				v    results.Log2
				ok   bool
			}{{"max", results.Log2(o.MaxRelErrLog2), true}, {"median", results.Log2(o.MedianRelErrLog2), true}, {"below", results.Log2(o.BelowRangeMaxRelErrLog2), o.BelowRange > 0}} {
				if q.ok && q.v.Finite() {
					log.add(b+" "+o.Op+" "+q.name, plotter.XYs{{X: float64(col), Y: float64(q.v)}})
				}
			}
			if results.Log2(o.MaxRelErrLog2).Finite() {
				maxPts = append(maxPts, plotter.XY{X: x, Y: float64(o.MaxRelErrLog2)})
			}
			if results.Log2(o.MedianRelErrLog2).Finite() {
				medPts = append(medPts, plotter.XY{X: x, Y: float64(o.MedianRelErrLog2)})
			}
			if o.BelowRange > 0 && results.Log2(o.BelowRangeMaxRelErrLog2).Finite() {
				belowPts = append(belowPts, plotter.XY{X: x, Y: float64(o.BelowRangeMaxRelErrLog2)})
				below = fmt.Sprintf("; ×: results below 2^%d", o.RangeMinExp)
			}
			if o.HasBound {
				l, err := line(plotter.XYs{{X: x - width/2, Y: o.BoundLog2}, {X: x + width/2, Y: o.BoundLog2}}, j, false)
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
		var thumbs []gplot.Thumbnailer
		for _, set := range []struct {
			pts plotter.XYs
			g   draw.GlyphDrawer
		}{{maxPts, draw.CircleGlyph{}}, {medPts, draw.RingGlyph{}}, {belowPts, draw.CrossGlyph{}}} {
			if len(set.pts) == 0 {
				continue
			}
			s, err := markers(set.pts, j, set.g, vg.Points(3))
			if err != nil {
				return nil, err
			}
			if set.g == (draw.CrossGlyph{}) {
				s.Radius = vg.Points(4)
			}
			p.Add(s)
			if len(thumbs) == 0 {
				thumbs = append(thumbs, s)
			}
		}
		if len(thumbs) == 0 {
			p.Legend.Add(b + ": exact in every operation, nothing drawn")
			continue
		}
		p.Legend.Add(label+below, thumbs...)
	}
	pad(&p.X, 0.3, 0.3)
	headroom(&p.Y, 0.04)
	legendRoom(p, len(backends), heightOne)
	return &Figure{panels: []*gplot.Plot{p}, w: width8(len(opNames)), h: heightOne, drawn: log}, nil
}

// width8 is the figure width for n categories: 8 inches, more beyond 12.
func width8(n int) vg.Length { return max(width, vg.Length(n)*vg.Inch*2/3) }
