package shadow

import (
	"encoding/json"
	"fmt"
	"math"
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
// infinite values (a relative error where the exact value is zero). The bins
// are a dense slice starting at bin lo, grown as values arrive: adding a
// value costs no map operation, which matters at millions of values a run.
// The zero Hist is an empty histogram, as NewHist's is, and a nil *Hist
// reads as an empty one (Count 0, quantiles NaN; merging it adds nothing).
type Hist struct {
	lo     int32
	counts []int64 // bins lo, lo+1, ...: the window buf[off:off+len(counts)]
	// buf holds the counts with room on both sides (zeros outside the
	// window), so that the range widens in place (see widen).
	buf      []int64
	off      int
	Zeros    int64   // values that were exactly zero
	Infinite int64   // +Inf values
	Min, Max float64 // exact extremes of the finite values (log2; NaN when none)
	// minLin and maxLin are 2^Min and 2^Max, so that AddLinear computes a
	// logarithm only near a new extreme.
	minLin, maxLin float64
}

// NewHist returns an empty histogram.
func NewHist() *Hist {
	return &Hist{Min: math.NaN(), Max: math.NaN(), minLin: math.Inf(1), maxLin: math.Inf(-1)}
}

// binThresholds[i] = 2^((i+1)/16): a mantissa m in [1, 2) lies in sub-bin
// #{i : m >= binThresholds[i]}.
var binThresholds = func() [binsPerBit - 1]float64 {
	var t [binsPerBit - 1]float64
	for i := range t {
		t[i] = math.Exp2(float64(i+1) / binsPerBit)
	}
	return t
}()

// subBinAt[j] is the sub-bin of the mantissa 1 + j/256, the start of the
// j-th of 256 equal intervals of [1, 2). The thresholds lie at least
// 2^(1/16) - 1 > 1/23 apart, so an interval of width 1/256 holds at most
// one of them, the one just above its start: a mantissa's sub-bin is
// subBinAt[j] or one more, decided by a single comparison.
var subBinAt = func() [256]uint8 {
	var t [256]uint8
	for j := range t {
		t[j] = uint8(subBinScan(1 + float64(j)/256))
	}
	return t
}()

// subBinScan is #{i : m >= binThresholds[i]} for a mantissa m in [1, 2),
// by a scan of the table.
func subBinScan(m float64) int32 {
	k := int32(0)
	for k < binsPerBit-1 && m >= binThresholds[k] {
		k++
	}
	return k
}

// binOf returns floor(binsPerBit log2 x) for a finite x > 0: binsPerBit
// times the binary exponent plus the sub-bin of the mantissa m in [1, 2),
// #{i : m >= binThresholds[i]} (binOfNormal; subnormal numbers are
// normalised by math.Frexp first).
func binOf(x float64) int32 {
	if bits := math.Float64bits(x); bits>>52 != 0 {
		return binOfNormal(bits)
	}
	frac, exp := math.Frexp(x) // x = frac 2^exp, frac in [0.5, 1)
	return int32(exp-1)*binsPerBit + subBinScan(2*frac)
}

// binOfNormal is binOf of the positive normal number with the given bits:
// the sub-bin from subBinAt and one comparison.
func binOfNormal(bits uint64) int32 {
	k := int32(subBinAt[(bits>>44)&0xff])
	if k < binsPerBit-1 && math.Float64frombits(bits&(1<<52-1)|1023<<52) >= binThresholds[k] {
		k++
	}
	return int32(bits>>52-1023)*binsPerBit + k
}

// init turns the zero Hist into NewHist's empty histogram: with no bins
// no finite value has been counted, so the extremes are NaN.
func (h *Hist) init() {
	if h.counts == nil && h.minLin == 0 && h.maxLin == 0 {
		h.Min, h.Max, h.minLin, h.maxLin = math.NaN(), math.NaN(), math.Inf(1), math.Inf(-1)
	}
}

// Add counts one log2 value.
func (h *Hist) Add(v float64) {
	h.init()
	switch {
	case math.IsInf(v, -1):
		h.Zeros++
		return
	case math.IsInf(v, 1) || math.IsNaN(v):
		h.Infinite++
		return
	}
	h.inc(int32(math.Floor(v*binsPerBit)), 1)
	if math.IsNaN(h.Min) || v < h.Min {
		h.Min, h.minLin = v, math.Exp2(v)
	}
	if math.IsNaN(h.Max) || v > h.Max {
		h.Max, h.maxLin = v, math.Exp2(v)
	}
}

// AddLinear counts log2 x for x >= 0 (0 is an exact zero).
func (h *Hist) AddLinear(x float64) { h.addLinear(x) }

// addLinear is AddLinear of each of xs in turn. The common case -- a
// positive normal number strictly between the current extremes' windows,
// in a bin of the current range -- is counted in line, with the
// histogram's fields held in locals; anything else goes through
// addLinearSlow, the general rule.
func (h *Hist) addLinear(xs ...float64) {
	lo, counts := h.lo, h.counts
	below, above := h.minLin*(1+0x1p-40), h.maxLin*(1-0x1p-40)
	for _, x := range xs {
		if bits := math.Float64bits(x); bits>>52-1 < 0x7fe && x > below && x < above {
			// Sign 0, exponent field 1..2046, and no new extreme near.
			if i := uint(binOfNormal(bits) - lo); i < uint(len(counts)) {
				counts[i]++
				continue
			}
		}
		h.addLinearSlow(x)
		lo, counts = h.lo, h.counts
		below, above = h.minLin*(1+0x1p-40), h.maxLin*(1-0x1p-40)
	}
}

// addLinearSlow counts log2 x for x >= 0 (0 is an exact zero).
func (h *Hist) addLinearSlow(x float64) {
	h.init()
	switch {
	case x == 0:
		h.Zeros++
		return
	case math.IsInf(x, 0) || math.IsNaN(x) || x < 0:
		h.Infinite++
		return
	}
	h.inc(binOf(x), 1)
	// Extremes are kept as exact logarithms; one is computed only near or
	// beyond the current extreme (2^Min and 2^Max are rounded, so a value
	// within a relative 2^-40 of one is compared in the log domain).
	if x <= h.minLin*(1+0x1p-40) {
		if v := math.Log2(x); math.IsNaN(h.Min) || v < h.Min {
			h.Min, h.minLin = v, x
		}
	}
	if x >= h.maxLin*(1-0x1p-40) {
		if v := math.Log2(x); math.IsNaN(h.Max) || v > h.Max {
			h.Max, h.maxLin = v, x
		}
	}
}

// inc adds c to bin b, growing the dense range. The range is a window of
// a larger buffer with room on both sides, so that widening it (values
// arrive in any order) copies the counts only when a side is full, each
// time into a buffer three times the new range.
func (h *Hist) inc(b int32, c int64) {
	if i := uint(b - h.lo); i < uint(len(h.counts)) {
		h.counts[i] += c
		return
	}
	h.widen(b)
	h.counts[b-h.lo] += c
}

// widen makes the dense range include bin b: within the buffer when it
// has room on that side, else in a new buffer with the range in its
// middle and as much room again around it.
func (h *Hist) widen(b int32) {
	n := len(h.counts)
	if n == 0 {
		const initial = 256
		h.buf = make([]int64, initial)
		h.off, h.lo = initial/2, b
		h.counts = h.buf[h.off : h.off+1]
		return
	}
	lo, hi := min(b, h.lo), max(b, h.lo+int32(n)-1)
	m := int(hi-lo) + 1
	if off := h.off - int(h.lo-lo); off >= 0 && off+m <= len(h.buf) {
		h.off, h.lo, h.counts = off, lo, h.buf[off:off+m]
		return
	}
	buf := make([]int64, 3*m)
	copy(buf[m+int(h.lo-lo):], h.counts)
	h.buf, h.off, h.lo, h.counts = buf, m, lo, buf[m:2*m]
}

// compact gives the histogram a buffer of exactly its range: a record's
// histograms are kept (by a campaign, a summary) long after their last
// value.
func (h *Hist) compact() {
	if h == nil || cap(h.buf) == len(h.counts) {
		return
	}
	c := make([]int64, len(h.counts))
	copy(c, h.counts)
	h.buf, h.off, h.counts = c, 0, c
}

// eachBin calls f for every non-empty bin in increasing order.
func (h *Hist) eachBin(f func(b int32, c int64)) {
	if h == nil {
		return
	}
	for i, c := range h.counts {
		if c != 0 {
			f(h.lo+int32(i), c)
		}
	}
}

// Merge adds the counts of o to h.
func (h *Hist) Merge(o *Hist) {
	if o == nil {
		return
	}
	h.init()
	o.eachBin(func(b int32, c int64) { h.inc(b, c) })
	h.Zeros += o.Zeros
	h.Infinite += o.Infinite
	if !math.IsNaN(o.Min) && (math.IsNaN(h.Min) || o.Min < h.Min) {
		h.Min, h.minLin = o.Min, o.minLin
	}
	if !math.IsNaN(o.Max) && (math.IsNaN(h.Max) || o.Max > h.Max) {
		h.Max, h.maxLin = o.Max, o.maxLin
	}
}

// Count is the number of values counted.
func (h *Hist) Count() int64 {
	if h == nil {
		return 0
	}
	n := h.Zeros + h.Infinite
	for _, c := range h.counts {
		n += c
	}
	return n
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
	if h.Count() == 0 {
		return math.NaN()
	}
	if r <= h.Zeros {
		return math.Inf(-1)
	}
	seen := h.Zeros
	for i, c := range h.counts {
		seen += c
		if c != 0 && seen >= r {
			v := (float64(h.lo+int32(i)) + 0.5) / binsPerBit
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
	h.eachBin(func(b int32, c int64) { j.Bins = append(j.Bins, [2]int64{int64(b), c}) })
	if len(j.Bins) == 0 {
		j.Min, j.Max = nil, nil // the zero Hist's extremes are not values
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
	// Bins of finite log2 values of binary64 numbers lie within
	// +-1100 binades; a record outside is damaged.
	const binLimit = 1100 * binsPerBit
	prev := int64(math.MinInt64)
	for _, bc := range j.Bins {
		if bc[1] <= 0 || bc[0] < -binLimit || bc[0] > binLimit || bc[0] <= prev {
			return fmt.Errorf("histogram bin %d with count %d (bins must increase, lie within +-%d and count at least 1)", bc[0], bc[1], binLimit)
		}
		prev = bc[0]
		h.inc(int32(bc[0]), bc[1])
	}
	if (j.Min == nil) != (len(j.Bins) == 0) || (j.Max == nil) != (len(j.Bins) == 0) {
		return fmt.Errorf("histogram extremes do not match its bins")
	}
	if j.Min != nil {
		h.Min, h.Max = *j.Min, *j.Max
		h.minLin, h.maxLin = math.Exp2(h.Min), math.Exp2(h.Max)
	}
	h.compact()
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
