package ddouble

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAbsDiff checks AbsDiff bit for bit against its definition, the
// absolute value of the subtraction rounded to binary64: on a binary64
// value near a double word (the shadow's errors, relative differences
// from 2^-30 down to 0), on unrelated operands of every magnitude, and on
// zeros of both signs, subnormal numbers, infinities, NaN and overflow.
func TestAbsDiff(t *testing.T) {
	want := func(b float64, x DD) float64 { return math.Abs(dd.Float64(dd.Sub(dd.FromFloat64(b), x))) }
	check := func(b float64, x DD) {
		t.Helper()
		if g, w := AbsDiff(b, x), want(b, x); math.Float64bits(g) != math.Float64bits(w) {
			t.Fatalf("AbsDiff(%v, %v): %v (%#x), want %v (%#x)", b, x, g, math.Float64bits(g), w, math.Float64bits(w))
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	for range samples(2_000_000) {
		v := randFloat(r, minExp, maxExp)
		// x = v (1 + d) rounded to a double word, then b = x.Hi moved by
		// a few ulps, or v itself.
		d := math.Ldexp(r.Float64()-0.5, -r.IntN(60))
		x := dd.Mul(dd.FromFloat64(v), dd.Add(dd.FromFloat64(1), dd.FromFloat64(d)))
		b := x.Hi
		switch r.IntN(4) {
		case 0:
			b = v
		case 1:
			for range r.IntN(4) {
				b = math.Nextafter(b, math.Inf(1-2*r.IntN(2)))
			}
		}
		check(b, x)
		check(-b, x)
		check(b, DD{x.Hi, 0})
		check(randFloat(r, minExp, maxExp), DD{randFloat(r, minExp, maxExp), randFloat(r, minExp-60, maxExp-60)})
	}
	special := []float64{0, math.Copysign(0, -1), 1, -1, 0x1p-1074, -0x1p-1074, 0x1p-1022, math.MaxFloat64, -math.MaxFloat64,
		math.Inf(1), math.Inf(-1), math.NaN(), 0x1p1023, 3, 0x1p-60}
	for _, b := range special {
		for _, h := range special {
			for _, l := range special {
				check(b, DD{h, l})
			}
		}
	}
}
