package oracle

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/native"
)

// randNormal returns a random binary64 value with a uniformly random
// significand, exponent in [emin, emax] and sign.
func randNormal(rng *rand.Rand, emin, emax int) float64 {
	m := rng.Uint64()>>12 | 1<<52
	x := math.Ldexp(float64(m), rng.IntN(emax-emin+1)+emin-52)
	if rng.IntN(2) == 0 {
		x = -x
	}
	return x
}

// TestVPrec53MatchesNative checks that vprec:53 rounds exactly as hardware
// binary64 does: for random inputs whose results stay in the normal range,
// the SHA-256 digests of all results of add, sub, mul, sqr, div, inv, sqrt
// and of agree bit for bit.
func TestVPrec53MatchesNative(t *testing.T) {
	matchesNative(t, mustVirtual(t, 53), 21)
}

// matchesNative compares v's add, sub, mul, sqr, div, inv, sqrt and of
// with hardware binary64 on random operands whose results stay normal:
// the SHA-256 digests of all results must agree.
func matchesNative(t *testing.T, v Arith, seed uint64) {
	t.Helper()
	var nat native.Arith
	n := 200000
	if testing.Short() {
		n = 10000
	}
	hv, hn := sha256.New(), sha256.New()
	put := func(h hash.Hash, x float64) {
		h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(x)))
	}
	rng := rand.New(rand.NewPCG(seed, seed+1))
	mismatches := 0
	check := func(op string, got, want float64, x, y float64) {
		put(hv, got)
		put(hn, want)
		if math.Float64bits(got) != math.Float64bits(want) && mismatches < 5 {
			mismatches++
			t.Errorf("%s(%v, %v): %s %v, native %v", op, x, y, v.String(), got, want)
		}
	}
	for i := 0; i < n; i++ {
		// Exponents within +-400 keep every result normal; a quarter of
		// the pairs have close exponents so that sums cancel.
		x := randNormal(rng, -400, 400)
		y := randNormal(rng, -400, 400)
		if i%4 == 0 {
			e := math.Ilogb(x)
			y = randNormal(rng, e-3, e+3)
		}
		bx, by := v.FromFloat64(x), v.FromFloat64(y)
		check("add", v.Float64(v.Add(bx, by)), nat.Add(x, y), x, y)
		check("sub", v.Float64(v.Sub(bx, by)), nat.Sub(x, y), x, y)
		check("mul", v.Float64(v.Mul(bx, by)), nat.Mul(x, y), x, y)
		check("sqr", v.Float64(v.Sqr(bx)), nat.Sqr(x), x, 0)
		check("div", v.Float64(v.Div(bx, by)), nat.Div(x, y), x, y)
		check("inv", v.Float64(v.Inv(by)), nat.Inv(y), y, 0)
		ax := math.Abs(x)
		check("sqrt", v.Float64(v.Sqrt(v.FromFloat64(ax))), nat.Sqrt(ax), ax, 0)
		k := int64(rng.Uint64() >> rng.IntN(64))
		if i%2 == 0 {
			k = -k
		}
		check("of", v.Float64(v.Of(k)), nat.Of(k), float64(k), 0)
	}
	if string(hv.Sum(nil)) != string(hn.Sum(nil)) {
		t.Fatalf("digests differ over %d samples: %s %x, native %x", n, v.String(), hv.Sum(nil), hn.Sum(nil))
	}
}

// TestVPrec24MatchesFloat32 checks the rounding of a different precision
// against independent hardware: binary32 results of add, sub, mul, div and
// sqrt, computed in binary64 and rounded once to binary32 (exact, since
// 53 >= 2*24+2), must equal vprec:24's.
func TestVPrec24MatchesFloat32(t *testing.T) {
	v := mustVirtual(t, 24)
	n := 100000
	if testing.Short() {
		n = 5000
	}
	rng := rand.New(rand.NewPCG(23, 24))
	f32 := func(x float64) float64 { return float64(float32(x)) }
	for i := 0; i < n; i++ {
		x := f32(randNormal(rng, -50, 50))
		y := f32(randNormal(rng, -50, 50))
		if i%4 == 0 {
			y = f32(randNormal(rng, math.Ilogb(x)-3, math.Ilogb(x)+3))
		}
		bx, by := v.FromFloat64(x), v.FromFloat64(y)
		cases := []struct {
			op        string
			got, want float64
		}{
			{"add", v.Float64(v.Add(bx, by)), f32(x + y)},
			{"sub", v.Float64(v.Sub(bx, by)), f32(x - y)},
			{"mul", v.Float64(v.Mul(bx, by)), f32(x * y)},
			{"div", v.Float64(v.Div(bx, by)), f32(x / y)},
			{"sqrt", v.Float64(v.Sqrt(v.FromFloat64(math.Abs(x)))), f32(math.Sqrt(math.Abs(x)))},
		}
		for _, c := range cases {
			if math.Float64bits(c.got) != math.Float64bits(c.want) {
				t.Fatalf("%s(%v, %v): vprec:24 %v, binary32 %v", c.op, x, y, c.got, c.want)
			}
		}
	}
}
