package ddouble

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestIntegerConversionsTable checks Rint (ties to even), Floor and Trunc
// on hand-derived cases where the low part decides: an integer high part
// with a low part of either sign, a half-integer high part with a tiny low
// part or none, the ends of the int64 range, saturation, and pairs that
// are not normalised.
func TestIntegerConversionsTable(t *testing.T) {
	const tiny = 0x1p-80
	nz := math.Copysign(0, -1)
	for k, c := range []struct {
		x                  DD
		rint, floor, trunc int64
	}{
		{DD{}, 0, 0, 0},
		{DD{nz, 0}, 0, 0, 0},
		{DD{3, -tiny}, 3, 2, 2},
		{DD{3, tiny}, 3, 3, 3},
		{DD{-3, tiny}, -3, -3, -2},
		{DD{-3, -tiny}, -3, -4, -3},
		{DD{0.5, 0}, 0, 0, 0},
		{DD{0.5, tiny}, 1, 0, 0},
		{DD{0.5, -tiny}, 0, 0, 0},
		{DD{2.5, 0}, 2, 2, 2},
		{DD{2.5, tiny}, 3, 2, 2},
		{DD{3.5, -tiny}, 3, 3, 3},
		{DD{-2.5, 0}, -2, -3, -2},
		{DD{-2.5, -tiny}, -3, -3, -2},
		{DD{-3.5, tiny}, -3, -4, -3},
		{DD{-0.5, tiny}, 0, -1, 0},
		{DD{1, -tiny}, 1, 0, 0},
		{DD{-1, tiny}, -1, -1, 0},
		{DD{tiny, 0}, 0, 0, 0},
		{DD{-tiny, 0}, 0, -1, 0},
		// Integer high parts beyond 2^53 with a fractional low part.
		{DD{0x1p60, 0.5}, 1 << 60, 1 << 60, 1 << 60},
		{DD{0x1p60, 1.5}, 1<<60 + 2, 1<<60 + 1, 1<<60 + 1},
		{DD{0x1p60, -0.5}, 1 << 60, 1<<60 - 1, 1<<60 - 1},
		{DD{0x1p60 + 256, -0.5}, 1<<60 + 256, 1<<60 + 255, 1<<60 + 255},
		{DD{0x1p60 + 256, 1.5}, 1<<60 + 258, 1<<60 + 257, 1<<60 + 257},
		{DD{-0x1p60, 0.5}, -1 << 60, -1<<60 + 0, -1<<60 + 1},
		{DD{-0x1p60, -1.5}, -1<<60 - 2, -1<<60 - 2, -1<<60 - 1},
		// Around 2^63: Hi = 2^63 is outside int64 but Hi + Lo may not be.
		{DD{0x1p63, -1}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{DD{0x1p63, -0.25}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{DD{0x1p63, -0.5}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{DD{0x1p63, -0.75}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{DD{0x1p63, -1.5}, math.MaxInt64 - 1, math.MaxInt64 - 1, math.MaxInt64 - 1},
		{DD{0x1p63, -513}, 1<<63 - 513, 1<<63 - 513, 1<<63 - 513},
		{DD{0x1p63, 0}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{DD{0x1p63, tiny}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{DD{-0x1p63, 0}, math.MinInt64, math.MinInt64, math.MinInt64},
		{DD{-0x1p63, 0.5}, math.MinInt64, math.MinInt64, math.MinInt64 + 1},
		{DD{-0x1p63, 1.5}, math.MinInt64 + 2, math.MinInt64 + 1, math.MinInt64 + 2},
		{DD{-0x1p63, -tiny}, math.MinInt64, math.MinInt64, math.MinInt64},
		{DD{0x1p70, 0}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{DD{-0x1p70, 0}, math.MinInt64, math.MinInt64, math.MinInt64},
		{DD{math.Inf(1), 0}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		{DD{math.Inf(-1), 0}, math.MinInt64, math.MinInt64, math.MinInt64},
		{DD{math.NaN(), 0}, math.MaxInt64, math.MaxInt64, math.MaxInt64},
		// Not normalised: the value Hi + Lo counts.
		{DD{1, 0.5}, 2, 1, 1},
		{DD{0.5, 1}, 2, 1, 1},
		{DD{0.25, 0.25}, 0, 0, 0},
		{DD{2, -0.5}, 2, 1, 1},
		{DD{-1, -0.5}, -2, -2, -1},
	} {
		if got := dd.Rint(c.x); got != c.rint {
			t.Errorf("#%d: Rint(%v) = %d, want %d", k, c.x, got, c.rint)
		}
		if got := dd.Floor(c.x); got != c.floor {
			t.Errorf("#%d: Floor(%v) = %d, want %d", k, c.x, got, c.floor)
		}
		if got := dd.Trunc(c.x); got != c.trunc {
			t.Errorf("#%d: Trunc(%v) = %d, want %d", k, c.x, got, c.trunc)
		}
	}
}

// randNearInteger returns double words on which rounding is delicate:
// an integer high part (up to 2^64) with a low part of either sign, a
// half-integer high part with a zero or tiny low part, or a random
// non-integer.
func randNearInteger(r *rand.Rand) DD {
	var x DD
	switch r.IntN(4) {
	case 0:
		h := math.Trunc(randFloat(r, 0, 64))
		_, e := math.Frexp(h)
		x = DD{h, randFloat(r, e-120, e-54)}
	case 1:
		h := float64(r.Int64N(1<<r.IntN(52))) + 0.5
		x = DD{h, 0}
		if r.IntN(2) == 0 {
			x.Lo = randFloat(r, -110, -60)
		}
	case 2:
		x = randDD(r, -4, 64)
	case 3:
		h := math.Trunc(randFloat(r, 50, 63))
		x = DD{h, float64(r.IntN(8))/4 - 1}
	}
	if r.IntN(2) == 0 {
		x = neg(x)
	}
	s, e := twoSum(x.Hi, x.Lo)
	return DD{s, e}
}

// TestIntegerConversionsVsOracle compares Rint, Floor and Trunc with the
// oracle's (exact on the big value, same saturation) on 1,000,000
// delicate double words (20,000 with -short).
func TestIntegerConversionsVsOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for k := range samples(1_000_000) {
		x := randNearInteger(r)
		b := dd.Big(x)
		if got, want := dd.Rint(x), ora.Rint(b); got != want {
			t.Fatalf("#%d: Rint(%v) = %d, want %d", k, x, got, want)
		}
		if got, want := dd.Floor(x), ora.Floor(b); got != want {
			t.Fatalf("#%d: Floor(%v) = %d, want %d", k, x, got, want)
		}
		if got, want := dd.Trunc(x), ora.Trunc(b); got != want {
			t.Fatalf("#%d: Trunc(%v) = %d, want %d", k, x, got, want)
		}
	}
}

// TestLtVsOracle compares Lt with the order of the exact values on pairs
// that agree in their high parts, pairs of equal value with different
// representations (not normalised), near-equal pairs and random pairs.
func TestLtVsOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for k := range samples(1_000_000) {
		x := randDD(r, minExp, maxExp)
		var y DD
		switch r.IntN(5) {
		case 0:
			y = randDD(r, minExp, maxExp)
		case 1:
			y = DD{x.Hi, x.Lo + randFloat(r, -200, -100)}
		case 2:
			y = x
		case 3:
			// The same value written differently: move 2^j from Lo to Hi.
			_, e := math.Frexp(x.Hi)
			d := math.Ldexp(1, e-60)
			y = DD{x.Hi + d, x.Lo - d}
			if x.Hi+d-x.Hi != d {
				y = x
			}
		case 4:
			_, y = cancelling(r)
			y = neg(y)
		}
		if got, want := dd.Lt(x, y), dd.Big(x).Cmp(dd.Big(y)) < 0; got != want {
			t.Fatalf("#%d: Lt(%v, %v) = %v, want %v", k, x, y, got, want)
		}
		if got, want := dd.Lt(y, x), dd.Big(y).Cmp(dd.Big(x)) < 0; got != want {
			t.Fatalf("#%d: Lt(%v, %v) = %v, want %v", k, y, x, got, want)
		}
	}
	nz := math.Copysign(0, -1)
	inf := math.Inf(1)
	for k, c := range []struct {
		x, y DD
		want bool
	}{
		{DD{nz, 0}, DD{}, false},
		{DD{}, DD{nz, 0}, false},
		{DD{1, -0x1p-60}, DD{1, 0}, true},
		{DD{1, 0}, DD{1, -0x1p-60}, false},
		{DD{1, 0x1p-1074}, DD{1, 0}, false},
		{DD{1, 0}, DD{1, 0x1p-1074}, true},
		{DD{-inf, 0}, DD{1, 0}, true},
		{DD{1, 0}, DD{inf, 0}, true},
		{DD{inf, 0}, DD{inf, 0}, false},
		{DD{math.NaN(), 0}, DD{1, 0}, false},
		{DD{1, 0}, DD{math.NaN(), 0}, false},
	} {
		if got := dd.Lt(c.x, c.y); got != c.want {
			t.Errorf("#%d: Lt(%v, %v) = %v, want %v", k, c.x, c.y, got, c.want)
		}
	}
}
