package plot

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Figure sizes.
var (
	width      = 8 * vg.Inch
	heightOne  = 5 * vg.Inch
	heightTwo  = 7.5 * vg.Inch
	titleSize  = vg.Points(11)
	labelSize  = vg.Points(10)
	legendSize = vg.Points(9)
)

// palette is a fixed list of distinguishable colours (Okabe and Ito's
// colour-blind-safe set, then greys).
var palette = []color.Color{
	color.RGBA{0, 114, 178, 255},   // blue
	color.RGBA{213, 94, 0, 255},    // vermillion
	color.RGBA{0, 158, 115, 255},   // bluish green
	color.RGBA{204, 121, 167, 255}, // reddish purple
	color.RGBA{230, 159, 0, 255},   // orange
	color.RGBA{86, 180, 233, 255},  // sky blue
	color.RGBA{120, 120, 120, 255}, // grey
	color.RGBA{0, 0, 0, 255},       // black
}

// seriesColours is how many colours of palette data series cycle over:
// the greys after them are kept for reference lines, so that no series
// is drawn in a reference line's colour.
const seriesColours = 6

// colour is the colour of data series i.
func colour(i int) color.Color { return palette[i%seriesColours] }

// Reference-line colours.
var (
	refBlack = palette[7]
	refGrey  = palette[6]
)

var glyphShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{}, draw.RingGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}

func shape(i int) draw.GlyphDrawer { return glyphShapes[i%len(glyphShapes)] }

// Filled shapes and their hollow counterparts: filled marks a worst case
// (maximum), hollow a median, in every figure.
var (
	filledShapes = []draw.GlyphDrawer{draw.CircleGlyph{}, draw.BoxGlyph{}, draw.PyramidGlyph{}}
	hollowShapes = []draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}}
)

func filledShape(i int) draw.GlyphDrawer { return filledShapes[i%len(filledShapes)] }
func hollowShape(i int) draw.GlyphDrawer { return hollowShapes[i%len(hollowShapes)] }

// newPlot returns a panel with the figure conventions: title, axis labels,
// grid, legend at the given corner.
func newPlot(title, xLabel, yLabel string) *gplot.Plot {
	p := gplot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = titleSize
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.X.Label.TextStyle.Font.Size = labelSize
	p.Y.Label.TextStyle.Font.Size = labelSize
	p.Legend.TextStyle.Font.Size = legendSize
	p.Legend.Top = true
	p.Legend.Padding = vg.Points(2)
	p.Add(plotter.NewGrid())
	p.X.Tick.Marker = intTicks
	p.Y.Tick.Marker = intTicks
	return p
}

// refLine is a vertical (x = At) or horizontal (y = At) reference line
// across the panel with a short label at its end. It widens the axis
// range to include At and nothing else.
type refLine struct {
	At       float64
	Vertical bool
	Label    string
	Style    draw.LineStyle
	// Upto, when not NaN, ends a vertical line at y = Upto instead of the
	// top of the panel, below a legend placed above the data.
	Upto float64
}

func newRefLine(at float64, vertical bool, label string, c color.Color) *refLine {
	return &refLine{At: at, Vertical: vertical, Label: label, Upto: math.NaN(), Style: draw.LineStyle{Color: c, Width: vg.Points(1.2), Dashes: []vg.Length{vg.Points(5), vg.Points(3)}}}
}

// Plot draws the line and its label.
func (l *refLine) Plot(c draw.Canvas, p *gplot.Plot) {
	trX, trY := p.Transforms(&c)
	sty := draw.TextStyle{Color: l.Style.Color, Font: p.Legend.TextStyle.Font, Handler: p.Legend.TextStyle.Handler}
	if l.Vertical {
		x := trX(l.At)
		top := c.Max.Y
		if !math.IsNaN(l.Upto) {
			top = min(top, trY(l.Upto))
		}
		c.StrokeLine2(l.Style, x, c.Min.Y, x, top)
		sty.Rotation = math.Pi / 2
		sty.XAlign, sty.YAlign = draw.XRight, draw.YTop
		if l.Label != "" {
			c.FillText(sty, vg.Point{X: x - vg.Points(2), Y: c.Max.Y - vg.Points(3)}, l.Label)
		}
		return
	}
	y := trY(l.At)
	c.StrokeLine2(l.Style, c.Min.X, y, c.Max.X, y)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YBottom
	c.FillText(sty, vg.Point{X: c.Min.X + vg.Points(3), Y: y + vg.Points(1)}, l.Label)
}

// DataRange includes At on its axis only.
func (l *refLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	if l.Vertical {
		return l.At, l.At, math.Inf(1), math.Inf(-1)
	}
	return math.Inf(1), math.Inf(-1), l.At, l.At
}

// Thumbnail draws the legend entry.
func (l *refLine) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	c.StrokeLine2(l.Style, c.Min.X, y, c.Max.X, y)
}

// addRef adds a reference line without text on the panel and names it in
// the legend: a label along the line would cross the data near it.
func addRef(p *gplot.Plot, at float64, vertical bool, legend string, c color.Color) *refLine {
	l := newRefLine(at, vertical, "", c)
	p.Add(l)
	p.Legend.Add(legend, l)
	return l
}

// legendLineHeight is the height one legend entry takes.
var legendLineHeight = legendSize * 1.3

