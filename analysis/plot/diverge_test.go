package plot

import (
	"math"
	"testing"

	"github.com/fprlab/fprlab/analysis/results"
)

// TestDiverge draws two measured diverge documents (testdata/diverge: 9 of
// 40 signatures differ between native and vprec:24, none of 200 between
// native and emu64) and checks the numbers drawn against the documents'
// own: the rate of the first at log10(9/40), the second as the upper end
// of its Wilson interval, no key-revealing series (neither has a pair).
func TestDiverge(t *testing.T) {
	c, err := results.Read("testdata/diverge")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Diverges) != 2 {
		t.Fatalf("%d diverge documents, want 2 (skipped %v)", len(c.Diverges), c.Skipped)
	}
	f, err := Draw(KindDiverge, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	// Documents are read in name order: native-emu64.json, native-vprec24.json.
	if d := f.drawn["differing"]; len(d) != 1 || d[0].X != 1 || !near(d[0].Y, math.Log10(9.0/40)) {
		t.Errorf("differing series %v, want one point at (1, log10(9/40))", d)
	}
	up := c.Diverges[0].RateCI95[1]
	if d := f.drawn["none differing (upper end)"]; len(d) != 1 || d[0].X != 0 || !near(d[0].Y, math.Log10(up)) {
		t.Errorf("none-differing series %v, want one point at (0, log10(%g))", d, up)
	}
	if d := f.drawn["key-revealing"]; len(d) != 0 {
		t.Errorf("key-revealing series %v, want none", d)
	}
	checkGolden(t, f, "diverge")
	if _, err := Diverge(nil); err == nil {
		t.Error("no documents drawn")
	}
}
