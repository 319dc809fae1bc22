package plot

import (
	"fmt"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/fprlab/fprlab/analysis/results"
)

// rateBars are the points of the diverge figure with their 95 % intervals
// (log10), for plotter.YErrorBars.
type rateBars struct {
	plotter.XYs
	lo, hi []float64 // distances below and above each point
}

func (r rateBars) YError(i int) (float64, float64) { return r.lo[i], r.hi[i] }

// floorRate is the bottom of the diverge figure's axis (log10): a pair of
// arithmetics that never differed is drawn as its interval's upper end
// above it.
const floorRate = -8

// Diverge draws, per diverge document, the rate at which two arithmetics
// sign the same inputs differently, with its 95 % interval, and the rate
// of key-revealing pairs (log10 of the rate; one column per document).
// A document with no differing pair is drawn as its interval alone: a bar
// from the axis floor up to the upper end.
func Diverge(ds []results.Diverge) (*Figure, error) {
	if len(ds) == 0 {
		return nil, fmt.Errorf("diverge: %w: no diverge documents", results.ErrNoData)
	}
	if err := checkCategories("diverge documents", len(ds)); err != nil {
		return nil, err
	}
	var names []string
	var diff, zero rateBars
	var keys plotter.XYs
	total := 0
	for i, d := range ds {
		names = append(names, fmt.Sprintf("%s vs %s\nn = %d, %s signed", d.Backend, d.Against, d.N, results.Thousands(int64(d.Compared))))
		total += d.Compared
		lo, hi := math.Log10(d.RateCI95[0]), math.Log10(d.RateCI95[1])
		hi = max(hi, floorRate)
		if d.Differing == 0 {
			zero.XYs = append(zero.XYs, plotter.XY{X: float64(i), Y: floorRate})
			zero.lo, zero.hi = append(zero.lo, 0), append(zero.hi, hi-floorRate)
			continue
		}
		y := math.Log10(d.Rate)
		lo = max(lo, floorRate)
		diff.XYs = append(diff.XYs, plotter.XY{X: float64(i), Y: y})
		diff.lo, diff.hi = append(diff.lo, y-lo), append(diff.hi, hi-y)
		if d.KeyRevealing > 0 {
			keys = append(keys, plotter.XY{X: float64(i), Y: math.Log10(float64(d.KeyRevealing) / float64(d.Compared))})
		}
	}
	p := newPlot(fmt.Sprintf("Signatures that differ when two arithmetics sign the same key, message and randomness\n%d campaigns, %s signatures in all; bars: 95 %% interval (%s)",
		len(ds), results.Thousands(int64(total)), ds[0].CIMethod),
		"", "rate per signature (log10)")
	p.Legend.Left = true
	log := drawnLog{}
	if len(diff.XYs) > 0 {
		s, err := markers(diff.XYs, 0, filledShape(0), vg.Points(3))
		if err != nil {
			return nil, err
		}
		bars, err := plotter.NewYErrorBars(diff)
		if err != nil {
			return nil, err
		}
		bars.Color = colour(0)
		p.Add(s, bars)
		p.Legend.Add("differing signatures", s)
		log.add("differing", diff.XYs)
	}
	if len(zero.XYs) > 0 {
		bars, err := plotter.NewYErrorBars(zero)
		if err != nil {
			return nil, err
		}
		bars.Color = colour(2)
		var tops plotter.XYs
		for i, xy := range zero.XYs {
			tops = append(tops, plotter.XY{X: xy.X, Y: xy.Y + zero.hi[i]})
		}
		s, err := markers(tops, 2, hollowShape(2), vg.Points(3))
		if err != nil {
			return nil, err
		}
		p.Add(bars, s)
		p.Legend.Add("none differing: the interval's upper end", s)
		log.add("none differing (upper end)", tops)
	}
	if len(keys) > 0 {
		s, err := markers(keys, 1, hollowShape(1), vg.Points(3.5))
		if err != nil {
			return nil, err
		}
		p.Add(s)
		p.Legend.Add("key-revealing pairs (s2 difference c x^k f or c x^k F)", s)
		log.add("key-revealing", keys)
	}
	nominalX(p, names)
	p.Y.Min, p.Y.Max = floorRate, 0
	p.Y.Tick.Marker = decadeTicks
	return &Figure{panels: []*gplot.Plot{p}, w: width, h: heightOne, drawn: log}, nil
}
