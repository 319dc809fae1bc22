package plot

import (
	"fmt"
	"math"
	"sort"
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

// Legends of the reference lines: what the level is, and for measured
// levels on which degree and sample.
const (
	specBoundLegend = "2^-46: specification's bound on δc+δσ"
	twfalconLegend  = "2^-37: TWFalcon's binary64 worst call, Falcon-1024, 10^5 signatures"
)

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

// histPanel is one panel of the histogram figure: one quantity of the
// compare objects and what one of its values is.
type histPanel struct {
	key   string // the quantity's path in the document
	title string
	unit  string // "calls" or "signatures"
	q     func(*results.Compare) *results.Quantiles
	// twfalcon draws TWFalcon's binary64 level (a per-call worst of the
	// error of mu and 1/sigma, delta_c's quantity).
	twfalcon bool
	// spec draws the specification's bound, and criterion says in the
	// legend how many values reach it (the per-signature test).
	spec, criterion bool
}

var histPanels = []histPanel{
	{key: "per_leaf.sum", title: "δc + δσ at each sampler call", unit: "calls", q: func(c *results.Compare) *results.Quantiles { return &c.PerLeaf.Sum }, spec: true},
	{key: "per_signature.sum", title: "δc + δσ per signature (its worst call): the specification's test", unit: "signatures", q: func(c *results.Compare) *results.Quantiles { return &c.PerSignature.Sum }, spec: true, criterion: true},
	{key: "per_leaf.delta_c", title: "δc (error of the centre) at each sampler call", unit: "calls", q: func(c *results.Compare) *results.Quantiles { return &c.PerLeaf.DeltaC }, twfalcon: true},
	{key: "per_leaf.delta_sigma", title: "δσ (error of σ) at each sampler call", unit: "calls", q: func(c *results.Compare) *results.Quantiles { return &c.PerLeaf.DeltaSigma }},
}

// histCounts returns the bins of q in order of log2 and their total,
// refusing negative counts.
func histCounts(backend string, q *results.Quantiles) ([]results.Bin, int64, error) {
	bins := append([]results.Bin(nil), q.Histogram...)
	sort.SliceStable(bins, func(i, j int) bool { return bins[i].Log2 < bins[j].Log2 })
	var total int64
	for _, b := range bins {
		if b.Count < 0 {
			return nil, 0, fmt.Errorf("histogram of %s: negative count %d", backend, b.Count)
		}
		total += b.Count
	}
	return bins, total, nil
}

// atOrAbove counts the values of bins at or above 2^level (bins of one
// binade: a bin at log2 >= level holds values >= 2^level).
func atOrAbove(bins []results.Bin, level float64) int64 {
	var n int64
	for _, b := range bins {
		if b.Log2 >= level {
			n += b.Count
		}
	}
	return n
}

// stepRuns are the outline of a histogram of fractions (log10) over bins
// of one binade, one run per stretch of consecutive non-empty bins, each
// anchored at base at both ends, so that no bin floats and no line runs
// along the baseline as if it were a bin.
func stepRuns(bins []results.Bin, total int64, base float64) []plotter.XYs {
	var runs []plotter.XYs
	var cur plotter.XYs
	end := math.Inf(-1)
	for _, b := range bins {
		if b.Count == 0 {
			continue
		}
		if b.Log2 != end {
			if len(cur) > 0 {
				runs = append(runs, append(cur, plotter.XY{X: end, Y: base}))
			}
			cur = plotter.XYs{{X: b.Log2, Y: base}}
		}
		f := math.Log10(float64(b.Count) / float64(total))
		cur = append(cur, plotter.XY{X: b.Log2, Y: f}, plotter.XY{X: b.Log2 + 1, Y: f})
		end = b.Log2 + 1
	}
	if len(cur) > 0 {
		runs = append(runs, append(cur, plotter.XY{X: end, Y: base}))
	}
	return runs
}

// Histogram draws the histograms of each backend, overlaid as fractions
// of its values on a logarithmic axis, in up to four panels: delta_c +
// delta_sigma per sampler call and per signature (the worst call of each
// signature, which the specification's 2^-46 bound is a test of), and
// delta_c and delta_sigma apart (where delta_sigma floors the sum, only
// delta_c's panel shows the centre's error; TWFalcon's binary64 level is
// drawn there). Panels no object has a histogram for are left out.
func Histogram(cs []results.Compare) (*Figure, error) { return histogram(cs, nil) }

// histogram draws Histogram with notes appended to the backends' legends
// (which of them is a sweep's P*).
func histogram(cs []results.Compare, notes map[string]string) (*Figure, error) {
	type drawn struct {
		hp   histPanel
		have []results.Compare
	}
	var panels []drawn
	for _, hp := range histPanels {
		var have []results.Compare
		for i := range cs {
			if len(hp.q(&cs[i]).Histogram) > 0 {
				have = append(have, cs[i])
			}
		}
		if len(have) > 0 {
			panels = append(panels, drawn{hp, have})
		}
	}
	if len(panels) == 0 {
		return nil, fmt.Errorf("histogram: %w: no compare object has per_leaf.sum.histogram", results.ErrNoData)
	}
	// One x range for every panel, so that they compare at a glance.
	xmin, xmax := math.Inf(1), float64(specBoundLog2+2)
	for _, d := range panels {
		for i := range d.have {
			for _, b := range d.hp.q(&d.have[i]).Histogram {
				if b.Count > 0 {
					xmin, xmax = min(xmin, b.Log2), max(xmax, b.Log2+1)
				}
			}
		}
		if d.hp.twfalcon {
			xmax = max(xmax, twfalconB64Worst+2)
		}
	}
	if math.IsInf(xmin, 1) {
		xmin = xmax - 10 // every histogram empty: an axis, nothing on it
	}
	cols := 1
	if len(panels) > 1 {
		cols = 2
	}
	rows := (len(panels) + cols - 1) / cols
	panelH := vg.Length(4) * vg.Inch
	if rows == 1 && cols == 1 {
		panelH = heightOne
	}
	h := vg.Length(rows)*panelH + vg.Points(24)
	var out []*gplot.Plot
	log := drawnLog{}
	for k, d := range panels {
		title := d.hp.title
		if k == 0 {
			title = fmt.Sprintf("Error against %s: %s, %s\n%s", oracleBits(d.have), degrees(cs), results.DescribeSamples(d.have), title)
		}
		p := newPlot(title, "log2 of the error (bins of one binade)", "fraction of "+d.hp.unit+" (log scale)")
		// log10 of the fraction on a linear axis, labelled as powers of
		// ten (gonum's LogScale reserves room for the axis label at the
		// linear midpoint, which leaves a gap above the data).
		p.Y.Tick.Marker = decadeTicks
		p.Legend.Left = true
		type series struct {
			c     *results.Compare
			bins  []results.Bin
			total int64
		}
		var ss []series
		minF := 0.0
		for i := range d.have {
			c := &d.have[i]
			bins, total, err := histCounts(c.Backend, d.hp.q(c))
			if err != nil {
				return nil, err
			}
			for _, b := range bins {
				if b.Count > 0 {
					minF = min(minF, math.Log10(float64(b.Count)/float64(total)))
				}
			}
			ss = append(ss, series{c, bins, total})
		}
		base := math.Ceil(minF) - 1
		entries := 0
		for _, s := range ss {
			idx := indexOf(cs, s.c.Backend)
			label := s.c.Backend + notes[s.c.Backend]
			q := d.hp.q(s.c)
			if s.total == 0 {
				p.Legend.Add(label + ": no nonzero value, nothing to draw")
				entries++
				continue
			}
			switch {
			case d.hp.criterion:
				label += fmt.Sprintf(": %s of %s %s ≥ 2^-46, worst %s", results.Thousands(atOrAbove(s.bins, specBoundLog2)), results.Thousands(s.total), d.hp.unit, fmtLog2(q.Max))
			default:
				label += fmt.Sprintf(": %s %s, max %s", results.Thousands(s.total), d.hp.unit, fmtLog2(q.Max))
			}
			for _, b := range s.bins {
				if b.Count > 0 {
					log.add(d.hp.key+" "+s.c.Backend, plotter.XYs{{X: b.Log2, Y: math.Log10(float64(b.Count) / float64(s.total))}})
				}
			}
			for j, run := range stepRuns(s.bins, s.total, base) {
				l, err := line(run, idx, idx >= seriesColours)
				if err != nil {
					return nil, err
				}
				p.Add(l)
				if j == 0 {
					p.Legend.Add(label, l)
				}
			}
			entries++
		}
		// The reference lines end just above the data (a fraction of 1),
		// below the legend.
		if d.hp.spec {
			addRef(p, specBoundLog2, true, specBoundLegend, refBlack).Upto = 0.25
			entries++
		}
		if d.hp.twfalcon {
			addRef(p, twfalconB64Worst, true, twfalconLegend, refGrey).Upto = 0.25
			entries++
		}
		p.X.Min, p.X.Max = xmin-1, xmax+1
		p.Y.Min, p.Y.Max = base, 0
		legendRoom(p, entries, panelH)
		out = append(out, p)
	}
	w := width
	if cols == 2 {
		w = 12 * vg.Inch
	}
	return &Figure{panels: out, w: w, h: h, cols: cols, drawn: log}, nil
}

// indexOf is the position of the backend in cs: its colour in every panel.
func indexOf(cs []results.Compare, backend string) int {
	for i := range cs {
		if cs[i].Backend == backend {
			return i
		}
	}
	return 0
}

// Stages draws, for each backend, the largest and the median relative
// error of the values each stage of signing produces (where the error is
// born), stages from top to bottom in signing order. Stages are
// categories, so each backend's values are points (no line joins two
// stages), offset within the stage's row one backend below the other;
// a stage some backend computes exactly has no point for it and says so
// in its row label.
func Stages(cs []results.Compare) (*Figure, error) { return stages(cs, nil) }

// stages draws Stages with notes appended to the backends' legends.
func stages(cs []results.Compare, notes map[string]string) (*Figure, error) {
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
	exact := map[string][]string{}
	for _, c := range have {
		for _, s := range c.Stages {
			n := s.Name(leveled[s.Stage])
			if _, ok := index[n]; !ok {
				index[n] = len(names)
				names = append(names, n)
			}
			if math.IsInf(float64(s.MaxRelLog2), -1) {
				exact[n] = append(exact[n], c.Backend)
			}
		}
	}
	if err := checkCategories("signing stages", len(names)); err != nil {
		return nil, fmt.Errorf("stages: %w", err)
	}
	p := newPlot(
		fmt.Sprintf("Where error is born: relative error of each signing stage against %s\n%s, %s; filled: maximum, hollow: median", oracleBits(have), degrees(have), results.DescribeSamples(have)),
		"log2(relative error) of the stage's values", "signing stage, in order")
	rev := make([]string, len(names))
	for i, n := range names {
		label := n
		switch e := exact[n]; {
		case len(e) == 0:
		case len(e) == len(have):
			label += " (exact in every backend)"
		case len(e) > 2:
			label += fmt.Sprintf(" (exact: %s +%d more)", strings.Join(e[:2], ", "), len(e)-2)
		default:
			label += " (exact: " + strings.Join(e, ", ") + ")"
		}
		rev[len(names)-1-i] = label
	}
	p.NominalY(rev...)
	// Backends one below the other within a row, the first on top.
	step := 0.44 / float64(max(1, len(have)-1))
	if len(have) == 1 {
		step = 0
	}
	log := drawnLog{}
	for i, c := range have {
		off := 0.22 - float64(i)*step
		if len(have) == 1 {
			off = 0
		}
		var maxPts, medPts plotter.XYs
		for _, s := range c.Stages {
			row := index[s.Name(leveled[s.Stage])]
			y := float64(len(names)-1-row) + off
			if s.MaxRelLog2.Finite() {
				maxPts = append(maxPts, plotter.XY{X: float64(s.MaxRelLog2), Y: y})
				log.add(c.Backend+" max", plotter.XYs{{X: float64(row), Y: float64(s.MaxRelLog2)}})
			}
			if s.MedianRelLog2.Finite() {
				medPts = append(medPts, plotter.XY{X: float64(s.MedianRelLog2), Y: y})
				log.add(c.Backend+" median", plotter.XYs{{X: float64(row), Y: float64(s.MedianRelLog2)}})
			}
		}
		var thumbs []gplot.Thumbnailer
		for _, set := range []struct {
			pts  plotter.XYs
			fill bool
		}{{maxPts, true}, {medPts, false}} {
			if len(set.pts) == 0 {
				continue
			}
			g := filledShape(i)
			if !set.fill {
				g = hollowShape(i)
			}
			sc, err := markers(set.pts, i, g, vg.Points(3))
			if err != nil {
				return nil, err
			}
			p.Add(sc)
			thumbs = append(thumbs, sc)
		}
		label := c.Backend + notes[c.Backend]
		if len(thumbs) == 0 {
			label += ": exact at every stage, nothing to draw"
		}
		p.Legend.Add(label, thumbs...)
	}
	p.Y.Padding = 0
	// One row per stage: at least a sixth of an inch each, more with many
	// backends; the legend goes top right, above the first stage, in rows
	// added for it.
	row := max(vg.Inch/6, vg.Length(len(have))*vg.Points(2.5))
	extra := float64(vg.Length(len(have))*legendLineHeight+vg.Points(4)) / float64(row)
	p.Legend.Left = false
	p.Y.Min, p.Y.Max = -0.5, float64(len(names))-0.5+extra
	pad(&p.X, 1, 1)
	h := vg.Length(float64(len(names))+extra)*row + 1.5*vg.Inch
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: h, drawn: log}, nil
}
