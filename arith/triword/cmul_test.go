package triword

import (
	"math/rand/v2"
	"testing"
)

// TestCMul checks that CMul is, bit for bit, the complex product of the
// scalar operations, for both products, over random triple words of
// Falcon's range and small integers with zero limbs and signed zeros.
func TestCMul(t *testing.T) {
	r := rand.New(rand.NewPCG(38, 39))
	vals := func() TW {
		switch r.IntN(4) {
		case 0:
			return Arith{}.Of(int64(r.IntN(11) - 5))
		case 1:
			return neg(Arith{}.Of(0))
		}
		return randTW(r, -110, 30)
	}
	for _, a := range []Arith{{}, {Accurate: true}} {
		for range 200000 {
			xr, xi, yr, yi := vals(), vals(), vals(), vals()
			re, im := a.CMul(xr, xi, yr, yi)
			wr := a.Sub(a.Mul(xr, yr), a.Mul(xi, yi))
			wi := a.Add(a.Mul(xr, yi), a.Mul(xi, yr))
			if !sameBits(re, wr) || !sameBits(im, wi) {
				t.Fatalf("%+v: CMul(%v, %v, %v, %v) = %v, %v; want %v, %v", a, xr, xi, yr, yi, re, im, wr, wi)
			}
		}
	}
}
