package plot

import (
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

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
	swept, refs := 0, 0
	for _, p := range pts {
		if p.IsSwept() {
			swept++
		} else {
			refs++
		}
	}
	s := fmt.Sprintf("%s\n%s, %s signatures per format, %d formats swept", what, strings.Join(ds, ", "), results.Thousands(sigs), swept)
	switch {
	case refs == 1:
		s += " (+ 1 fixed backend)"
	case refs > 1:
		s += fmt.Sprintf(" (+ %d fixed backends)", refs)
	}
	return s
}

// curvesOrErr returns the sweep's curves or ErrNoData.
func curvesOrErr(kind string, pts []results.Point) ([]results.Curve, map[results.Curve][]results.Point, error) {
	keys, m := results.Curves(pts)
	if len(keys) == 0 {
		return nil, nil, fmt.Errorf("%s: %w: no swept formats (vprec:P...) in the sweep or compare documents", kind, results.ErrNoData)
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

// addCurve draws one quantity of one curve, if it has data, with a legend
// entry unless label is empty.
func addCurve(p *gplot.Plot, log drawnLog, key string, v []results.Point, i int, dashed, hollow bool, label string, f func(*results.Point) float64) error {
	xy := series(v, f)
	log.add(key, xy)
	if len(xy) == 0 {
		return nil
	}
	l, s, err := linePoints(xy, i, dashed, hollow)
	if err != nil {
		return err
	}
	p.Add(l, s)
	if label != "" {
		p.Legend.Add(label, l, s)
	}
	return nil
}

// refQuantity is one quantity drawn for the fixed backends: filled (a
// worst case) or hollow (a median or an average).
type refQuantity struct {
	name   string // legend: "worst", "median"; "-": no legend entry
	filled bool
	f      func(*results.Compare) float64
	key    string // of the series in Figure.drawn
}

// addReferences draws the fixed backends as large black markers, one
// shape per backend, filled for worst-case quantities and hollow for the
// others, with one legend entry per backend and quantity.
func addReferences(p *gplot.Plot, log drawnLog, key string, refs []Reference, qs []refQuantity) error {
	for j, r := range refs {
		for _, q := range qs {
			y := q.f(&r.Compare)
			if math.IsNaN(y) || math.IsInf(y, 0) {
				continue
			}
			g := filledShape(j + 1)
			if !q.filled {
				g = hollowShape(j + 1)
			}
			s, err := plotter.NewScatter(plotter.XYs{{X: float64(r.Bits), Y: y}})
			if err != nil {
				return err
			}
			s.Color, s.Shape, s.Radius = refBlack, g, vg.Points(4.5)
			p.Add(s)
			log.add(fmt.Sprintf("%s %s %d %s", key, r.Backend, r.Params, q.key), plotter.XYs{{X: float64(r.Bits), Y: y}})
			label := fmt.Sprintf("%s (Falcon-%d, %d bits)", r.Backend, r.Params, r.Bits)
			switch q.name {
			case "-":
				continue
			case "":
			default:
				label += " " + q.name
			}
			p.Legend.Add(label, s)
		}
	}
	return nil
}

// addSpread draws, for each point of a curve, a thin vertical bar from
// the median to the maximum of the per-signature worst errors: how far the
// worst signature of the sample stands from the bulk, and so how much the
// worst case, a sample maximum, may move with another sample.
func addSpread(p *gplot.Plot, v []results.Point, i int) error {
	for _, q := range v {
		lo, hi := q.PerSignature.Sum.Median, q.PerSignature.Sum.Max
		if !lo.Finite() || !hi.Finite() || hi <= lo {
			continue
		}
		l, err := line(plotter.XYs{{X: float64(q.Bits), Y: float64(lo)}, {X: float64(q.Bits), Y: float64(hi)}}, i, false)
		if err != nil {
			return err
		}
		l.Width = vg.Points(4)
		r, g, b, _ := colour(i).RGBA()
		l.Color = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 80}
		p.Add(l)
	}
	return nil
}

// Precision draws the per-signature worst and the per-call median of
// delta_c + delta_sigma against the significand precision, one colour per
// curve (degree, rounding, exponent width), a bar from the per-signature
// median to the worst (sample noise), the fixed backends as marked points,
// the 2^-46 line, and P* of each curve for the worst and the median.
func Precision(pts []results.Point, refs []Reference) (*Figure, error) {
	keys, m, err := curvesOrErr("precision", pts)
	if err != nil {
		return nil, err
	}
	p := newPlot(sweepTitle("Error δc+δσ against significand precision: per-signature worst (solid, filled), per-call median (dashed, hollow);\nbars: median to worst of the per-signature errors (the spread behind the worst, a sample maximum)", pts),
		"significand precision P (bits)", "log2(δc + δσ)")
	worst := func(q *results.Point) float64 { return float64(q.PerSignature.Sum.Max) }
	median := func(q *results.Point) float64 { return float64(q.PerLeaf.Sum.Median) }
	log := drawnLog{}
	for i, k := range keys {
		if err := addSpread(p, m[k], i); err != nil {
			return nil, err
		}
		if err := addCurve(p, log, k.String()+" worst", m[k], i, false, false, k.String()+" worst", worst); err != nil {
			return nil, err
		}
		if err := addCurve(p, log, k.String()+" median", m[k], i, true, true, k.String()+" median", median); err != nil {
			return nil, err
		}
	}
	err = addReferences(p, log, "ref", refs, []refQuantity{
		{"worst", true, func(c *results.Compare) float64 { return float64(c.PerSignature.Sum.Max) }, "worst"},
		{"median", false, func(c *results.Compare) float64 { return float64(c.PerLeaf.Sum.Median) }, "median"},
	})
	if err != nil {
		return nil, err
	}
	addRef(p, specBoundLog2, false, specBoundLegend, refBlack)
	addPStars(p, pts, results.Worst)
	addPStars(p, pts, results.Median)
	pad(&p.X, 2, 2)
	// The curves fall from top left to bottom right: the legend goes top
	// right, above room made for it, and the 2^-46 line keeps a margin.
	p.Y.Min = min(p.Y.Min, specBoundLog2-3)
	headroom(&p.Y, 0.6)
	p.Legend.Top, p.Legend.Left = true, false
	precisionAxes(p)
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne * 1.3, drawn: log}, nil
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
		if c != results.Worst {
			l.Style.Dashes = []vg.Length{vg.Points(6), vg.Points(2), vg.Points(1), vg.Points(2)}
			l.Style.Width = vg.Points(0.8)
		}
		p.Add(l)
		p.Legend.Add(fmt.Sprintf("P* (%s) = %s: %s", c, stars[i].String(), strings.Join(names, ", ")), l)
		i = j
	}
}

