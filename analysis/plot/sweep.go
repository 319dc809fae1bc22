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
	"github.com/fprlab/fprlab/arith"
)

// Reference is a fixed backend drawn as a marked point on a precision
// axis: native, emu64, triword at their significand precision.
type Reference struct {
	results.Compare
	Bits int
}

// References collects the fixed backends of a campaign: the sweep points
// that are not members of a precision family, and the compare objects,
// whose precision the document records ("bits"; for documents that
// predate it, the backend registry's, and objects of backends the registry
// does not know are left out). A backend seen twice for one
// degree is kept once, the sweep's entry first.
func References(pts []results.Point, cs []results.Compare) []Reference {
	var out []Reference
	seen := map[string]bool{}
	add := func(c results.Compare, bits int) {
		k := fmt.Sprint(c.Backend, c.Params)
		if seen[k] || bits <= 0 {
			return
		}
		seen[k] = true
		out = append(out, Reference{c, bits})
	}
	for _, p := range pts {
		if !p.IsSwept() {
			c := p.Compare
			if c.Backend == "" {
				c.Backend = p.Format
			}
			add(c, p.Bits)
		}
	}
	for _, c := range cs {
		if results.IsFamilyName(c.Backend) {
			continue // a point of a curve (Campaign.PrecisionPoints), not a reference
		}
		if c.Bits > 0 {
			add(c, c.Bits)
		} else if b, err := arith.Lookup(c.Backend); err == nil {
			add(c, b.Bits) // a document that predates "bits": the registry's
		} else if arith.IsLegacyName(c.Backend) {
			add(c, 72) // a retired triword name (arith.LegacyName): every triword variant had 72 bits
		}
	}
	return out
}

// precisionAxes labels the x axes of precision panels in whole bits.
func precisionAxes(ps ...*gplot.Plot) {
	for _, p := range ps {
		p.X.Tick.Marker = bitsTicks
	}
}

func sweepTitle(what string, pts []results.Point) string {
	keys, m := results.Curves(pts)
	sigs := int64(-1)
	deg := map[int]bool{}
	var ds []string
	for _, k := range keys {
		for _, p := range m[k] {
			if sigs < 0 || p.Signatures < sigs {
				sigs = p.Signatures
			}
		}
		if !deg[k.Params] {
			deg[k.Params] = true
			ds = append(ds, fmt.Sprintf("Falcon-%d", k.Params))
		}
	}
	return fmt.Sprintf("%s\n%s, %s signatures per format, %d formats", what, strings.Join(ds, ", "), results.Thousands(sigs), len(pts))
}

// curvesOrErr returns the sweep's curves or ErrNoData.
func curvesOrErr(kind string, pts []results.Point) ([]results.Curve, map[results.Curve][]results.Point, error) {
	keys, m := results.Curves(pts)
	if len(keys) == 0 {
		return nil, nil, fmt.Errorf("%s: %w: no swept formats (vprec:P...) in the sweep documents", kind, results.ErrNoData)
	}
	return keys, m, nil
}

// series returns the (bits, f(point)) pairs of a curve where f is finite.
func series(v []results.Point, f func(*results.Point) float64) plotter.XYs {
	var xy plotter.XYs
	for i := range v {
		if y := f(&v[i]); !math.IsNaN(y) && !math.IsInf(y, 0) {
			xy = append(xy, plotter.XY{X: float64(v[i].Bits), Y: y})
		}
	}
	return xy
}

// addCurve draws one quantity of one curve, if it has data.
func addCurve(p *gplot.Plot, v []results.Point, i int, dashed, hollow bool, label string, f func(*results.Point) float64) error {
	xy := series(v, f)
	if len(xy) == 0 {
		return nil
	}
	l, s, err := linePoints(xy, i, dashed, hollow)
	if err != nil {
		return err
	}
	p.Add(l, s)
	p.Legend.Add(label, l, s)
	return nil
}

// addReferences draws the fixed backends as large labelled markers, one
// shape per backend, for each quantity.
func addReferences(p *gplot.Plot, refs []Reference, qs []func(*results.Compare) float64) error {
	for j, r := range refs {
		var xy plotter.XYs
		for _, q := range qs {
			if y := q(&r.Compare); !math.IsNaN(y) && !math.IsInf(y, 0) {
				xy = append(xy, plotter.XY{X: float64(r.Bits), Y: y})
			}
		}
		if len(xy) == 0 {
			continue
		}
		s, err := markers(xy, 7, shape(j+1), vg.Points(4.5))
		if err != nil {
			return err
		}
		p.Add(s)
		p.Legend.Add(fmt.Sprintf("%s (Falcon-%d, %d bits)", r.Backend, r.Params, r.Bits), s)
	}
	return nil
}

