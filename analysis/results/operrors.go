package results

import "encoding/json"

// OpError is one object of `fprlab arith errors --json`: the relative
// error of one operation of one backend against the 256-bit oracle.
type OpError struct {
	Backend          string   `json:"backend"`
	Op               string   `json:"op"`
	Samples          int64    `json:"samples"`
	MaxRelErrLog2    Log2     `json:"max_rel_err_log2"`
	MedianRelErrLog2 Log2     `json:"median_rel_err_log2"`
	BoundLog2        *float64 `json:"bound_log2"` // null: no proven bound
	BelowRange       int64    `json:"below_range"`
	AboveRange       int64    `json:"above_range"`
	// RangeMinExp is the least binary exponent of the backend's range
	// (results below 2^RangeMinExp are below_range; 0 when absent), and
	// BelowRangeMaxRelErrLog2 the largest relative error of those results
	// (null, -Inf: none; absent: NaN, a document that predates it).
	RangeMinExp             int  `json:"range_min_exp,omitempty"`
	BelowRangeMaxRelErrLog2 Log2 `json:"below_range_max_rel_err_log2"`
}

// UnmarshalJSON reads an arith errors object; an absent below-range error
// is NaN (not measured), not zero.
func (o *OpError) UnmarshalJSON(b []byte) error {
	type plain OpError
	v := plain{BelowRangeMaxRelErrLog2: nan}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*o = OpError(v)
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
