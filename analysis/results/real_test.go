package results

import (
	"math"
	"testing"
)

// TestReadRealCompare reads compare's own output: two backends, null
// log2 values as exact zeros, stages per tree level, attempts.
func TestReadRealCompare(t *testing.T) {
	c, err := Read("testdata/real/compare-512.json")
	if err != nil {
		t.Fatal(err)
	}
	cs := c.AllCompares()
	if len(cs) != 2 || cs[0].Backend != "native" || cs[1].Backend != "triword" {
		t.Fatalf("backends %+v", cs)
	}
	for _, x := range cs {
		if x.Signatures != 50 || x.Leaves != 25600 || x.Params != 512 || !x.PerSignature.Sum.Max.Finite() || len(x.PerLeaf.Sum.Histogram) == 0 {
			t.Errorf("%s: %+v", x.Backend, x)
		}
		if x.Attempts == nil || x.Attempts.Total < 50 {
			t.Errorf("%s: attempts %+v", x.Backend, x.Attempts)
		}
		if _, ok := x.FlipsTotal(); !ok {
			t.Errorf("%s: no flips total", x.Backend)
		}
		if x.Renyi == nil || !x.Renyi.MaxQueriesLog2.Finite() {
			t.Errorf("%s: renyi %+v", x.Backend, x.Renyi)
		}
	}
	lv := StageNames(cs)
	if !lv["ffldl"] || lv["gram"] {
		t.Errorf("stage levels: %v", lv)
	}
	// A null log2 (an exact stage) reads as -Inf, not as missing.
	exact := 0
	for _, s := range cs[0].Stages {
		if math.IsInf(float64(s.MaxRelLog2), -1) {
			exact++
		}
		if math.IsNaN(float64(s.MaxRelLog2)) {
			t.Errorf("stage %s level %v: NaN", s.Stage, s.Level)
		}
	}
	t.Logf("%d stages exact", exact)
}