// Precision draws the per-signature worst and the per-call median of
// delta_c + delta_sigma against the significand precision, one colour per
// curve (degree, rounding, exponent width), the fixed backends as marked
// points, the 2^-46 line, and P* (worst case) of each curve.
func Precision(pts []results.Point, refs []Reference) (*Figure, error) {
	keys, m, err := curvesOrErr("precision", pts)
	if err != nil {
		return nil, err
	}
	p := newPlot(sweepTitle("Error δc+δσ against significand precision: per-signature worst (solid), per-call median (dashed)", pts),
		"significand precision P (bits)", "log2(δc + δσ)")
	worst := func(q *results.Point) float64 { return float64(q.PerSignature.Sum.Max) }
	median := func(q *results.Point) float64 { return float64(q.PerLeaf.Sum.Median) }
	for i, k := range keys {
		if err := addCurve(p, m[k], i, false, false, k.String()+" worst", worst); err != nil {
			return nil, err
		}
		if err := addCurve(p, m[k], i, true, true, k.String()+" median", median); err != nil {
			return nil, err
		}
	}
	err = addReferences(p, refs, []func(*results.Compare) float64{
		func(c *results.Compare) float64 { return float64(c.PerSignature.Sum.Max) },
		func(c *results.Compare) float64 { return float64(c.PerLeaf.Sum.Median) },
	})
	if err != nil {
		return nil, err
	}
	p.Add(newRefLine(specBoundLog2, false, "2^-46 (specification bound)", colour(7)))
	addPStars(p, pts, results.Worst)
	pad(&p.X, 2, 2)
	// The curves fall from top left to bottom right: the legend goes top
	// right, above room made for it, and the 2^-46 line keeps a margin.
	p.Y.Min = min(p.Y.Min, specBoundLog2-3)
	headroom(&p.Y, 0.4)
	p.Legend.Top, p.Legend.Left = true, false
	precisionAxes(p)
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne}, nil
}

// addPStars marks P* of each curve for one criterion as a vertical line.
func addPStars(p *gplot.Plot, pts []results.Point, c results.Criterion) {
	keys, _ := results.Curves(pts)
	colourOf := map[results.Curve]int{}
	for i, k := range keys {
		colourOf[k] = i
	}
	var stars []results.PStar
	for _, s := range results.PStars(pts) {
		if s.Criterion == c && s.Found {
			stars = append(stars, s)
		}
	}
	sort.SliceStable(stars, func(i, j int) bool { return stars[i].Bits < stars[j].Bits })
	// One line per precision, naming every curve whose P* it is.
	for i := 0; i < len(stars); {
		j := i
		var names []string
		for ; j < len(stars) && stars[j].Bits == stars[i].Bits; j++ {
			names = append(names, stars[j].Curve.String())
		}
		// The answer goes to the legend: a label along the line would
		// cross the curves, which end near it.
		l := newRefLine(float64(stars[i].Bits), true, "", colour(colourOf[stars[i].Curve]))
		l.Style.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("P* (%s) = %s: %s", c, stars[i].String(), strings.Join(names, ", ")), l)
		i = j
	}
}

