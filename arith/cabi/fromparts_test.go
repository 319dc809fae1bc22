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
	random := randomParts(rand.New(rand.NewPCG(5, 6)), 20000)
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
		for i, p := range random {
			check("random draw "+strconv.Itoa(i), p, bigFloat64(p))
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

// TestTruncFromParts: examples/trunc.c at P bits imports any exact number
// of up to 256 bits truncated to P bits as math/big truncates it, then
// flushed to zero below 2^-1022 and saturated at its largest value
// (2^P-1) 2^(1024-P), as vprec:P:e11:rz does.
func TestTruncFromParts(t *testing.T) {
	path := plugintest.Build(t, "../../examples/trunc.c")
	for _, prec := range []int{11, 24, 40, 52} {
		a, err := Open(path + "@" + strconv.Itoa(prec))
		if err != nil {
			t.Fatal(err)
		}
		largest := math.Ldexp(math.Ldexp(1, prec)-1, 1024-prec)
		for i, p := range randomParts(rand.New(rand.NewPCG(7, uint64(prec))), 5000) {
			x := new(big.Float).SetInt(p.mantissa())
			x.SetMantExp(x, int(p.exponent))
			x.SetMode(big.ToZero).SetPrec(uint(prec))
			want, _ := x.Float64() // exact: x has P <= 52 bits, and the cases outside binary64's normal range are set below
			switch {
			case x.Cmp(big.NewFloat(0x1p-1022)) < 0:
				want = 0
			case x.Cmp(new(big.Float).SetFloat64(largest)) > 0:
				want = largest
			}
			if p.negative != 0 {
				want = -want
			}
			v, err := a.fromParts(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := math.Float64frombits(v.w[0]); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("P %d, draw %d (M %#x, exponent %d): got %x, want %x", prec, i, p.mantissa(), p.exponent, got, want)
			}
		}
	}
}

// randomParts draws n finite numbers with significands of 1 to 256 bits
// (a quarter with their low bits all ones or all zeros: ties, carries)
// and exponents putting them from far below 2^-1074 to beyond 2^1024.
func randomParts(r *rand.Rand, n int) []parts {
	var ps []parts
	for range n {
		prec := 1 + r.IntN(256)
		m := new(big.Int)
		for range 4 {
			m.Lsh(m, 64).Or(m, new(big.Int).SetUint64(r.Uint64()))
		}
		m.Rsh(m, uint(256-prec)).SetBit(m, prec-1, 1)
		if r.IntN(4) == 0 {
			b := uint(r.IntN(2))
			for i := range r.IntN(prec) {
				m.SetBit(m, i, b)
			}
		}
		p := parts{kind: kindFinite, exponent: int64(r.IntN(2500)) - 1400 - int64(prec), negative: int32(r.IntN(2))}
		for i := range p.limbs {
			p.limbs[i] = new(big.Int).Rsh(m, uint(64*i)).Uint64()
		}
		ps = append(ps, p)
	}
	return ps
}
