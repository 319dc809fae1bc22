package shadow

import (
	"math"
	"strings"
	"testing"
)

// TestBadArguments: nil and zero values have the documented safe meaning,
// and a degree Falcon does not define panics with a message naming it
// rather than as a square root of a negative number.
func TestBadArguments(t *testing.T) {
	var nilHist *Hist
	if n := nilHist.Count(); n != 0 {
		t.Errorf("nil Hist: Count %d", n)
	}
	if m := nilHist.Median(); !math.IsNaN(m) {
		t.Errorf("nil Hist: Median %v, want NaN", m)
	}
	var zero Hist
	zero.Add(-3)
	zero.Add(5)
	if zero.Count() != 2 || zero.Min != -3 || zero.Max != 5 {
		t.Errorf("zero Hist after Add(-3), Add(5): count %d, min %v, max %v", zero.Count(), zero.Min, zero.Max)
	}
	h := NewHist()
	h.Add(1)
	h.Merge(nil)
	var zero2 Hist
	zero2.Merge(h)
	if h.Count() != 1 || zero2.Count() != 1 || zero2.Min != 1 || zero2.Max != 1 {
		t.Errorf("Merge with nil and into a zero Hist: counts %d, %d, extremes %v, %v", h.Count(), zero2.Count(), zero2.Min, zero2.Max)
	}
	if q := QOf(nil); q.Count != 0 {
		t.Errorf("QOf(nil): count %d", q.Count)
	}
	var c *Config
	if c.KATMode() {
		t.Error("nil Config: KAT mode")
	}
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), "nil configuration") {
		t.Errorf("nil Config: Check %v", err)
	}
	if s := Summarize("native", Config{LogN: 9}, []*Record{nil}); s.Signatures != 0 {
		t.Errorf("Summarize of a nil record: %d signatures", s.Signatures)
	}
	var camp *Campaign
	if _, err := camp.Load("native"); err == nil {
		t.Error("nil Campaign: Load succeeded")
	}
	if camp.Append("native", &Record{}) == nil || camp.WriteSummary(1) == nil || camp.Close() == nil {
		t.Error("nil Campaign: Append, WriteSummary or Close succeeded")
	}
	for _, logn := range []uint{0, 11, 64} {
		func() {
			defer func() {
				r := recover()
				if msg, _ := r.(string); !strings.Contains(msg, "Falcon defines logn 1..10") {
					t.Errorf("SigmaMinFormula(%d): panic %v, want one naming the range", logn, r)
				}
			}()
			SigmaMinFormula(logn, 64)
		}()
	}
}
