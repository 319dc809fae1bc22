package triword

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestUnderflow measures what binary32's exponent range costs. Below
// 2^-126 limbs become subnormal and below 2^-149 they vanish, so a triple
// word near 2^e holds only about e+150 significant bits once e+150 < 72,
// and products lose their error terms. For results in bands from 2^-60
// down to 2^-140, it logs the worst relative error of each operation
// (operands chosen so that results land in the band) and the worst
// absolute error beyond the proven relative bound, in units of 2^-149,
// which must stay within underflowSlack.
func TestUnderflow(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 42))
	n := 20_000
	if testing.Short() {
		n = 1_000
	}
	var a Arith
	near := func(e int) TW { return randTW(r, e, e) }
	one := func() TW { return randTW(r, -2, 1) }
	type op struct {
		name  string
		run   func(e int) (x, y, res TW)
		check func(x, y, r TW) (float64, float64)
	}
	ops := []op{
		{"add", func(e int) (TW, TW, TW) { x, y := near(e), near(e-r.IntN(3)); return x, y, a.Add(x, y) }, relErrAdd},
		{"mul", func(e int) (TW, TW, TW) { x, y := near(e), one(); return x, y, a.Mul(x, y) }, relErrMul},
		{"mul-small", func(e int) (TW, TW, TW) { x, y := near(e/2), near(e-e/2); return x, y, a.Mul(x, y) }, relErrMul},
		{"div", func(e int) (TW, TW, TW) { x, y := near(e), one(); return x, y, a.Div(x, y) }, relErrDiv},
		{"inv", func(e int) (TW, TW, TW) { x := near(-e); return x, TW{}, a.Inv(x) }, relErrInv},
	}
	var b strings.Builder
	fmt.Fprintf(&b, "result band | %-9s | worst rel. error (bits) | worst excess over bound (x 2^-149)\n", "op")
	for _, e := range []int{-60, -80, -90, -100, -105, -110, -120, -130, -140} {
		for _, o := range ops {
			if o.name == "inv" && -e > 127 {
				continue
			}
			bound, _ := a.RelErrBound(strings.TrimSuffix(o.name, "-small"))
			worstRel, worstExcess := 0.0, 0.0
			for range n {
				x, y, res := o.run(e)
				if err := checkTW(res); err != nil {
					t.Errorf("%s at 2^%d: %v", o.name, e, err)
				}
				rel, mag := o.check(x, y, res)
				worstRel = math.Max(worstRel, rel)
				worstExcess = math.Max(worstExcess, (rel-bound)*mag/0x1p-149)
			}
			fmt.Fprintf(&b, "2^%-9d | %-9s | %9.3g (%5.1f)        | %.2f\n", e, o.name, worstRel, -math.Log2(worstRel), worstExcess)
			if worstExcess > underflowSlack {
				t.Errorf("%s with results near 2^%d: error %.2f x 2^-149 beyond the relative bound", o.name, e, worstExcess)
			}
		}
	}
	// What the import of a binary64 value keeps: its bits below 2^-149 are lost.
	for _, e := range []int{-90, -100, -105, -110, -120} {
		worst := 0.0
		for range n {
			v := math.Ldexp(1+r.Float64(), e)
			got := a.Float64(a.FromFloat64(v))
			worst = math.Max(worst, math.Abs(got-v)/v)
		}
		fmt.Fprintf(&b, "FromFloat64 at 2^%d: worst rel. error %.3g (%.1f bits kept of 53)\n", e, worst, -math.Log2(worst))
	}
	t.Log("\n" + b.String())
}
