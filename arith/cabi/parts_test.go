package cabi

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestPartsFloat64: float64Parts is exact (its big value equals the
// binary64 number) and float64 inverts it, zeros' signs, infinities,
// subnormals and NaN included.
func TestPartsFloat64(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, math.MaxFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022,
		0x1.fffffffffffffp-1023, math.Inf(1), math.Inf(-1), 1.0 / 3, -12289}
	for range 20000 {
		xs = append(xs, math.Float64frombits(r.Uint64()))
	}
	for _, x := range xs {
		p := float64Parts(x)
		if err := p.check(); err != nil {
			t.Fatalf("%g: %v", x, err)
		}
		got := p.float64()
		if math.IsNaN(x) {
			if !math.IsNaN(got) || p.kind != kindNaN {
				t.Fatalf("NaN decodes to kind %d, %g", p.kind, got)
			}
			continue
		}
		if math.Float64bits(got) != math.Float64bits(x) {
			t.Fatalf("%g (%#x): round trip gives %g", x, math.Float64bits(x), got)
		}
		if want := new(big.Float).SetFloat64(x); p.big().Cmp(want) != 0 || p.big().Signbit() != want.Signbit() {
			t.Fatalf("%g: big gives %v", x, p.big())
		}
	}
}

// TestPartsWide: values of up to 256 bits survive bigParts and big
// exactly, and float64 rounds them as big.Float does (to nearest even,
// gradual underflow, overflow to infinity); floor63 is floor(2^63 y)
// saturated.
func TestPartsWide(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	two63 := new(big.Float).SetMantExp(big.NewFloat(1), 63)
	maxU := new(big.Float).SetUint64(math.MaxUint64)
	for i := range 20000 {
		prec := uint(1 + r.IntN(256))
		m := new(big.Int)
		for range 4 {
			m.Lsh(m, 64).Or(m, new(big.Int).SetUint64(r.Uint64()))
		}
		m.Rsh(m, 256-prec)
		if m.Sign() == 0 {
			continue
		}
		x := new(big.Float).SetPrec(prec).SetInt(m)
		e := r.IntN(2300) - 1150 - int(prec)
		if i%3 == 0 { // around [2^-64, 4), where floor63 neither saturates nor vanishes
			e = r.IntN(66) - 64 - int(prec)
		}
		x.SetMantExp(x, e)
		if i%2 == 1 {
			x.Neg(x)
		}
		p, ok := bigParts(x)
		if !ok {
			t.Fatalf("%v (%d bits): not representable", x, prec)
		}
		if err := p.check(); err != nil {
			t.Fatal(err)
		}
		if p.big().Cmp(x) != 0 {
			t.Fatalf("%v: big gives %v", x, p.big())
		}
		want, _ := x.Float64()
		if got := p.float64(); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("%v: float64 %g, want %g", x, got, want)
		}
		y := new(big.Float).Mul(new(big.Float).SetPrec(prec+64).Set(x), two63)
		var wantF uint64
		switch {
		case y.Sign() <= 0:
		case y.Cmp(maxU) > 0:
			wantF = math.MaxUint64
		default:
			wantF, _ = y.Uint64()
		}
		if got := floor63(p); got != wantF {
			t.Fatalf("floor63(%v) = %d, want %d", x, got, wantF)
		}
	}
}

// TestPartsExponentRange: a decoded exponent beyond ±2^40 is refused
// (INT64_MAX used to wrap around into a zero); the bound itself and the
// exponents big.Float saturates are accepted.
func TestPartsExponentRange(t *testing.T) {
	for i, c := range []struct {
		e  int64
		ok bool
	}{{math.MaxInt64, false}, {math.MinInt64, false}, {1<<40 + 1, false}, {-(1<<40 + 1), false}, {1 << 40, true}, {-(1 << 40), true}, {math.MaxInt32, true}} {
		p := parts{kind: kindFinite, exponent: c.e, limbs: [4]uint64{1}}
		if err := p.check(); (err == nil) != c.ok {
			t.Errorf("case %d: exponent %d: check gives %v, want ok %v", i, c.e, err, c.ok)
		} else if err == nil && !p.big().IsInf() && c.e > 0 {
			t.Errorf("case %d: exponent %d: big gives %v, want +Inf (saturated)", i, c.e, p.big())
		}
	}
}
