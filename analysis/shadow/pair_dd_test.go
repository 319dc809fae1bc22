package shadow

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/triword"
)

// TestTripleToDD checks the import of triple words into dd bit for bit
// against ddouble's FromBig of triword's Big, on results of triword
// arithmetic over Falcon's range of magnitudes (where the fast path must
// serve 95% and more: about one in a hundred has a head and middle
// more than 29 bits apart), on triple words with wide gaps between limbs (a
// head and middle that do not add exactly in binary64), on cancellations,
// on zeros of both signs and on non-finite limbs.
func TestTripleToDD(t *testing.T) {
	var tw triword.Arith
	widePath, bigPath := 0, 0
	check := func(v triword.TW) bool {
		t.Helper()
		want := dd.FromBig(tw.Big(v))
		got := twToDD(v)
		if math.Float64bits(got.Hi) != math.Float64bits(want.Hi) || math.Float64bits(got.Lo) != math.Float64bits(want.Lo) {
			t.Fatalf("triple word %+v: %+v, want %+v", v, got, want)
		}
		_, fast := tripleToDD(v)
		if !fast {
			_, wide := wideTripleToDD(v)
			if wide {
				widePath++
			} else {
				bigPath++
			}
		}
		return fast
	}
	r := rand.New(rand.NewPCG(7, 8))
	rnd := func() triword.TW {
		x := tw.FromFloat64(math.Ldexp(r.Float64()+0.5, r.IntN(100)-60) * float64(1-2*r.IntN(2)))
		y := tw.FromFloat64(math.Ldexp(r.Float64()+0.5, r.IntN(100)-60))
		switch r.IntN(4) {
		case 0:
			return tw.Mul(x, y)
		case 1:
			return tw.Add(x, tw.Mul(y, tw.Const(0)))
		case 2:
			return tw.Div(x, y)
		}
		return tw.Sqrt(tw.Mul(y, y))
	}
	n, fast := 0, 0
	for range 200_000 {
		v := rnd()
		n++
		if check(v) {
			fast++
		}
		// Near cancellations: x - x(1 + tiny).
		w := tw.Sub(v, tw.Mul(v, tw.Add(tw.FromFloat64(1), tw.FromFloat64(math.Ldexp(1, -40-r.IntN(30))))))
		check(w)
	}
	if fast < n*95/100 {
		t.Errorf("fast path for %d of %d arithmetic results, want nearly all", fast, n)
	}
	if widePath == 0 || bigPath > n/1000 {
		t.Errorf("%d of %d arithmetic results through the wide integer path, %d through big.Float: want the wide path taken and big.Float nearly never", widePath, n, bigPath)
	}
	t.Logf("%d of %d results on the fast path, %d on the wide path, %d through big.Float", fast, n, widePath, bigPath)
	// Limbs of any sign and overlap, spans up to past the wide path's 100
	// bits, subnormal binary32 limbs, ties of the rounding to 53 bits.
	limb := func(e int) float32 {
		return float32(math.Ldexp(float64(r.Uint32()>>8|1<<23)*float64(1-2*r.IntN(2)), e-24))
	}
	for range 200_000 {
		e := r.IntN(200) - 120
		v := triword.TW{Hi: limb(e), Mid: limb(e - r.IntN(60)), Lo: limb(e - r.IntN(120))}
		if r.IntN(8) == 0 {
			v.Mid = 0
		}
		if r.IntN(8) == 0 {
			// An exact tie below the 53rd bit: Mid one unit at bit 53 of Hi.
			v.Mid, v.Lo = float32(math.Ldexp(math.Copysign(1, float64(v.Hi)), e-54)), 0
		}
		check(v)
		check(triword.TW{Hi: v.Lo, Mid: v.Hi, Lo: v.Mid})
	}
	for _, v := range []triword.TW{
		{}, {Hi: float32(math.Copysign(0, -1))}, {Hi: 1}, {Hi: -1, Mid: 0x1p-30}, {Hi: 1, Mid: 0x1p-40, Lo: 0x1p-90},
		{Hi: 1, Mid: -0x1p-31, Lo: 0x1p-60}, {Hi: 0x1p100, Mid: 0x1p60, Lo: 0x1p-20}, {Hi: 1, Mid: 0x1p-25, Lo: -0x1p-50},
		{Hi: float32(math.Inf(1))}, {Hi: float32(math.Inf(-1)), Mid: float32(math.NaN())}, {Hi: float32(math.NaN())},
	} {
		check(v)
		check(triword.TW{Hi: -v.Hi, Mid: -v.Mid, Lo: -v.Lo})
	}
}
