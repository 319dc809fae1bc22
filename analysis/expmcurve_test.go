package analysis_test

import (
	"math"
	"testing"

	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/arith"
)

// TestExpmCurve: the oracle's expm_p63 is exact everywhere; native's and
// emu64's stay within the contract's 2^-45 and near the polynomial's
// 2^-51 (their documented accuracy); a 24-bit format's is about 2^-24;
// bad grids and ccs values are refused.
func TestExpmCurve(t *testing.T) {
	for name, want := range map[string][2]float64{"oracle": {math.Inf(-1), math.Inf(-1)}, "native": {-54, -50}, "emu64": {-54, -50}, "vprec:24:e11": {-26, -22}} {
		b, err := arith.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		cv, err := analysis.MeasureExpmCurve(b, 64, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(cv.X) != 64 || cv.X[0] <= 0 || cv.X[63] >= math.Ln2 {
			t.Fatalf("%s: grid %v", name, cv.X)
		}
		w := math.Inf(-1)
		for _, e := range cv.ErrLog2 {
			w = max(w, e)
		}
		if w < want[0] || w > want[1] {
			t.Errorf("%s: worst expm_p63 error 2^%.2f, want within 2^%v..2^%v", name, w, want[0], want[1])
		}
	}
	b, _ := arith.Lookup("native")
	if _, err := analysis.MeasureExpmCurve(b, 0, nil); err == nil {
		t.Error("empty grid accepted")
	}
	if _, err := analysis.MeasureExpmCurve(b, 4, []float64{1}); err == nil {
		t.Error("ccs = 1 accepted")
	}
}
