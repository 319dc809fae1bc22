package shadow

import (
	"math"
	"math/rand/v2"
	"testing"
)

// binOfByScan is the definition binOf implements: the binary exponent
// from math.Frexp and the sub-bin by a scan of the thresholds.
func binOfByScan(x float64) int32 {
	frac, exp := math.Frexp(x)
	return int32(exp-1)*binsPerBit + subBinScan(2*frac)
}

// TestBinOf checks binOf against its definition at every sub-bin
// threshold (and the neighbouring binary64 numbers), at the starts of the
// table's intervals, over subnormal numbers and over a million random
// values of every magnitude.
func TestBinOf(t *testing.T) {
	check := func(x float64) {
		if got, want := binOf(x), binOfByScan(x); got != want {
			t.Fatalf("binOf(%v = %#x): %d, want %d", x, math.Float64bits(x), got, want)
		}
	}
	for _, e := range []int{-1074, -1060, -1023, -1022, -200, -53, -1, 0, 1, 52, 300, 1023} {
		scale := math.Ldexp(1, e)
		for _, th := range binThresholds {
			for _, m := range []float64{th, math.Nextafter(th, 0), math.Nextafter(th, 2)} {
				check(m * scale)
			}
		}
		for j := range 256 {
			m := 1 + float64(j)/256
			check(m * scale)
			check(math.Nextafter(m, 0) * scale)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1_000_000 {
		x := math.Float64frombits(rng.Uint64() &^ (1 << 63))
		if x == 0 || math.IsInf(x, 0) || math.IsNaN(x) {
			continue
		}
		check(x)
	}
	for range 10_000 {
		check(math.Float64frombits(rng.Uint64() & (1<<52 - 1)))
	}
}

// TestHistCounts adds values in random order, widening the range on both
// sides many times, and compares every bin, the extremes and the JSON
// form with counts kept in a map.
func TestHistCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	h := NewHist()
	var z Hist // the zero Hist behaves as NewHist's
	want := map[int32]int64{}
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range 20_000 {
		// Magnitudes spread over +-60 binades, drifting outward.
		x := math.Ldexp(1+rng.Float64(), rng.IntN(2*(i/200+1)+1)-(i/200+1)-10)
		h.AddLinear(x)
		z.AddLinear(x)
		want[binOf(x)]++
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	got := map[int32]int64{}
	h.eachBin(func(b int32, c int64) { got[b] = c })
	if len(got) != len(want) {
		t.Fatalf("%d bins, want %d", len(got), len(want))
	}
	for b, c := range want {
		if got[b] != c {
			t.Errorf("bin %d: %d, want %d", b, got[b], c)
		}
	}
	if h.Count() != 20_000 || h.Min != math.Log2(lo) || h.Max != math.Log2(hi) {
		t.Errorf("count %d, extremes %v %v, want 20000, %v %v", h.Count(), h.Min, h.Max, math.Log2(lo), math.Log2(hi))
	}
	if h.counts[0] == 0 || h.counts[len(h.counts)-1] == 0 {
		t.Errorf("the dense range does not end on non-empty bins")
	}
	if a, b := jsonOf(t, h), jsonOf(t, &z); a != b {
		t.Errorf("zero Hist differs from NewHist's:\n%s\n%s", a, b)
	}
	before := jsonOf(t, h)
	h.compact()
	if jsonOf(t, h) != before || cap(h.buf) != len(h.counts) {
		t.Errorf("compact changed the histogram or kept room (%d of %d)", len(h.counts), cap(h.buf))
	}
	m := NewHist()
	m.Merge(h)
	m.Merge(&z)
	for b, c := range want {
		want[b] = 2 * c
	}
	got = map[int32]int64{}
	m.eachBin(func(b int32, c int64) { got[b] = c })
	for b, c := range want {
		if got[b] != c {
			t.Errorf("merged bin %d: %d, want %d", b, got[b], c)
		}
	}
}
