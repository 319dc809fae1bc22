package analysis

import (
	"fmt"
	"math"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// ExpmCurve is the error of one backend's expm_p63 across its domain
// (results.ExpmCurve, the document a figure draws).
type ExpmCurve = results.ExpmCurve

// DefaultExpmCCS are the ccs values of MeasureExpmCurve when none are
// given: 8 points evenly spread over [0.70, 0.99], the range of
// sigma_min/sigma that Falcon's leaves produce (sigma between sigma_min
// and sigma_max = 1.8205, so ccs >= 1.2778/1.8205 = 0.70).
var DefaultExpmCCS = []float64{0.70, 0.7414, 0.7829, 0.8243, 0.8657, 0.9071, 0.9486, 0.99}

// MaxExpmPoints bounds the grid of MeasureExpmCurve.
const MaxExpmPoints = 100_000

// MeasureExpmCurve measures backend b's ExpmP63 at points grid points of
// [0, ln 2) and each ccs (DefaultExpmCCS when ccs is empty) against the
// oracle's exact value.
func MeasureExpmCurve(b arith.Backend, points int, ccs []float64) (ExpmCurve, error) {
	if points < 1 || points > MaxExpmPoints {
		return ExpmCurve{}, fmt.Errorf("expm grid of %d points: need 1..%d", points, MaxExpmPoints)
	}
	if len(ccs) == 0 {
		ccs = DefaultExpmCCS
	}
	for _, c := range ccs {
		if !(c >= 0 && c < 1) {
			return ExpmCurve{}, fmt.Errorf("ccs %v: need 0 <= ccs < 1", c)
		}
	}
	ref, err := oracle.New(oracle.DefaultPrec)
	if err != nil {
		return ExpmCurve{}, err
	}
	cv := ExpmCurve{Backend: b.Name, X: make([]float64, points), ErrLog2: make([]float64, points), CCS: ccs}
	m, err := measurersOf(b)
	if err != nil {
		return ExpmCurve{}, err
	}
	for k := range cv.X {
		x := (float64(k) + 0.5) * math.Ln2 / float64(points)
		w := math.Inf(-1)
		for _, c := range ccs {
			w = max(w, m.expm(ref, x, c))
		}
		cv.X[k], cv.ErrLog2[k] = x, w
	}
	return cv, nil
}

// MeasureExpmCurves measures the expm_p63 curves of the named backends at
// points grid points each (MeasureExpmCurve with the default ccs values).
func MeasureExpmCurves(names []string, points int) ([]ExpmCurve, error) {
	var out []ExpmCurve
	for _, n := range names {
		b, err := arith.Lookup(n)
		if err != nil {
			return nil, err
		}
		cv, err := MeasureExpmCurve(b, points, nil)
		if err != nil {
			return nil, err
		}
		out = append(out, cv)
	}
	return out, nil
}