// legendRoom raises the top of the panel's y axis, after its data are
// added, so that a legend of entries lines at the top fits above the data
// of a panel of the given height (axes and title take about 70 points).
func legendRoom(p *gplot.Plot, entries int, height vg.Length) {
	plotH := height - vg.Points(70)
	if plotH <= 0 || entries == 0 {
		return
	}
	frac := float64(vg.Length(entries)*legendLineHeight+vg.Points(6)) / float64(plotH)
	frac = min(frac, 0.75)
	p.Y.Max += (p.Y.Max - p.Y.Min) * frac / (1 - frac)
}

// line returns a solid or dashed polyline in colour i.
func line(pts plotter.XYs, i int, dashed bool) (*plotter.Line, error) {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return nil, err
	}
	l.Color = colour(i)
	l.Width = vg.Points(1.5)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(4), vg.Points(2)}
	}
	return l, nil
}

// linePoints returns a polyline with markers in colour i.
func linePoints(pts plotter.XYs, i int, dashed, hollow bool) (*plotter.Line, *plotter.Scatter, error) {
	l, err := line(pts, i, dashed)
	if err != nil {
		return nil, nil, err
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, nil, err
	}
	s.Color = colour(i)
	s.Radius = vg.Points(2.5)
	s.Shape = draw.CircleGlyph{}
	if hollow {
		s.Shape = draw.RingGlyph{}
	}
	return l, s, nil
}

// markers returns scatter points of one shape and colour.
func markers(pts plotter.XYs, i int, g draw.GlyphDrawer, radius vg.Length) (*plotter.Scatter, error) {
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, err
	}
	s.Color = colour(i)
	s.Shape = g
	s.Radius = radius
	return s, nil
}

// intTicks label an axis of log2 values or bits at a round step (1, 2 or
// 5 times a power of ten, the smallest giving at most 10 labels), without
// trailing zeros ("-25", not "-25.00").
var intTicks = gplot.TickerFunc(func(min, max float64) []gplot.Tick {
	if !boundedSpan(min, max) || max <= min {
		return nil
	}
	step := math.Pow(10, math.Floor(math.Log10((max-min)/10)))
	for _, m := range []float64{1, 2, 5, 10} {
		if (max-min)/(step*m) <= 10 {
			step *= m
			break
		}
	}
	var ts []gplot.Tick
	for v := math.Ceil(min/step) * step; v <= max; v += step {
		ts = append(ts, gplot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', 10, 64)})
	}
	return ts
})

// pad widens the axis range by lo below and hi above, in data units, so
// that markers at the extremes are not cut and the legend has room.
func pad(a *gplot.Axis, lo, hi float64) {
	a.Min -= lo
	a.Max += hi
}

// headroom raises the top of a linear axis by frac of its range.
func headroom(a *gplot.Axis, frac float64) { a.Max += (a.Max - a.Min) * frac }

// decadeTicks label an axis of log10 values at each integer k as 10^k,
// for fractions: 1, 0.1, 0.01, ..., then 10^-4 and below.
var decadeTicks = gplot.TickerFunc(func(min, max float64) []gplot.Tick {
	if !boundedSpan(min, max) {
		return nil
	}
	var out []gplot.Tick
	for k := math.Ceil(min); k <= max; k++ {
		label := ""
		switch {
		case k > 0:
		case k >= -3:
			label = strconv.FormatFloat(math.Pow(10, k), 'f', int(-k), 64)
		default:
			label = fmt.Sprintf("1e%d", int(k))
		}
		if k <= 0 {
			out = append(out, gplot.Tick{Value: k, Label: label})
		}
	}
	return out
})

// bitsTicks label a precision axis at whole bits: a step of 1, 2, 4, 8,
// 16 or 32 bits, the smallest that gives at most 12 labels, with unlabelled
// ticks at every bit when the step is small.
var bitsTicks = gplot.TickerFunc(func(min, max float64) []gplot.Tick {
	if !boundedSpan(min, max) {
		return nil
	}
	step := 1.0
	for (max-min)/step > 12 {
		step *= 2
	}
	// Every bit when labels are close, else only the labelled ones: at
	// most about 50 ticks whatever the range.
	inc := 1.0
	if step > 4 {
		inc = step
	}
	var ts []gplot.Tick
	for v := math.Ceil(min/inc) * inc; v <= max; v += inc {
		t := gplot.Tick{Value: v}
		if math.Mod(v, step) == 0 {
			t.Label = strconv.Itoa(int(v))
		}
		ts = append(ts, t)
	}
	return ts
})

// maxAxisSpan bounds the range of an axis the tickers above lay out one
// unit at a time. The documents' values are bounded (results.MaxLog2,
// results.MaxBits), so only a figure built from values that bypassed the
// reader's checks comes near it; it is then drawn without ticks rather
// than laid out forever.
const maxAxisSpan = 1 << 20

// boundedSpan reports whether [min, max] is finite and at most
// maxAxisSpan wide.
func boundedSpan(min, max float64) bool {
	return !math.IsNaN(min) && !math.IsNaN(max) && !math.IsInf(min, 0) && !math.IsInf(max, 0) && max-min <= maxAxisSpan
}

// maxCategories bounds the rows (stages) or columns (operations) of a
// figure, whose size grows with them: a document naming more is refused
// rather than drawn on a canvas of gigabytes.
const maxCategories = 256

// checkCategories refuses more than maxCategories categories.
func checkCategories(what string, n int) error {
	if n > maxCategories {
		return fmt.Errorf("%d %s: more than %d, too many for one figure", n, what, maxCategories)
	}
	return nil
}
