package triword

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// randF32 returns a random finite binary32 value with an exponent in
// [emin, emax] (subnormal-grid rounding below 2^-126) and a random sign.
func randF32(r *rand.Rand, emin, emax int) float32 {
	return randLimb(r, emin+r.IntN(emax-emin+1))
}

// edgeF32 are binary32 values at the edges of the format and of rounding:
// zeros, powers of two, all-ones significands, the smallest and largest
// normals, subnormals.
var edgeF32 = []float32{
	0, float32(math.Copysign(0, -1)), 1, -1, 2, 0.5, 3, 1 + 0x1p-23, 1 - 0x1p-24, 2 - 0x1p-23,
	0x1.fffffep+62, 0x1p-126, 0x1.fffffep-126, 0x1p-149, 0x1p-140, 0x1.fffffep+40,
	16777215, 16777216, 16777217 - 1, 12289, 1.0 / 3, math.MaxFloat32 / 0x1p64,
}

func bigF(v ...float32) *big.Float {
	s := new(big.Float).SetPrec(1000)
	for _, x := range v {
		s.Add(s, new(big.Float).SetFloat64(float64(x)))
	}
	return s
}

// TestTwoSum checks 2Sum (any inputs) and Fast2Sum (|a| >= |b|, or sorted
// by fastTwoSumSorted) against math/big: s is the rounded sum and s + e
// the exact sum.
func TestTwoSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 300_000
	if testing.Short() {
		n = 10_000
	}
	check := func(name string, a, b, s, e float32) {
		t.Helper()
		if s != a+b {
			t.Fatalf("%s(%g, %g): s = %g, want RN(a+b) = %g", name, a, b, s, a+b)
		}
		if bigF(s, e).Cmp(bigF(a, b)) != 0 {
			t.Fatalf("%s(%g, %g) = (%g, %g): not exact", name, a, b, s, e)
		}
	}
	pairs := func(yield func(a, b float32) bool) {
		for _, a := range edgeF32 {
			for _, b := range edgeF32 {
				if !yield(a, b) {
					return
				}
			}
		}
		for range n {
			a := randF32(r, -149, 100)
			var b float32
			if r.IntN(2) == 0 {
				b = randF32(r, -149, 100)
			} else {
				ea := int(math.Float32bits(abs32(a))>>23) - 127
				b = randF32(r, max(ea-30, -149), min(ea+2, 100))
			}
			if !yield(a, b) {
				return
			}
		}
	}
	for a, b := range pairs {
		s, e := twoSum(a, b)
		check("twoSum", a, b, s, e)
		s, e = fastTwoSumSorted(a, b)
		check("fastTwoSumSorted", a, b, s, e)
		if abs32(a) < abs32(b) {
			a, b = b, a
		}
		s, e = fastTwoSum(a, b)
		check("fastTwoSum", a, b, s, e)
	}
}

// TestTwoProd checks 2Prod against math/big: p = RN(a*b) and p + e = a*b
// exactly whenever the error term is representable (at or above 2^-149);
// below, e is the error rounded to binary32.
func TestTwoProd(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 300_000
	if testing.Short() {
		n = 10_000
	}
	test := func(a, b float32) {
		p, e := twoProd(a, b)
		exact := new(big.Float).SetPrec(1000).Mul(bigF(a), bigF(b))
		if want, _ := exact.Float32(); p != want {
			t.Fatalf("twoProd(%g, %g): p = %g, want RN(ab) = %g", a, b, p, want)
		}
		res := new(big.Float).SetPrec(1000).Sub(exact, bigF(p))
		if want, _ := res.Float32(); e != want {
			t.Fatalf("twoProd(%g, %g): e = %g, want RN(ab - p) = %g", a, b, e, want)
		}
		if res.Cmp(bigF(e)) != 0 && math.Abs(float64(e)) >= 0x1p-126 {
			t.Fatalf("twoProd(%g, %g) = (%g, %g): inexact above the underflow threshold", a, b, p, e)
		}
	}
	for _, a := range edgeF32 {
		for _, b := range edgeF32 {
			if math.Abs(float64(a)*float64(b)) < math.MaxFloat32/2 {
				test(a, b)
			}
		}
	}
	for range n {
		test(randF32(r, -90, 60), randF32(r, -90, 60))
	}
}

