package triword

import (
	"math"
	"testing"
)

//go:noinline
func unguardedMulAdd(a, b, c float64) float64 { return a*b + c }

// TestFusionGuard shows whether this build contracts an unguarded a*b+c
// into an FMA (it does on arm64 and with GOAMD64=v3), so that a run of
// the tests on such a target is known to exercise the guards: the
// package's own products are all explicitly converted, and 2Prod stays
// exact either way.
func TestFusionGuard(t *testing.T) {
	a := 1 + 0x1p-30
	fused := unguardedMulAdd(a, a, -1) != float64(a*a)-1
	t.Logf("this build fuses an unguarded a*b+c: %v", fused)
	x := float32(1 + 0x1p-12)
	p, e := twoProd(x, x)
	if p != 1+0x1p-11 || e != 0x1p-24 {
		t.Errorf("twoProd(%g, %g) = (%g, %g), want (1+2^-11, 2^-24)", x, x, p, e)
	}
	if got := fma32(x, x, -1); got != float32(math.Ldexp(1, -11)+math.Ldexp(1, -24)) {
		t.Errorf("fma32 = %g", got)
	}
}
