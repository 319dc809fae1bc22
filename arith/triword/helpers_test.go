package triword

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// randLimb returns a random binary32 value with exponent e (magnitude in
// [2^e, 2^(e+1)), rounded to the subnormal grid below 2^-126) and a random
// sign. Significands are random, all ones, a power of two, or random with
// the low half clear, to reach carries and exact cancellations.
func randLimb(r *rand.Rand, e int) float32 {
	var m uint32
	switch k := r.IntN(10); {
	case k < 7:
		m = 1<<23 | r.Uint32()&(1<<23-1)
	case k == 7:
		m = 1<<24 - 1
	case k == 8:
		m = 1 << 23
	default:
		m = 1<<23 | r.Uint32()&(1<<23-1)&^(1<<12-1)
	}
	v := float32(math.Ldexp(float64(m), e-23))
	if r.IntN(2) == 0 {
		v = -v
	}
	return v
}

// randTW returns a valid triple word whose head has an exponent in
// [emin, emax]: three random limbs at decreasing exponents (sometimes
// overlapping, sometimes far apart or zero) normalised by ToTW, which
// keeps their exact sum.
func randTW(r *rand.Rand, emin, emax int) TW {
	e0 := emin + r.IntN(emax-emin+1)
	x0 := randLimb(r, e0)
	var x1, x2 float32
	if r.IntN(16) != 0 {
		e1 := e0 - 22 - r.IntN(8)
		x1 = randLimb(r, e1)
		if r.IntN(16) != 0 {
			x2 = randLimb(r, e1-22-r.IntN(8))
		}
	}
	return toTW(x0, x1, x2)
}

// absTW is |x|.
func absTW(x TW) TW {
	if x.Hi < 0 {
		return neg(x)
	}
	return x
}

// ulp32 is the unit in the last place of x in binary32, including the
// subnormal range (where it is 2^-149); ulp32(0) = 0.
func ulp32(x float32) float32 {
	e := int(math.Float32bits(x) >> 23 & 0xFF)
	if x == 0 {
		return 0
	}
	if e == 0 {
		e = 1
	}
	return float32(math.Ldexp(1, e-127-23))
}

// checkTW reports whether x is a triple word in the paper's sense
// (Definition 5, P-nonoverlapping): finite limbs, |Mid| < ulp(Hi) and
// |Lo| < ulp(Mid), zeros only at the end. ulp is binary32's, so that a
// limb in the subnormal range is judged on the grid it lives on.
func checkTW(x TW) error {
	for _, l := range [3]float32{x.Hi, x.Mid, x.Lo} {
		if math.IsNaN(float64(l)) || math.IsInf(float64(l), 0) {
			return fmt.Errorf("non-finite limb in %v", x)
		}
	}
	if abs32(x.Mid) >= ulp32(x.Hi) && x.Mid != 0 {
		return fmt.Errorf("|Mid| >= ulp(Hi) in %v", x)
	}
	if abs32(x.Lo) >= ulp32(x.Mid) && x.Lo != 0 {
		return fmt.Errorf("|Lo| >= ulp(Mid) in %v", x)
	}
	return nil
}
