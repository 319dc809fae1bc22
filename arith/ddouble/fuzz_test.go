package ddouble

import (
	"math"
	"testing"
)

// inBoundRange reports whether a normalised double word is finite and far
// from underflow and overflow (so the proven bounds apply to it and to
// products and quotients of two such values).
func inBoundRange(x DD) bool {
	if x.Hi == 0 {
		return x.Lo == 0
	}
	_, e := math.Frexp(x.Hi)
	return !math.IsNaN(x.Hi) && !math.IsInf(x.Hi, 0) && e > -400 && e < 400
}

// FuzzAgainstOracle checks every operation on arbitrary pairs of double
// words (each pair renormalised with 2Sum) against the oracle: the
// arithmetic within its proven bound, the conversions and Lt exactly. The
// seeds run as a normal test; go test -fuzz FuzzAgainstOracle explores.
func FuzzAgainstOracle(f *testing.F) {
	f.Add(1.0, 0x1p-60, -1.0, 0x1p-61)
	f.Add(0.5, 0.0, 2.5, -0x1p-70)
	f.Add(0x1p62, -0.5, 3.0, 0.0)
	f.Add(-12289.0, 1e-13, 1.8205, 1e-17)
	f.Add(0x1p-100, 0x1p-160, 0x1p79, 1.0)
	f.Fuzz(func(t *testing.T, xh, xl, yh, yl float64) {
		s, e := twoSum(xh, xl)
		x := DD{s, e}
		s, e = twoSum(yh, yl)
		y := DD{s, e}
		if !inBoundRange(x) || !inBoundRange(y) || !isNormalised(x) || !isNormalised(y) {
			t.Skip()
		}
		bx, by := dd.Big(x), dd.Big(y)
		for _, c := range opCases {
			if (c.name == "sqrt" && x.Hi < 0) || ((c.name == "inv" || c.name == "div") && y.Hi == 0) {
				continue
			}
			a, b := x, y
			if c.name == "inv" {
				a = y // inv takes its operand first
			}
			bound, _ := dd.RelErrBound(c.name)
			if err := relErr(dd.Big(c.dd(a, b)), c.ora(dd.Big(a), dd.Big(b))); err > bound {
				t.Errorf("%s(%v, %v): relative error %.3g u^2 exceeds %.3g u^2", c.name, a, b, inU2(err), inU2(bound))
			}
		}
		if got, want := dd.Rint(x), ora.Rint(bx); got != want {
			t.Errorf("Rint(%v) = %d, want %d", x, got, want)
		}
		if got, want := dd.Floor(x), ora.Floor(bx); got != want {
			t.Errorf("Floor(%v) = %d, want %d", x, got, want)
		}
		if got, want := dd.Trunc(x), ora.Trunc(bx); got != want {
			t.Errorf("Trunc(%v) = %d, want %d", x, got, want)
		}
		if got, want := dd.Lt(x, y), bx.Cmp(by) < 0; got != want {
			t.Errorf("Lt(%v, %v) = %v, want %v", x, y, got, want)
		}
	})
}
