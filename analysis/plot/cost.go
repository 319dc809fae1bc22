package plot

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/fprlab/fprlab/analysis/results"
)

// Cost draws what a hardware variant's saving costs in precision: for each
// backend given a cost (Yosys cells, LUTs, cycles -- any figure the caller
// measured outside fprlab), the per-signature worst and median δc of its
// compare document against that cost, with 2^-46 marked. A designer
// truncating a multiplier reads off how many cells each step saves and
// when the error starts to move. Backends of the documents without a cost
// are left out (and a cost naming no document is an error), so one
// campaign directory holding a native reference row draws as it is.
func Cost(cs []results.Compare, cost map[string]float64, unit string) (*Figure, error) {
	type point struct {
		name          string
		cost          float64
		worst, median results.Log2
	}
	var pts []point
	seen := map[string]bool{}
	var sigs int64
	for _, c := range cs {
		v, ok := cost[c.Backend]
		if !ok {
			continue
		}
		if seen[c.Backend] {
			return nil, fmt.Errorf("cost: backend %s has two compare documents", c.Backend)
		}
		seen[c.Backend] = true
		if !c.PerSignature.DeltaC.Max.Finite() || !c.PerSignature.DeltaC.Median.Finite() {
			return nil, fmt.Errorf("cost: backend %s: its compare document has no finite per-signature δc", c.Backend)
		}
		pts = append(pts, point{shortName(c.Backend), v, c.PerSignature.DeltaC.Max, c.PerSignature.DeltaC.Median})
		if sigs == 0 || c.Signatures < sigs {
			sigs = c.Signatures
		}
	}
	for name := range cost {
		if !seen[name] {
			return nil, fmt.Errorf("cost: %w: no compare document of backend %s", results.ErrNoData, name)
		}
	}
	if len(pts) == 0 {
		return nil, fmt.Errorf("cost: %w: give a cost to at least one backend of the compare documents", results.ErrNoData)
	}
	slices.SortFunc(pts, func(a, b point) int {
		if a.cost != b.cost {
			if a.cost < b.cost {
				return -1
			}
			return 1
		}
		return strings.Compare(a.name, b.name)
	})
	if unit == "" {
		unit = "cost"
	}
	p := newPlot(fmt.Sprintf("Per-signature δc against %s (%s, %d signatures per backend at least)", unit, degrees(cs), sigs),
		unit, "log2 δc per signature")
	p.X.Tick.Marker = plainTicks{} // costs are not small integers
	var worst, median plotter.XYs
	var labels []string
	for _, q := range pts {
		worst = append(worst, plotter.XY{X: q.cost, Y: float64(q.worst)})
		median = append(median, plotter.XY{X: q.cost, Y: float64(q.median)})
		labels = append(labels, q.name)
	}
	for i, s := range []struct {
		xy    plotter.XYs
		label string
	}{{worst, "worst over the signatures"}, {median, "median over the signatures"}} {
		l, m, err := linePoints(s.xy, i, false, false)
		if err != nil {
			return nil, err
		}
		p.Add(l, m)
		p.Legend.Add(s.label, l, m)
	}
	lab, err := plotter.NewLabels(plotter.XYLabels{XYs: worst, Labels: labels})
	if err != nil {
		return nil, err
	}
	for i := range lab.TextStyle {
		lab.TextStyle[i].Font.Size = legendSize
		lab.TextStyle[i].YAlign = 0.3 // just above the worst marker
	}
	p.Add(lab)
	addRef(p, -46, false, "2^-46", refBlack)
	span := p.X.Max - p.X.Min
	if span == 0 {
		span = math.Max(1, math.Abs(p.X.Max))
	}
	pad(&p.X, span*0.08, span*0.15)
	ys := p.Y.Max - p.Y.Min
	pad(&p.Y, ys*0.05, ys*0.15)
	legendRoom(p, 3, heightOne)
	log := drawnLog{}
	log.add("worst", worst)
	log.add("median", median)
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne, drawn: log}, nil
}

// shortName is a backend's name as a point label: a plugin by its
// library's file name without the directory.
func shortName(backend string) string {
	if path, ok := strings.CutPrefix(backend, "so:"); ok {
		return "so:" + filepath.Base(path)
	}
	return backend
}

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("25000", not "25000.00").
type plainTicks struct{}

func (plainTicks) Ticks(min, max float64) []gplot.Tick {
	ts := gplot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'f', -1, 64)
		}
	}
	return ts
}