// TestFMA32 checks the emulated FMA against the correctly rounded
// RN(a*b + c) from math/big, on random inputs and on inputs built so that
// a*b + c lies just off a binary32 midpoint by less than half a binary64
// ulp: there, rounding the binary64 sum to binary32 (double rounding) is
// wrong for about half the cases, and the test checks that it would be,
// so that it can catch a fused or double-rounded implementation.
func TestFMA32(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	n := 200_000
	if testing.Short() {
		n = 10_000
	}
	test := func(a, b, c float32) bool {
		got := fma32(a, b, c)
		exact := new(big.Float).SetPrec(1000).Mul(bigF(a), bigF(b))
		exact.Add(exact, bigF(c))
		want, _ := exact.Float32()
		if got != want || math.Signbit(float64(got)) != math.Signbit(float64(want)) && want != 0 {
			t.Fatalf("fma32(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
		// The round-to-odd path alone, which fma32 takes only near
		// midpoints and below the normal range, is exact everywhere.
		p := float64(float64(a) * float64(b))
		if odd := roundToOdd32(p, float64(c), p+float64(c)); math.Float32bits(odd) != math.Float32bits(got) {
			t.Fatalf("round to odd (%g, %g, %g) = %g, fma32 %g", a, b, c, odd, got)
		}
		naive := float32(float64(float64(a)*float64(b)) + float64(c))
		return naive != want
	}
	for range n {
		a, b := randF32(r, -70, 40), randF32(r, -70, 40)
		ea := int(math.Float32bits(abs32(a*b))>>23) - 127
		test(a, b, randF32(r, max(ea-40, -149), min(ea+30, 100)))
	}
	traps, wrong := 0, 0
	for range n / 10 {
		// c = w, a*b = ±h(1 - j^2 2^-46) with h = ulp(w)/2: a*b + c is
		// within h*j^2*2^-46 of the midpoint w ± h.
		w := abs32(randF32(r, -60, 60))
		h := ulp32(w) / 2
		j := float32(1 + r.IntN(200))
		k := r.IntN(20) - 10
		a := ldexp32(1+j*0x1p-23, k)
		b := ldexp32(1-j*0x1p-23, -k) * h
		if r.IntN(2) == 0 {
			b = -b
		}
		if r.IntN(2) == 0 {
			w, b = -w, -b
		}
		traps++
		if test(a, b, w) {
			wrong++
		}
	}
	t.Logf("midpoint traps: binary64-then-binary32 rounding is wrong in %d of %d", wrong, traps)
	if wrong == 0 {
		t.Error("no crafted case separates the FMA from double rounding")
	}
}

// TestVecSumVSEB checks that VecSum keeps the exact sum and that VSEB
// returns a P-nonoverlapping vector with the same exact sum, on the
// inputs Theorem 6 is about: the magnitude-sorted merge of the limbs of
// two triple words.
func TestVecSumVSEB(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 30_000
	if testing.Short() {
		n = 5_000
	}
	for range n {
		a := randTW(r, -60, 60)
		b := randTW(r, -60, 60)
		x := []float32{a.Hi, a.Mid, a.Lo, b.Hi, b.Mid, b.Lo}
		sort.SliceStable(x, func(i, j int) bool { return abs32(x[i]) > abs32(x[j]) })
		want := bigF(x...)
		v := slices.Clone(x)
		vecSum(v)
		if bigF(v...).Cmp(want) != 0 {
			t.Fatalf("VecSum(%v) = %v: sum changed", x, v)
		}
		var out [6]float32
		vseb(v, out[:])
		if bigF(out[:]...).Cmp(want) != 0 {
			t.Fatalf("VSEB(%v) = %v: sum changed", v, out)
		}
		for i := 1; i < 6; i++ {
			if out[i] != 0 && abs32(out[i]) >= ulp32(out[i-1]) {
				t.Fatalf("VSEB(%v) = %v: terms %d and %d overlap", v, out, i-1, i)
			}
		}
	}
}