// Security draws, against precision, the security bits lost at 2^64
// signing queries (top) and log2 of the largest number of queries that
// keeps 256-bit security (bottom), from the Renyi figures of each format.
func Security(pts []results.Point, refs []Reference) (*Figure, error) {
	keys, m, err := curvesOrErr("security", pts)
	if err != nil {
		return nil, err
	}
	top := newPlot(sweepTitle("Security cost of the measured worst error (Rényi divergence, λ = 256)", pts),
		"significand precision P (bits)", "security bits lost at 2^64 queries")
	bot := newPlot("", "significand precision P (bits)", "log2(max signing queries)")
	lost := func(q *results.Point) float64 {
		return renyiOf(&q.Compare, func(r *results.Renyi) results.Log2 { return r.BitsLostAt264 })
	}
	queries := func(q *results.Point) float64 {
		return renyiOf(&q.Compare, func(r *results.Renyi) results.Log2 { return r.MaxQueriesLog2 })
	}
	for i, k := range keys {
		if err := addCurve(top, m[k], i, false, false, k.String(), lost); err != nil {
			return nil, err
		}
		if err := addCurve(bot, m[k], i, false, false, k.String(), queries); err != nil {
			return nil, err
		}
	}
	if err := addReferences(top, refs, []func(*results.Compare) float64{func(c *results.Compare) float64 {
		return renyiOf(c, func(r *results.Renyi) results.Log2 { return r.BitsLostAt264 })
	}}); err != nil {
		return nil, err
	}
	if err := addReferences(bot, refs, []func(*results.Compare) float64{func(c *results.Compare) float64 {
		return renyiOf(c, func(r *results.Renyi) results.Log2 { return r.MaxQueriesLog2 })
	}}); err != nil {
		return nil, err
	}
	bot.Add(newRefLine(64, false, "2^64 queries (NIST's signing-query budget)", colour(7)))
	top.Legend.Top, top.Legend.Left = false, true
	bot.Legend.Top, bot.Legend.Left = false, false
	pad(&top.X, 2, 2)
	pad(&bot.X, 2, 2)
	headroom(&top.Y, 0.05)
	precisionAxes(top, bot)
	return &Figure{panels: []*gplot.Plot{top, bot}, w: width, h: heightTwo}, nil
}

func renyiOf(c *results.Compare, f func(*results.Renyi) results.Log2) float64 {
	if c.Renyi == nil {
		return math.NaN()
	}
	return float64(f(c.Renyi))
}

// KAT draws, against precision, the fraction of NIST KAT records that a
// format reproduces in pk, sk and sm (top) and the fraction of signing
// attempts that failed (bottom). Compare documents carry neither, so the
// fixed backends drawn are the sweep's own reference entries.
func KAT(pts []results.Point) (*Figure, error) {
	keys, m, err := curvesOrErr("kat", pts)
	if err != nil {
		return nil, err
	}
	records := 0
	for _, q := range pts {
		if q.KAT != nil {
			records = max(records, q.KAT.Records)
		}
	}
	plural := "s"
	if records == 1 {
		plural = ""
	}
	top := newPlot(sweepTitle(fmt.Sprintf("NIST KAT conformance (%d record%s per format) and failed signing attempts", records, plural), pts),
		"significand precision P (bits)", "KAT records reproduced (%)")
	bot := newPlot("", "significand precision P (bits)", "failed signing attempts (%)")
	pass := func(q *results.Point) float64 {
		if q.KAT == nil {
			return math.NaN()
		}
		return 100 * q.KAT.PassRate()
	}
	failed := func(q *results.Point) float64 {
		if q.Attempts == nil {
			return math.NaN()
		}
		return 100 * q.Attempts.FailedRate()
	}
	for i, k := range keys {
		if err := addCurve(top, m[k], i, false, false, k.String(), pass); err != nil {
			return nil, err
		}
		if err := addCurve(bot, m[k], i, false, false, k.String(), failed); err != nil {
			return nil, err
		}
	}
	// Reference points of a sweep carry kat and attempts too.
	var refPts []results.Point
	for _, q := range pts {
		if !q.IsSwept() {
			refPts = append(refPts, q)
		}
	}
	for j, q := range refPts {
		for _, pan := range []struct {
			p *gplot.Plot
			f func(*results.Point) float64
		}{{top, pass}, {bot, failed}} {
			if y := pan.f(&q); !math.IsNaN(y) {
				s, err := markers(plotter.XYs{{X: float64(q.Bits), Y: y}}, 7, shape(j+1), vg.Points(4.5))
				if err != nil {
					return nil, err
				}
				pan.p.Add(s)
				pan.p.Legend.Add(fmt.Sprintf("%s (Falcon-%d, %d bits)", q.Format, q.Params, q.Bits), s)
			}
		}
	}
	top.Y.Min, top.Y.Max = -5, 105
	top.Legend.Left = true
	bot.Y.Min = 0
	bot.Y.Max = max(bot.Y.Max, 1) // a percent axis even when nothing failed
	headroom(&bot.Y, 0.05)
	pad(&top.X, 2, 2)
	pad(&bot.X, 2, 2)
	precisionAxes(top, bot)
	return &Figure{panels: []*gplot.Plot{top, bot}, w: width, h: heightTwo}, nil
}