// defaultLambda is the security level of the specification's Renyi
// argument (the one that gives the 2^-46 bound), for documents that
// predate the "lambda" field.
const defaultLambda = 256

// lambdaOf is the security level the documents' Renyi figures keep.
func lambdaOf(pts []results.Point, refs []Reference) int {
	for _, p := range pts {
		if p.Renyi != nil && p.Renyi.Lambda > 0 {
			return p.Renyi.Lambda
		}
	}
	for _, r := range refs {
		if r.Renyi != nil && r.Renyi.Lambda > 0 {
			return r.Renyi.Lambda
		}
	}
	return defaultLambda
}

// hasAverage reports whether some document carries the average case.
func hasAverage(pts []results.Point, refs []Reference) bool {
	for _, p := range pts {
		if p.Renyi != nil && p.Renyi.BitsLostAt264Average.Finite() {
			return true
		}
	}
	for _, r := range refs {
		if r.Renyi != nil && r.Renyi.BitsLostAt264Average.Finite() {
			return true
		}
	}
	return false
}

// Security draws, against precision, the security bits lost at 2^64
// signing queries (top) and log2 of the largest number of queries that
// keeps lambda-bit security (bottom), each in the worst case (the bound
// with 2n) and on average (with sqrt(2n)), from the Renyi figures of each
// format. Bits lost saturate at lambda: all of the security is lost.
func Security(pts []results.Point, refs []Reference) (*Figure, error) {
	keys, m, err := curvesOrErr("security", pts)
	if err != nil {
		return nil, err
	}
	lambda := lambdaOf(pts, refs)
	cases := "worst case: solid, filled; average case: dashed, hollow"
	if !hasAverage(pts, refs) {
		cases = "worst case; the documents predate the average case"
	}
	top := newPlot(sweepTitle(fmt.Sprintf("Security cost of the measured error (Rényi divergence; %s)\n"+
		"λ = %d bits: the level of the specification's argument (the one that gives 2^-46), for Falcon-512 too; %d lost = all", cases, lambda, lambda), pts),
		"significand precision P (bits)", fmt.Sprintf("security bits lost at 2^64 queries (of λ = %d)", lambda))
	bot := newPlot("", "significand precision P (bits)", "log2(max signing queries)")
	renyi := func(f func(*results.Renyi) results.Log2) func(*results.Point) float64 {
		return func(q *results.Point) float64 { return renyiOf(&q.Compare, f) }
	}
	lostW := func(r *results.Renyi) results.Log2 { return r.BitsLostAt264 }
	lostA := func(r *results.Renyi) results.Log2 { return r.BitsLostAt264Average }
	qW := func(r *results.Renyi) results.Log2 { return r.MaxQueriesLog2 }
	qA := func(r *results.Renyi) results.Log2 { return r.MaxQueriesLog2Average }
	log := drawnLog{}
	for i, k := range keys {
		for _, c := range []struct {
			p      *gplot.Plot
			f      func(*results.Renyi) results.Log2
			avg    bool
			suffix string
			key    string
		}{{top, lostW, false, k.String(), "lost worst"}, {top, lostA, true, "", "lost average"}, {bot, qW, false, "", "queries worst"}, {bot, qA, true, "", "queries average"}} {
			if err := addCurve(c.p, log, k.String()+" "+c.key, m[k], i, c.avg, c.avg, c.suffix, renyi(c.f)); err != nil {
				return nil, err
			}
		}
	}
	refOf := func(f func(*results.Renyi) results.Log2) func(*results.Compare) float64 {
		return func(c *results.Compare) float64 { return renyiOf(c, f) }
	}
	// One legend entry per curve and backend (the title says which
	// line style and fill is which case), in the top panel, in room made
	// right of the data; the bottom panel's x axis matches.
	if err := addReferences(top, log, "ref", refs, []refQuantity{{"", true, refOf(lostW), "lost worst"}, {"-", false, refOf(lostA), "lost average"}}); err != nil {
		return nil, err
	}
	if err := addReferences(bot, log, "ref", refs, []refQuantity{{"-", true, refOf(qW), "queries worst"}, {"-", false, refOf(qA), "queries average"}}); err != nil {
		return nil, err
	}
	addRef(top, float64(lambda), false, fmt.Sprintf("%d = all %d bits lost: no security left", lambda, lambda), refGrey)
	addRef(bot, 64, false, "2^64 queries (NIST's signing-query budget)", refBlack)
	top.Legend.Top, top.Legend.Left = false, false
	bot.Legend.Top, bot.Legend.Left = true, true
	pad(&top.X, 2, 2)
	top.X.Max += (top.X.Max - top.X.Min) * 0.6
	pad(&bot.X, 2, 2)
	bot.X.Min, bot.X.Max = top.X.Min, top.X.Max
	top.Y.Min = min(top.Y.Min, 0)
	top.Y.Max = max(top.Y.Max, float64(lambda))
	headroom(&top.Y, 0.05)
	top.Y.Tick.Marker = stepTicks(float64(lambda) / 8)
	bot.Y.Tick.Marker = stepTicks(8)
	precisionAxes(top, bot)
	return &Figure{panels: []*gplot.Plot{top, bot}, w: width, h: heightTwo * 1.2, drawn: log}, nil
}

