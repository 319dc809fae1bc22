package results

import (
	"encoding/json"
	"math"
	"testing"
)

// TestWorstOverBound checks WorstOverBound on a synthetic result.
func TestWorstOverBound(t *testing.T) {
	r := OpError{MaxRelErrLog2: -68, BoundLog2: -67, HasBound: true}
	if w, ok := r.WorstOverBound(); !ok || w != 0.5 {
		t.Errorf("WorstOverBound = %v, %v", w, ok)
	}
	if _, ok := (OpError{}).WorstOverBound(); ok {
		t.Error("bound reported without one")
	}
	if (OpError{MaxRelErrLog2: -60}).Bits() != 60 {
		t.Error("Bits")
	}
}

// TestOpErrorDocumentRoundTrip writes results with and without a range
// and a bound as the arith errors document and reads them back: exact
// errors are null in the document and -Inf again after reading, and a
// result without a range or bound reads back without one.
func TestOpErrorDocumentRoundTrip(t *testing.T) {
	inf := math.Inf(-1)
	for i, want := range []OpError{
		{Backend: "triword", Op: "mul", Drawn: 10, Samples: 8, BelowRange: 1, AboveRange: 1, MaxRelErrLog2: -67.5, MedianRelErrLog2: inf,
			RangeMinExp: -78, HasRange: true, BelowRangeMaxRelErrLog2: -20.25, BelowRangeMaxAbsErrLog2: inf, BoundLog2: -66, HasBound: true,
			Worst: Inputs{X: 1.5, Y: -0.25}},
		{Backend: "vprec:24", Op: "of", Drawn: 3, Samples: 3, MaxRelErrLog2: inf, MedianRelErrLog2: inf, BelowRangeMaxRelErrLog2: inf,
			BelowRangeMaxAbsErrLog2: inf, Worst: Inputs{I: -7}, Note: "unbounded"},
	} {
		data, err := json.Marshal(want)
		if err != nil {
			t.Fatal(err)
		}
		var got OpError
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Errorf("%d: %s read back as %+v, want %+v", i, data, got, want)
		}
	}
	data, _ := json.Marshal(OpError{Op: "add", MaxRelErrLog2: inf, MedianRelErrLog2: -3})
	const want = `{"backend":"","op":"add","samples":0,"drawn":0,"range_min_exp":null,"below_range":0,` +
		`"below_range_max_rel_err_log2":null,"below_range_max_abs_err_log2":null,"above_range":0,"max_rel_err_log2":null,` +
		`"median_rel_err_log2":-3,"bits":null,"bound_log2":null,"worst_over_bound":null,"worst_inputs":{"x":0,"y":0,"i":0}}`
	if string(data) != want {
		t.Errorf("document %s\nwant     %s", data, want)
	}
}
