package shadow

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
)

// binsPerBit is the resolution of the error histograms: values are counted
// in bins of 1/16 of a binade, so quantiles read from them are exact to
// 1/32 bit (the bin's midpoint is reported); minima and maxima are kept
// exactly. Histograms of this resolution add exactly, which is what makes
// a summary computed from per-signature records (after a resume, or from
// shards) equal to one computed in a single run.
const binsPerBit = 16

// Hist is a histogram of log2 values (errors, margins) in bins of
// 1/binsPerBit binade. Exact zeros (log2 = -Inf) are counted apart, as are
// infinite values (a relative error where the exact value is zero).
type Hist struct {
	Bins     map[int32]int64
	Zeros    int64   // values that were exactly zero
	Infinite int64   // +Inf values
	Min, Max float64 // exact extremes of the finite values (NaN when none)
}

// NewHist returns an empty histogram.
func NewHist() *Hist {
	return &Hist{Bins: map[int32]int64{}, Min: math.NaN(), Max: math.NaN()}
}

// Add counts one log2 value.
func (h *Hist) Add(v float64) {
	switch {
	case math.IsInf(v, -1):
		h.Zeros++
		return
	case math.IsInf(v, 1) || math.IsNaN(v):
		h.Infinite++
		return
	}
	h.Bins[int32(math.Floor(v*binsPerBit))]++
	if math.IsNaN(h.Min) || v < h.Min {
		h.Min = v
	}
	if math.IsNaN(h.Max) || v > h.Max {
		h.Max = v
	}
}

// Merge adds the counts of o to h.
func (h *Hist) Merge(o *Hist) {
	for b, c := range o.Bins {
		h.Bins[b] += c
	}
	h.Zeros += o.Zeros
	h.Infinite += o.Infinite
	if !math.IsNaN(o.Min) && (math.IsNaN(h.Min) || o.Min < h.Min) {
		h.Min = o.Min
	}
	if !math.IsNaN(o.Max) && (math.IsNaN(h.Max) || o.Max > h.Max) {
		h.Max = o.Max
	}
}

// Count is the number of values counted.
func (h *Hist) Count() int64 {
	n := h.Zeros + h.Infinite
	for _, c := range h.Bins {
		n += c
	}
	return n
}

// sortedBins returns the bin indices in increasing order.
func (h *Hist) sortedBins() []int32 {
	keys := make([]int32, 0, len(h.Bins))
	for b := range h.Bins {
		keys = append(keys, b)
	}
	slices.Sort(keys)
	return keys
}

// Quantile returns the q-quantile (0 <= q <= 1) of the values: the value of
// rank ceil(q n) (at least 1), read as the midpoint of its bin, clamped to
// the exact extremes; -Inf when it falls among the exact zeros, +Inf among
// the infinite values, NaN for an empty histogram.
func (h *Hist) Quantile(q float64) float64 {
	n := h.Count()
	if n == 0 {
		return math.NaN()
	}
	rank := int64(math.Ceil(q * float64(n)))
	return h.rank(max(rank, 1))
}

// Median returns the median of the log2 values: for an even count the mean
// of the two middle values (the usual convention, which the reference
// measurement uses), each read as in Quantile.
func (h *Hist) Median() float64 {
	n := h.Count()
	if n == 0 || n%2 == 1 {
		return h.Quantile(0.5)
	}
	lo := h.rank(n / 2)
	hi := h.rank(n/2 + 1)
	return (lo + hi) / 2
}

// rank returns the value of rank r (1-based), as Quantile reads it.
func (h *Hist) rank(r int64) float64 {
	if r <= h.Zeros {
		return math.Inf(-1)
	}
	seen := h.Zeros
	for _, b := range h.sortedBins() {
		seen += h.Bins[b]
		if seen >= r {
			v := (float64(b) + 0.5) / binsPerBit
			return math.Min(math.Max(v, h.Min), h.Max)
		}
	}
	return math.Inf(1)
}

// histJSON is the record form of a Hist: sparse bins as [bin, count] pairs
// in increasing order, and the extremes (null when empty).
type histJSON struct {
	Bins     [][2]int64 `json:"bins"`
	Zeros    int64      `json:"zeros,omitempty"`
	Infinite int64      `json:"infinite,omitempty"`
	Min      *float64   `json:"min,omitempty"`
	Max      *float64   `json:"max,omitempty"`
}

// MarshalJSON writes the record form.
func (h *Hist) MarshalJSON() ([]byte, error) {
	j := histJSON{Bins: [][2]int64{}, Zeros: h.Zeros, Infinite: h.Infinite, Min: finite(h.Min), Max: finite(h.Max)}
	for _, b := range h.sortedBins() {
		j.Bins = append(j.Bins, [2]int64{int64(b), h.Bins[b]})
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads the record form, checking it.
func (h *Hist) UnmarshalJSON(data []byte) error {
	var j histJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	*h = *NewHist()
	h.Zeros, h.Infinite = j.Zeros, j.Infinite
	if h.Zeros < 0 || h.Infinite < 0 {
		return fmt.Errorf("negative count in histogram")
	}
	for _, bc := range j.Bins {
		if bc[1] <= 0 || bc[0] < math.MinInt32 || bc[0] > math.MaxInt32 {
			return fmt.Errorf("histogram bin %d has count %d", bc[0], bc[1])
		}
		h.Bins[int32(bc[0])] += bc[1]
	}
	if (j.Min == nil) != (len(h.Bins) == 0) || (j.Max == nil) != (len(h.Bins) == 0) {
		return fmt.Errorf("histogram extremes do not match its bins")
	}
	if j.Min != nil {
		h.Min, h.Max = *j.Min, *j.Max
	}
	return nil
}

// finite returns &v, or nil for an infinite or NaN v (JSON has no
// infinities: a null log2 means "no such value" or "exactly zero", as the
// field's documentation says).
func finite(v float64) *float64 {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return nil
	}
	return &v
}