func renyiOf(c *results.Compare, f func(*results.Renyi) results.Log2) float64 {
	if c.Renyi == nil {
		return math.NaN()
	}
	return float64(f(c.Renyi))
}

// KAT draws, against precision, the fraction of NIST KAT records that a
// format reproduces in pk, sk and sm and, apart, the fraction whose key
// generation failed (a record can fail by a key generation that fails, or
// by a mismatch), and below it the fraction of signing attempts that
// failed -- a panel left out, and said so in the title, when no attempt
// failed. With one KAT record, a format reproduces it or not: points
// only, no line from 0 to 100 %. Compare documents carry neither, so the
// fixed backends drawn are the sweep's own reference entries.
func KAT(pts []results.Point) (*Figure, error) {
	keys, m, err := curvesOrErr("kat", pts)
	if err != nil {
		return nil, err
	}
	records := 0
	anyFailed := false
	for _, q := range pts {
		if q.KAT != nil {
			records = max(records, q.KAT.Records)
		}
		if q.Attempts != nil && q.Attempts.Failed > 0 {
			anyFailed = true
		}
	}
	plural := "s"
	if records == 1 {
		plural = ""
	}
	what := fmt.Sprintf("NIST KAT conformance (%d record%s per format) and failed signing attempts", records, plural)
	if !anyFailed {
		what = fmt.Sprintf("NIST KAT conformance (%d record%s per format); no signing attempt failed", records, plural)
	}
	top := newPlot(sweepTitle(what, pts), "significand precision P (bits)", "KAT records (%)")
	bot := newPlot("", "significand precision P (bits)", "failed signing attempts (%)")
	pass := func(q *results.Point) float64 {
		if q.KAT == nil {
			return math.NaN()
		}
		return 100 * q.KAT.PassRate()
	}
	keygen := func(q *results.Point) float64 {
		if q.KAT == nil || q.KAT.Records == 0 {
			return math.NaN()
		}
		return 100 * float64(q.KAT.KeygenFailed) / float64(q.KAT.Records)
	}
	failed := func(q *results.Point) float64 {
		if q.Attempts == nil {
			return math.NaN()
		}
		return 100 * q.Attempts.FailedRate()
	}
	pointsOnly := records < 2
	topEntries := 0
	count := func(p *gplot.Plot) {
		if p == top {
			topEntries++
		}
	}
	log := drawnLog{}
	addKAT := func(p *gplot.Plot, v []results.Point, i int, label string, f func(*results.Point) float64, g draw.GlyphDrawer, dashed bool) error {
		xy := series(v, f)
		log.add(label, xy)
		if len(xy) == 0 {
			return nil
		}
		s, err := markers(xy, i, g, vg.Points(3))
		if err != nil {
			return err
		}
		if pointsOnly {
			p.Add(s)
			p.Legend.Add(label, s)
			count(p)
			return nil
		}
		l, err := line(xy, i, dashed)
		if err != nil {
			return err
		}
		p.Add(l, s)
		p.Legend.Add(label, l, s)
		count(p)
		return nil
	}
	for i, k := range keys {
		if err := addKAT(top, m[k], i, k.String()+" reproduced (pk, sk, sm)", pass, draw.CircleGlyph{}, false); err != nil {
			return nil, err
		}
		if anyPositive(m[k], keygen) {
			if err := addKAT(top, m[k], i, k.String()+" key generation failed", keygen, draw.CrossGlyph{}, true); err != nil {
				return nil, err
			}
		}
		if err := addKAT(bot, m[k], i, k.String()+" failed attempts", failed, draw.CircleGlyph{}, false); err != nil {
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
			p     *gplot.Plot
			f     func(*results.Point) float64
			g     draw.GlyphDrawer
			label string
		}{{top, pass, filledShape(j + 1), " reproduced"}, {top, keygen, draw.CrossGlyph{}, " key generation failed"}, {bot, failed, filledShape(j + 1), ""}} {
			y := pan.f(&q)
			if math.IsNaN(y) || (pan.label == " key generation failed" && y == 0) {
				continue
			}
			s, err := plotter.NewScatter(plotter.XYs{{X: float64(q.Bits), Y: y}})
			if err != nil {
				return nil, err
			}
			s.Color, s.Shape, s.Radius = refBlack, pan.g, vg.Points(4.5)
			pan.p.Add(s)
			log.add(fmt.Sprintf("ref %s %d%s", q.Format, q.Params, pan.label), plotter.XYs{{X: float64(q.Bits), Y: y}})
			pan.p.Legend.Add(fmt.Sprintf("%s (Falcon-%d, %d bits)%s", q.Format, q.Params, q.Bits, pan.label), s)
			count(pan.p)
		}
	}
	// The pass rate rises from bottom left to top right: the legend goes
	// below the curves on the right, off the data, in room made under 0.
	top.Y.Max = 105
	top.Y.Min = -5 - 110*legendFrac(topEntries, heightOne)
	top.Y.Tick.Marker = percentTicks
	top.Legend.Top, top.Legend.Left = false, false
	pad(&top.X, 2, 2)
	precisionAxes(top)
	panels := []*gplot.Plot{top}
	h := heightOne * 1.2
	if anyFailed {
		bot.Y.Min = 0
		bot.Y.Max = max(bot.Y.Max, 1)
		headroom(&bot.Y, 0.05)
		bot.Legend.Top, bot.Legend.Left = true, false
		pad(&bot.X, 2, 2)
		precisionAxes(bot)
		panels = append(panels, bot)
		h = heightTwo * 1.2
	}
	return &Figure{panels: panels, w: width, h: h, drawn: log}, nil
}

