package cabi

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/fprlab/fprlab/internal/plugintest"
)

// TestBinary64FromParts: the binary64 example plugins (examples/double.c
// and examples/datapath.cpp, through examples/round_binary64.h) import any
// exact number of up to 256 bits rounded as binary64 rounds to nearest:
// ties to even, the carry into the exponent, overflow to infinity, gradual
// underflow, and exponents beyond int's range. The crafted cases' values
// are worked out by hand (each also checked against math/big's rounding);
// random significands of 1 to 256 bits over the whole range are checked
// against big.Float's Float64.
func TestBinary64FromParts(t *testing.T) {
	const two53 = 1 << 53
	ones := ^uint64(0)
	cases := []struct {
		name  string
		neg   bool
		limbs [4]uint64
		exp   int64
		want  float64
	}{
		{"exact 53 bits", false, [4]uint64{two53 - 1}, 0, two53 - 1},
		{"tie, even below", false, [4]uint64{two53 + 1}, 0, two53},
		{"tie, even above", false, [4]uint64{two53 + 3}, 0, two53 + 4},
		{"tie, negative", true, [4]uint64{two53 + 3}, 0, -(two53 + 4)},
		{"below the tie", false, [4]uint64{2*two53 + 1}, -1, two53},
		{"above the tie by a bit 200 places down", false, [4]uint64{1, 0, 0, (two53 + 1) << 8}, -200, two53 + 2},
		{"carry into the exponent", false, [4]uint64{2*two53 - 1}, 0, 2 * two53},
		{"256 bits of ones", false, [4]uint64{ones, ones, ones, ones}, -255, 2},
		{"256 bits, tie to even", false, [4]uint64{0, 0, 0, 1<<63 | 1<<10}, -255, 1},
		{"256 bits, just above the tie", false, [4]uint64{1, 0, 0, 1<<63 | 1<<10}, -255, 1 + 0x1p-52},
		{"256 bits, just below the tie", false, [4]uint64{ones, ones, ones, 1<<63 | 1<<10 - 1}, -255, 1},
		{"largest finite", false, [4]uint64{two53 - 1}, 971, math.MaxFloat64},
		{"tie below the largest, to even", false, [4]uint64{2*two53 - 3}, 970, 0x1.ffffffffffffep1023},
		{"tie above the largest: infinity", false, [4]uint64{2*two53 - 1}, 970, math.Inf(1)},
		{"beyond the range", true, [4]uint64{1}, 1024, math.Inf(-1)},
		{"exponent beyond int", false, [4]uint64{1}, 1<<31 + 5, math.Inf(1)},
		{"exponent far beyond int", false, [4]uint64{3}, 1 << 40, math.Inf(1)},
		{"smallest normal", false, [4]uint64{1}, -1022, 0x1p-1022},
		{"subnormal, exact", false, [4]uint64{5}, -1074, 5 * 0x1p-1074},
		{"subnormal, nearest up", false, [4]uint64{3}, -1076, 0x1p-1074},
		{"subnormal, nearest down", false, [4]uint64{5}, -1076, 0x1p-1074},
		{"subnormal, tie to even up", false, [4]uint64{3}, -1075, 0x1p-1073},
		{"subnormal, tie to even down", false, [4]uint64{5}, -1075, 0x1p-1073},
		{"half the smallest subnormal: zero", false, [4]uint64{1}, -1075, 0},
		{"just above half the smallest subnormal", true, [4]uint64{1, 1}, -1075 - 64, -0x1p-1074},
		{"below half the smallest subnormal", false, [4]uint64{ones}, -1075 - 64, 0},
		{"largest subnormal, exact", false, [4]uint64{1<<52 - 1}, -1074, 0x1p-1022 - 0x1p-1074},
		{"carry from subnormal to normal", false, [4]uint64{two53 - 1}, -1075, 0x1p-1022},
		{"subnormal, 256 bits, just above a tie", false, [4]uint64{1, 0, 0, 5 << 61}, -1074 - 254, 3 * 0x1p-1074},
		{"exponent below int", false, [4]uint64{ones, ones, ones, ones}, -1 << 40, 0},
		{"exponent just below the subnormals", false, [4]uint64{ones, ones, ones, ones}, -1401, 0},
	}
	r := rand.New(rand.NewPCG(5, 6))
	type draw struct {
		p    parts
		want float64
	}
	var random []draw
	for range 20000 {
		prec := 1 + r.IntN(256)
		m := new(big.Int)
		for range 4 {
			m.Lsh(m, 64).Or(m, new(big.Int).SetUint64(r.Uint64()))
		}
		m.Rsh(m, uint(256-prec)).SetBit(m, prec-1, 1)
		if r.IntN(4) == 0 { // the low bits all ones or all zeros: ties and carries
			b := uint(r.IntN(2))
			for i := range r.IntN(prec) {
				m.SetBit(m, i, b)
			}
		}
		e := int64(r.IntN(2500)) - 1400 - int64(prec)
		p := parts{kind: kindFinite, exponent: e, negative: int32(r.IntN(2))}
		for i := range p.limbs {
			p.limbs[i] = new(big.Int).Rsh(m, uint(64*i)).Uint64()
		}
		random = append(random, draw{p, bigFloat64(p)})
	}
	for _, src := range []string{"../../examples/double.c", "../../examples/datapath.cpp"} {
		path := plugintest.Build(t, src)
		a, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		check := func(name string, p parts, want float64) {
			t.Helper()
			v, err := a.fromParts(p)
			if err != nil {
				t.Fatalf("%s: %s: %v", src, name, err)
			}
			if got := math.Float64frombits(v.w[0]); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s: %s (M %#x, exponent %d): got %x, want %x", src, name, p.mantissa(), p.exponent, got, want)
			}
		}
		for _, c := range cases {
			p := parts{kind: kindFinite, exponent: c.exp, limbs: c.limbs}
			if c.neg {
				p.negative = 1
			}
			if b := bigFloat64(p); math.Float64bits(b) != math.Float64bits(c.want) && c.exp > math.MinInt32 && c.exp < math.MaxInt32 {
				t.Fatalf("%s: math/big rounds to %x, the case says %x", c.name, b, c.want)
			}
			check(c.name, p, c.want)
		}
		for i, d := range random {
			check("random draw "+strconv.Itoa(i), d.p, d.want)
		}
	}
}

// bigFloat64 is the finite p rounded to binary64 by math/big.
func bigFloat64(p parts) float64 {
	x := new(big.Float).SetInt(p.mantissa())
	x.SetMantExp(x, int(p.exponent))
	if p.negative != 0 {
		x.Neg(x)
	}
	f, _ := x.Float64()
	return f
}
