package results

import (
	"math"
	"strings"
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
	// The document predates the names revision: its "triword" is today's
	// triword-b64const, and Read says so.
	if len(cs) != 2 || cs[0].Backend != "native" || cs[1].Backend != "triword-b64const" {
		t.Fatalf("backends %+v", cs)
	}
	if len(c.Renamed) != 1 || c.Renamed[0] != (Renamed{File: "compare-512.json", Old: "triword", New: "triword-b64const"}) ||
		!strings.Contains(c.Renamed[0].String(), `now named "triword-b64const"`) {
		t.Errorf("renamed %+v", c.Renamed)
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

// TestReadRealOpErrors reads `arith errors --backend all --json`.
func TestReadRealOpErrors(t *testing.T) {
	c, err := Read("testdata/real/arith-errors.json")
	if err != nil {
		t.Fatal(err)
	}
	ops := c.AllOpErrors()
	if len(ops) != 72 {
		t.Fatalf("%d objects, want 72", len(ops))
	}
	for _, o := range ops {
		if o.Backend == "oracle" && !math.IsInf(float64(o.MaxRelErrLog2), -1) {
			t.Errorf("oracle %s: %v, want exact (null)", o.Op, o.MaxRelErrLog2)
		}
		if o.Backend == "native" && o.Op == "mul" && (float64(o.MaxRelErrLog2) > -52.9 || o.HasBound) {
			t.Errorf("native mul: %+v", o)
		}
		if o.Backend == "triword" && o.Op == "mul" && !o.HasBound {
			t.Errorf("triword mul has no bound")
		}
	}
}
