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
	check := func(v triword.TW) bool {
		t.Helper()
		want := dd.FromBig(tw.Big(v))
		got := twToDD(v)
		if math.Float64bits(got.Hi) != math.Float64bits(want.Hi) || math.Float64bits(got.Lo) != math.Float64bits(want.Lo) {
			t.Fatalf("triple word %+v: %+v, want %+v", v, got, want)
		}
		_, fast := tripleToDD(v)
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
	for _, v := range []triword.TW{
		{}, {Hi: float32(math.Copysign(0, -1))}, {Hi: 1}, {Hi: -1, Mid: 0x1p-30}, {Hi: 1, Mid: 0x1p-40, Lo: 0x1p-90},
		{Hi: 1, Mid: -0x1p-31, Lo: 0x1p-60}, {Hi: 0x1p100, Mid: 0x1p60, Lo: 0x1p-20}, {Hi: 1, Mid: 0x1p-25, Lo: -0x1p-50},
		{Hi: float32(math.Inf(1))}, {Hi: float32(math.Inf(-1)), Mid: float32(math.NaN())}, {Hi: float32(math.NaN())},
	} {
		check(v)
		check(triword.TW{Hi: -v.Hi, Mid: -v.Mid, Lo: -v.Lo})
	}
}
