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

// Reference error levels drawn on error axes.
const (
	specBoundLog2    = -46 // Falcon specification: no loss expected if delta_c + delta_sigma <= 2^-46
	twfalconB64Worst = -37 // TWFalcon (ePrint 2025/1991): binary64's measured worst delta over 10^5 Falcon-1024 signatures
)

func errorLines(p *gplot.Plot, vertical bool) {
	p.Add(newRefLine(specBoundLog2, vertical, "2^-46 (specification bound)", colour(7)))
	p.Add(newRefLine(twfalconB64Worst, vertical, "2^-37 (TWFalcon binary64 worst)", colour(6)))
}

// degrees lists the Falcon degrees of a set of compare objects: "Falcon-512".
func degrees(cs []results.Compare) string {
	seen := map[int]bool{}
	var out []string
	for _, c := range cs {
		if !seen[int(c.Params)] {
			seen[int(c.Params)] = true
			out = append(out, fmt.Sprintf("Falcon-%d", c.Params))
		}
	}
	return strings.Join(out, ", ")
}

// oracleBits names the exact side the documents were measured against.
func oracleBits(cs []results.Compare) string {
	switch {
	case len(cs) == 0:
		return "the exact shadow"
	case cs[0].Shadow == "dd":
		return "the double-double shadow"
	case cs[0].OracleBits == 0:
		return "the oracle"
	}
	return fmt.Sprintf("the %d-bit oracle", cs[0].OracleBits)
}

func fmtLog2(l results.Log2) string {
	switch {
	case math.IsNaN(float64(l)):
		return "n/a"
	case math.IsInf(float64(l), -1):
		return "0"
	}
	return fmt.Sprintf("2^%.1f", float64(l))
}

// Histogram draws the per-call histogram of log2(delta_c + delta_sigma)
// (per_leaf.sum.histogram) of each backend, overlaid as fractions of its
// sampler calls on a logarithmic axis, with the 2^-46 and 2^-37 lines.
func Histogram(cs []results.Compare) (*Figure, error) {
	var have []results.Compare
	for _, c := range cs {
		if len(c.PerLeaf.Sum.Histogram) > 0 {
			have = append(have, c)
		}
	}
	if len(have) == 0 {
		return nil, fmt.Errorf("histogram: %w: no compare object has per_leaf.sum.histogram", results.ErrNoData)
	}
	p := newPlot(
		fmt.Sprintf("Per-call error δc+δσ against %s\n%s, %s", oracleBits(have), degrees(have), results.DescribeSamples(have)),
		"log2(δc + δσ) at one sampler call (bins of one binade)",
		"fraction of sampler calls (log scale)")
	// log10 of the fraction on a linear axis, labelled as powers of ten
	// (gonum's LogScale reserves room for the axis label at the linear
	// midpoint, which leaves a gap above the data).
	p.Y.Tick.Marker = decadeTicks
	p.Legend.Left = true
	for i, c := range have {
		var total int64
		for _, b := range c.PerLeaf.Sum.Histogram {
			if b.Count < 0 {
				return nil, fmt.Errorf("histogram of %s: negative count %d", c.Backend, b.Count)
			}
			total += b.Count
		}
		if total == 0 {
			continue
		}
		var pts plotter.XYs
		for _, b := range c.PerLeaf.Sum.Histogram {
			if b.Count == 0 {
				continue
			}
			f := math.Log10(float64(b.Count) / float64(total))
			pts = append(pts, plotter.XY{X: b.Log2, Y: f}, plotter.XY{X: b.Log2 + 1, Y: f})
		}
		l, err := line(pts, i, false)
		if err != nil {
			return nil, err
		}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("%s (%s calls, max %s)", c.Backend, results.Thousands(total), fmtLog2(c.PerLeaf.Sum.Max)), l)
	}
	errorLines(p, true)
	pad(&p.X, 1, 0)
	p.X.Max = max(p.X.Max, twfalconB64Worst) + 3
	p.Y.Min, p.Y.Max = math.Floor(p.Y.Min), math.Max(0, math.Ceil(p.Y.Max))+1.5 // room for the legend above the data
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne}, nil
}

// Stages draws, for each backend, the largest and the median relative
// error of the values each stage of signing produces (where the error is
// born), stages from top to bottom in signing order.
func Stages(cs []results.Compare) (*Figure, error) {
	var have []results.Compare
	for _, c := range cs {
		if len(c.Stages) > 0 {
			have = append(have, c)
		}
	}
	if len(have) == 0 {
		return nil, fmt.Errorf("stages: %w: no compare object has stages", results.ErrNoData)
	}
	// Stage order: first appearance across backends; stages that repeat
	// over tree levels are labelled with their level.
	leveled := results.StageNames(have)
	var names []string
	index := map[string]int{}
	for _, c := range have {
		for _, s := range c.Stages {
			n := s.Name(leveled[s.Stage])
			if _, ok := index[n]; !ok {
				index[n] = len(names)
				names = append(names, n)
			}
		}
	}
	if err := checkCategories("signing stages", len(names)); err != nil {
		return nil, fmt.Errorf("stages: %w", err)
	}
	p := newPlot(
		fmt.Sprintf("Where error is born: relative error of each signing stage against %s\n%s, %s", oracleBits(have), degrees(have), results.DescribeSamples(have)),
		"log2(relative error) of the stage's values (filled: maximum, hollow: median)", "signing stage, in order")
	rev := make([]string, len(names))
	for i, n := range names {
		rev[len(names)-1-i] = n
	}
	p.NominalY(rev...)
	p.Legend.Left = true
	for i, c := range have {
		var maxPts, medPts plotter.XYs
		for _, s := range c.Stages {
			y := float64(len(names) - 1 - index[s.Name(leveled[s.Stage])])
			if s.MaxRelLog2.Finite() {
				maxPts = append(maxPts, plotter.XY{X: float64(s.MaxRelLog2), Y: y})
			}
			if s.MedianRelLog2.Finite() {
				medPts = append(medPts, plotter.XY{X: float64(s.MedianRelLog2), Y: y})
			}
		}
		if len(maxPts) > 0 {
			l, sc, err := linePoints(maxPts, i, false, false)
			if err != nil {
				return nil, err
			}
			p.Add(l, sc)
			p.Legend.Add(c.Backend+" maximum", l, sc)
		}
		if len(medPts) > 0 {
			l, sc, err := linePoints(medPts, i, true, true)
			if err != nil {
				return nil, err
			}
			p.Add(l, sc)
			p.Legend.Add(c.Backend+" median", l, sc)
		}
	}
	p.Y.Padding = 0
	// The legend goes right of the data.
	p.Legend.Left = false
	pad(&p.X, 1, (p.X.Max-p.X.Min)*0.4+1)
	// One row per stage: at least a sixth of an inch each.
	h := max(heightOne, vg.Length(len(names))*vg.Inch/6+2*vg.Inch)
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: h}, nil
}
