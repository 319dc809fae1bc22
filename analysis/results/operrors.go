package results

import (
	"encoding/json"
	"math"
)

// OpError holds the error statistics of one operation of one backend: what
// analysis.MeasureOpError computes, one object of `fprlab arith errors
// --json` (MarshalJSON writes it, UnmarshalJSON reads it back) and an entry
// of that command's checkpoint -- one type for the record wherever it goes.
//
// Errors are relative: |got - exact|/|exact|, where exact is the oracle's
// result at 256 bits on the very inputs the backend held, with these
// exceptions:
//   - an exact result of zero gives error 0 when the backend also returns
//     zero and error 1 (no correct bit) otherwise;
//   - rint, floor and trunc compare integers exactly, relative to
//     max(1, |exact|);
//   - expm_p63 is measured relative to its full scale 2^63 (the absolute
//     error of ccs*exp(-x)), the quantity the sampler's comparison with
//     uniform 63-bit integers sees; relative to the value itself, the
//     reference's truncation alone would dominate for small ccs;
//   - a NaN or infinite result where the exact result is finite counts as
//     error 2^1024, unless the sample overflowed the backend's format (see
//     AboveRange), which sets it apart.
//
// Log2 fields are -Inf when the error is zero (every sample exact for the
// maximum, at least half of them for the median).
//
// A backend with proven bounds (arith.ErrorBounds) has them only where its
// format does not underflow: for add, sub, mul, sqr, inv, div and sqrt, a
// sample whose operands (as drawn, or as the backend holds them after
// import) or exact result lie below 2^BoundMinExp is counted
// in BelowRange and kept out of Samples, MaxRelErrLog2, MedianRelErrLog2
// and the comparison with the bound; the largest relative and absolute
// errors of those samples are reported in BelowRangeMaxRelErrLog2 and
// BelowRangeMaxAbsErrLog2. Backends without bounds have every sample in
// range.
type OpError struct {
	Backend string
	Op      string
	// Drawn is the number of samples drawn; Samples of them were in range.
	Drawn, Samples   int
	MaxRelErrLog2    float64 // log2 of the largest error
	MedianRelErrLog2 float64 // log2 of the lower median error
	// RangeMinExp is the backend's BoundMinExp when HasRange.
	RangeMinExp int
	HasRange    bool
	// BelowRange counts the samples below 2^RangeMinExp; the two log2
	// fields are -Inf when there are none or all were exact.
	BelowRange              int
	BelowRangeMaxRelErrLog2 float64
	BelowRangeMaxAbsErrLog2 float64
	// AboveRange counts the floating-point samples that overflowed the
	// backend's format: an operand imported as an infinity, or a NaN or
	// infinite result whose exact value the format cannot hold (triword
	// above binary32's 2^128). They measure the format's range, not its
	// precision, so they are left out of Samples and the error fields.
	AboveRange int
	// BoundLog2 is log2 of the backend's proven relative error bound for
	// the operation (arith.ErrorBounds), when HasBound.
	BoundLog2 float64
	HasBound  bool
	// Worst holds the inputs of the first sample with the largest error
	// (X only for unary operations, I for of; X is x and Y is ccs for
	// expm_p63), as binary64 values before import.
	Worst Inputs
	// Note is a remark printed with the result (a vprec format's
	// unbounded exponent range); the document's "note", omitted when empty.
	Note string
}

// Inputs are the operands of one sample.
type Inputs struct {
	X, Y float64
	I    int64
}

// Bits is the number of correct bits in the worst case, -MaxRelErrLog2
// (+Inf for an operation that was always exact).
func (e OpError) Bits() float64 { return -e.MaxRelErrLog2 }

// WorstOverBound is the largest error divided by the proven bound (ok =
// false without a bound). Above 1 the bound is violated.
func (e OpError) WorstOverBound() (float64, bool) {
	if !e.HasBound {
		return 0, false
	}
	return math.Exp2(e.MaxRelErrLog2 - e.BoundLog2), true
}