// percentTicks label a percent axis at 0, 25, ..., 100 only (the room
// made below 0 for the legend has no ticks).
var percentTicks = gplot.TickerFunc(func(min, max float64) []gplot.Tick {
	var ts []gplot.Tick
	for v := 0.0; v <= 100; v += 25 {
		if v >= min && v <= max {
			ts = append(ts, gplot.Tick{Value: v, Label: strconv.Itoa(int(v))})
		}
	}
	return ts
})

// legendFrac is the fraction of a panel's height a legend of n entries takes.
func legendFrac(n int, height vg.Length) float64 {
	plotH := height - vg.Points(70)
	if plotH <= 0 {
		return 0
	}
	return min(0.7, float64(vg.Length(n)*legendLineHeight+vg.Points(6))/float64(plotH))
}

// stepTicks labels an axis at every multiple of step.
func stepTicks(step float64) gplot.Ticker {
	return gplot.TickerFunc(func(min, max float64) []gplot.Tick {
		if !boundedSpan(min, max) || !(step > 0) || (max-min)/step > 100 {
			return intTicks.Ticks(min, max)
		}
		var ts []gplot.Tick
		for v := math.Ceil(min/step) * step; v <= max; v += step {
			ts = append(ts, gplot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 6, 64)})
		}
		return ts
	})
}

// anyPositive reports whether f is positive at some point of v.
func anyPositive(v []results.Point, f func(*results.Point) float64) bool {
	for i := range v {
		if f(&v[i]) > 0 {
			return true
		}
	}
	return false
}