// opErrorJSON is the document form of an OpError (MarshalJSON,
// UnmarshalJSON), the stable --json output of arith errors, an array of
// them. Log2 values are null when the error is zero (every sample exact for
// max_rel_err_log2, at least half of them for the median); bits is then
// null too (unbounded). bound_log2 and worst_over_bound are null for
// operations without a proven bound.
//
// For backends whose bounds hold only above some magnitude (triword:
// 2^-78, where its lowest limb would leave binary32's normal range),
// "samples" and the error fields count only the samples whose operands and
// exact result lie above 2^range_min_exp; "drawn" is the number drawn and
// "below_range" those set apart, with their largest relative and absolute
// errors. range_min_exp is null, and below_range 0, for other backends.
//
// "above_range" counts the samples that overflowed the backend's format
// (an operand or the exact result beyond its largest value: triword above
// 2^128); they are left out of "samples" and the error fields for every
// backend, so samples + below_range + above_range = drawn. A NaN or
// infinite result for a value the format can hold is an arithmetic
// failure: it is charged the error 2^1024 (log2 value 1024, bits -1024),
// shown as NaN/Inf in the table.
//
// Reading, log2 values may also be the strings "-Inf" and "Inf" (Log2); an
// absent below-range error is NaN (not measured: a document that predates
// it), not zero.
type opErrorJSON[L any] struct {
	Backend                 string     `json:"backend"`
	Op                      string     `json:"op"`
	Samples                 int        `json:"samples"`
	Drawn                   int        `json:"drawn"`
	RangeMinExp             *int       `json:"range_min_exp"`
	BelowRange              int        `json:"below_range"`
	BelowRangeMaxRelErrLog2 L          `json:"below_range_max_rel_err_log2"`
	BelowRangeMaxAbsErrLog2 L          `json:"below_range_max_abs_err_log2"`
	AboveRange              int        `json:"above_range"`
	MaxRelErrLog2           L          `json:"max_rel_err_log2"`
	MedianRelErrLog2        L          `json:"median_rel_err_log2"`
	Bits                    L          `json:"bits"`
	BoundLog2               *float64   `json:"bound_log2"`
	WorstOverBound          *float64   `json:"worst_over_bound"`
	WorstInputs             inputsJSON `json:"worst_inputs"`
	Note                    string     `json:"note,omitempty"`
}

// inputsJSON holds the binary64 inputs of the worst sample: x and y (x
// and ccs for expm_p63; y is 0 for unary operations) and i for "of".
type inputsJSON struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	I int64   `json:"i"`
}

// finite returns &v, or nil for an infinite v (JSON has no infinities).
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}

// MarshalJSON writes the document form (opErrorJSON).
func (e OpError) MarshalJSON() ([]byte, error) {
	j := opErrorJSON[*float64]{
		Backend: e.Backend, Op: e.Op, Samples: e.Samples, Drawn: e.Drawn,
		BelowRange: e.BelowRange, AboveRange: e.AboveRange,
		MaxRelErrLog2: finite(e.MaxRelErrLog2), MedianRelErrLog2: finite(e.MedianRelErrLog2), Bits: finite(e.Bits()),
		WorstInputs: inputsJSON(e.Worst), Note: e.Note,
	}
	if e.HasRange {
		j.RangeMinExp = &e.RangeMinExp
		j.BelowRangeMaxRelErrLog2 = finite(e.BelowRangeMaxRelErrLog2)
		j.BelowRangeMaxAbsErrLog2 = finite(e.BelowRangeMaxAbsErrLog2)
	}
	if w, ok := e.WorstOverBound(); ok {
		j.BoundLog2 = finite(e.BoundLog2)
		j.WorstOverBound = finite(w)
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the document form: null log2 values are -Inf (no
// error), range_min_exp and bound_log2 null or absent mean no range and no
// bound, and an absent below-range error is NaN (not measured).
func (e *OpError) UnmarshalJSON(b []byte) error {
	nan := Log2(math.NaN())
	j := opErrorJSON[Log2]{BelowRangeMaxRelErrLog2: nan, BelowRangeMaxAbsErrLog2: nan}
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*e = OpError{Backend: j.Backend, Op: j.Op, Samples: j.Samples, Drawn: j.Drawn,
		BelowRange: j.BelowRange, AboveRange: j.AboveRange,
		MaxRelErrLog2: float64(j.MaxRelErrLog2), MedianRelErrLog2: float64(j.MedianRelErrLog2),
		BelowRangeMaxRelErrLog2: float64(j.BelowRangeMaxRelErrLog2), BelowRangeMaxAbsErrLog2: float64(j.BelowRangeMaxAbsErrLog2),
		Worst: Inputs(j.WorstInputs), Note: j.Note}
	if j.RangeMinExp != nil {
		e.RangeMinExp, e.HasRange = *j.RangeMinExp, true
	}
	if j.BoundLog2 != nil {
		e.BoundLog2, e.HasBound = *j.BoundLog2, true
	}
	return nil
}

// OpErrorDoc is a parsed `arith errors --json` document.
type OpErrorDoc struct {
	File string
	Ops  []OpError
}

// AllOpErrors returns every object of every arith errors document.
func (c *Campaign) AllOpErrors() []OpError {
	var out []OpError
	for _, d := range c.OpErrors {
		out = append(out, d.Ops...)
	}
	return out
}
