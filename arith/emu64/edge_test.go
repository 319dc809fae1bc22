package emu64_test

import (
	"math"
	"math/big"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
)

// u converts an integer result to the 64 bits the tables hold.
func u(i int64) uint64 { return uint64(i) }

const (
	pz  = 0x0000000000000000 // +0
	nz  = 0x8000000000000000 // -0
	one = 0x3FF0000000000000
	mn  = 0x0010000000000000 // 2^-1022, the smallest normal
)

// edgeCases lists hand-derived results: emu is what the reference's
// emulation returns, ieee what IEEE-754 binary64 with round to nearest even
// returns (and so what native returns). They differ only in the documented
// places. noIEEE marks emulation-only facts (IEEE gives NaN or the native
// backend is not comparable).
var edgeCases = []struct {
	op     string
	x, y   float64
	i      int64
	e      int
	emu    uint64
	ieee   uint64
	noIEEE bool
}{
	// Signed zeros in addition: only -0 + -0 is -0.
	{op: "add", x: 0, y: 0, emu: pz, ieee: pz},
	{op: "add", x: 0, y: math.Copysign(0, -1), emu: pz, ieee: pz},
	{op: "add", x: math.Copysign(0, -1), y: 0, emu: pz, ieee: pz},
	{op: "add", x: math.Copysign(0, -1), y: math.Copysign(0, -1), emu: nz, ieee: nz},
	{op: "sub", x: math.Copysign(0, -1), y: 0, emu: nz, ieee: nz},
	{op: "sub", x: 0, y: math.Copysign(0, -1), emu: pz, ieee: pz},
	{op: "add", x: 1, y: -1, emu: pz, ieee: pz},
	{op: "add", x: -1, y: 1, emu: pz, ieee: pz},
	{op: "sub", x: -3, y: -3, emu: pz, ieee: pz},
	// Rounding ties in addition: 1 + 2^-53 is half-way, ties to even.
	{op: "add", x: 1, y: 0x1p-53, emu: one, ieee: one},
	{op: "add", x: 1, y: 0x1p-53 + 0x1p-105, emu: 0x3FF0000000000001, ieee: 0x3FF0000000000001},
	{op: "add", x: 1 + 0x1p-52, y: 0x1p-53, emu: 0x3FF0000000000002, ieee: 0x3FF0000000000002},
	{op: "sub", x: 1, y: 0x1p-54, emu: one, ieee: one},
	{op: "sub", x: 1, y: 0x1p-53, emu: 0x3FEFFFFFFFFFFFFF, ieee: 0x3FEFFFFFFFFFFFFF},
	{op: "add", x: 0x1p52, y: 0.5, emu: 0x4330000000000000, ieee: 0x4330000000000000},
	{op: "add", x: 0x1p52 + 1, y: 0.5, emu: 0x4330000000000002, ieee: 0x4330000000000002},
	{op: "add", x: 1, y: 0x1p-60, emu: one, ieee: one},
	// An exact result just above 2^-1022 is normal; 2^-1073 is not.
	{op: "sub", x: 0x1p-1021 * (1 + 0x1p-52), y: 0x1p-1021, emu: pz, ieee: 0x0000000000000002},
	{op: "add", x: -0x1p-1021 * (1 + 0x1p-52), y: 0x1p-1021, emu: nz, ieee: 0x8000000000000002},
	{op: "sub", x: 0x1p-1021, y: 0x1p-1022, emu: mn, ieee: mn},

	// Multiplication.
	{op: "mul", x: 1 + 0x1p-52, y: 1 + 0x1p-52, emu: 0x3FF0000000000002, ieee: 0x3FF0000000000002},
	{op: "mul", x: 1 - 0x1p-53, y: 1 - 0x1p-53, emu: 0x3FEFFFFFFFFFFFFE, ieee: 0x3FEFFFFFFFFFFFFE},
	{op: "mul", x: 3, y: 1.0 / 3, emu: one, ieee: one}, // 1 - 2^-54: a tie, to even
	{op: "mul", x: math.Copysign(0, -1), y: 5, emu: nz, ieee: nz},
	{op: "mul", x: 0, y: -5, emu: nz, ieee: nz},
	{op: "sqr", x: -3, emu: 0x4022000000000000, ieee: 0x4022000000000000},
	// Products in the subnormal range are flushed to a signed zero, even
	// when IEEE rounds them up to 2^-1022.
	{op: "mul", x: 0x1p-520, y: 0x1p-520, emu: pz, ieee: 0x0000000400000000},
	{op: "mul", x: -0x1p-520, y: 0x1p-520, emu: nz, ieee: 0x8000000400000000},
	{op: "mul", x: 0x1p-1022, y: 0.5, emu: pz, ieee: 0x0008000000000000},
	{op: "mul", x: 1 - 0x1p-53, y: 0x1p-1022, emu: pz, ieee: mn},
	{op: "mul", x: 0x1p-600, y: 0x1p-600, emu: pz, ieee: pz},
	{op: "mul", x: 0x1p-511, y: 0x1p-511, emu: mn, ieee: mn},
	{op: "sqr", x: 0x1p-520, emu: pz, ieee: 0x0000000400000000},

	// Division and inverse.
	{op: "div", x: 1, y: 3, emu: 0x3FD5555555555555, ieee: 0x3FD5555555555555},
	{op: "div", x: -6, y: 3, emu: 0xC000000000000000, ieee: 0xC000000000000000},
	{op: "div", x: 0, y: -3, emu: pz, ieee: nz},                    // 0/y is +0
	{op: "div", x: math.Copysign(0, -1), y: 3, emu: pz, ieee: nz},  // 0/y is +0
	{op: "div", x: math.Copysign(0, -1), y: -3, emu: pz, ieee: pz}, // 0/y is +0
	{op: "div", x: 0x1p-1000, y: 0x1p30, emu: pz, ieee: 0x0000100000000000},
	{op: "inv", x: 3, emu: 0x3FD5555555555555, ieee: 0x3FD5555555555555},
	{op: "inv", x: -0.5, emu: 0xC000000000000000, ieee: 0xC000000000000000},
	{op: "inv", x: 0x1p1023, emu: pz, ieee: 0x0008000000000000},
	{op: "inv", x: 0x1p1022, emu: mn, ieee: mn},

	// Square root: the sign of the operand is ignored.
	{op: "sqrt", x: 2, emu: 0x3FF6A09E667F3BCD, ieee: 0x3FF6A09E667F3BCD},
	{op: "sqrt", x: 4, emu: 0x4000000000000000, ieee: 0x4000000000000000},
	{op: "sqrt", x: 0, emu: pz, ieee: pz},
	{op: "sqrt", x: math.Copysign(0, -1), emu: pz, ieee: nz},
	{op: "sqrt", x: 0x1p-1022, emu: 0x2000000000000000, ieee: 0x2000000000000000},
	{op: "sqrt", x: math.MaxFloat64, emu: 0x5FEFFFFFFFFFFFFF, ieee: 0x5FEFFFFFFFFFFFFF},
	{op: "sqrt", x: -4, emu: 0x4000000000000000, noIEEE: true},

	// Exact operations.
	{op: "half", x: 3, emu: 0x3FF8000000000000, ieee: 0x3FF8000000000000},
	{op: "half", x: 0, emu: pz, ieee: pz},
	{op: "half", x: math.Copysign(0, -1), emu: pz, ieee: nz},
	{op: "half", x: 0x1p-1021, emu: mn, ieee: mn},
	{op: "half", x: 0x1p-1022, emu: pz, ieee: 0x0008000000000000},
	{op: "half", x: -1.5 * 0x1p-1022, emu: 0x8008000000000000, ieee: 0x800C000000000000},
	{op: "double", x: 0, emu: pz, ieee: pz},
	{op: "double", x: math.Copysign(0, -1), emu: nz, ieee: nz},
	{op: "double", x: -1.5, emu: 0xC008000000000000, ieee: 0xC008000000000000},
	{op: "double", x: 0x1p-1022, emu: 0x0020000000000000, ieee: 0x0020000000000000},
	{op: "neg", x: 0, emu: nz, ieee: nz},
	{op: "neg", x: math.Copysign(0, -1), emu: pz, ieee: pz},

	// Integer to float: rounding at 2^53 and 2^63, int64 extremes.
	{op: "of", i: 0, emu: pz, ieee: pz},
	{op: "of", i: -1, emu: 0xBFF0000000000000, ieee: 0xBFF0000000000000},
	{op: "of", i: 1<<53 + 1, emu: 0x4340000000000000, ieee: 0x4340000000000000},
	{op: "of", i: 1<<53 + 3, emu: 0x4340000000000002, ieee: 0x4340000000000002},
	{op: "of", i: -(1<<53 + 3), emu: 0xC340000000000002, ieee: 0xC340000000000002},
	{op: "of", i: math.MaxInt64, emu: 0x43E0000000000000, ieee: 0x43E0000000000000},
	{op: "of", i: math.MaxInt64 - 511, emu: 0x43E0000000000000, ieee: 0x43E0000000000000},
	{op: "of", i: math.MaxInt64 - 512, emu: 0x43DFFFFFFFFFFFFF, ieee: 0x43DFFFFFFFFFFFFF},
	{op: "of", i: 1<<63 - 1536, emu: 0x43DFFFFFFFFFFFFE, ieee: 0x43DFFFFFFFFFFFFE},
	{op: "of", i: math.MinInt64, emu: 0xC3E0000000000000, ieee: 0xC3E0000000000000},
	{op: "of", i: math.MinInt64 + 1, emu: 0xC3E0000000000000, ieee: 0xC3E0000000000000},
	{op: "of", i: 12289, emu: 4667981563525332992, ieee: 4667981563525332992}, // fpr_q
	{op: "scaled", i: math.MaxInt64, e: -63, emu: one, ieee: one},
	{op: "scaled", i: 1, e: 1023, emu: 0x7FE0000000000000, ieee: 0x7FE0000000000000},
	{op: "scaled", i: 1, e: -1022, emu: mn, ieee: mn},
	{op: "scaled", i: 1, e: -1074, emu: pz, ieee: 0x0000000000000001},
	{op: "scaled", i: -3, e: -1074, emu: nz, ieee: 0x8000000000000003},
	{op: "scaled", i: 1<<53 - 1, e: -1075, emu: pz, ieee: mn},

	// Float to integer.
	{op: "rint", x: 0.5, emu: u(0), ieee: u(0)},
	{op: "rint", x: 1.5, emu: u(2), ieee: u(2)},
	{op: "rint", x: 2.5, emu: u(2), ieee: u(2)},
	{op: "rint", x: 3.5, emu: u(4), ieee: u(4)},
	{op: "rint", x: -0.5, emu: u(0), ieee: u(0)},
	{op: "rint", x: -1.5, emu: u(-2), ieee: u(-2)},
	{op: "rint", x: -2.5, emu: u(-2), ieee: u(-2)},
	{op: "rint", x: 0.49999999999999994, emu: u(0), ieee: u(0)},
	{op: "rint", x: 0.5000000000000001, emu: u(1), ieee: u(1)},
	{op: "rint", x: -0.75, emu: u(-1), ieee: u(-1)},
	{op: "rint", x: 0x1p52 - 0.5, emu: u(1 << 52), ieee: u(1 << 52)},
	{op: "rint", x: 0x1p52 - 1.5, emu: u(1<<52 - 2), ieee: u(1<<52 - 2)},
	{op: "rint", x: 0x1p51 + 0.5, emu: u(1 << 51), ieee: u(1 << 51)},
	{op: "rint", x: -(0x1p52 - 0.5), emu: u(-1 << 52), ieee: u(-1 << 52)},
	{op: "rint", x: 0x1p52 + 1, emu: u(1<<52 + 1), ieee: u(1<<52 + 1)},
	{op: "rint", x: 0x1p63 - 1024, emu: u(1<<63 - 1024), ieee: u(1<<63 - 1024)},
	{op: "rint", x: -(0x1p63 - 1024), emu: u(-(1<<63 - 1024)), ieee: u(-(1<<63 - 1024))},
	{op: "rint", x: math.Copysign(0, -1), emu: u(0), ieee: u(0)},
	{op: "rint", x: 0x1p-1022, emu: u(0), ieee: u(0)},
	{op: "floor", x: math.Copysign(0, -1), emu: u(-1), ieee: u(0)}, // Floor(-0) = -1
	{op: "floor", x: 0, emu: u(0), ieee: u(0)},
	{op: "floor", x: 0.5, emu: u(0), ieee: u(0)},
	{op: "floor", x: -0.5, emu: u(-1), ieee: u(-1)},
	{op: "floor", x: -1, emu: u(-1), ieee: u(-1)},
	{op: "floor", x: -1.5, emu: u(-2), ieee: u(-2)},
	{op: "floor", x: -0x1p-1022, emu: u(-1), ieee: u(-1)},
	{op: "floor", x: -(0x1p52 - 0.5), emu: u(-1 << 52), ieee: u(-1 << 52)},
	{op: "floor", x: 0x1p52 - 0.5, emu: u(1<<52 - 1), ieee: u(1<<52 - 1)},
	{op: "floor", x: -(0x1p63 - 1024), emu: u(-(1<<63 - 1024)), ieee: u(-(1<<63 - 1024))},
	{op: "trunc", x: -1.5, emu: u(-1), ieee: u(-1)},
	{op: "trunc", x: -0.5, emu: u(0), ieee: u(0)},
	{op: "trunc", x: 2 - 0x1p-52, emu: u(1), ieee: u(1)},
	{op: "trunc", x: math.Copysign(0, -1), emu: u(0), ieee: u(0)},
	{op: "trunc", x: 0x1p63 - 1024, emu: u(1<<63 - 1024), ieee: u(1<<63 - 1024)},
	{op: "trunc", x: -(0x1p52 - 0.5), emu: u(-(1<<52 - 1)), ieee: u(-(1<<52 - 1))},
	{op: "trunc", x: 0x1p63, emu: u(0), noIEEE: true}, // outside |x| < 2^63

	// Comparison: the bit patterns of -0 and +0 are ordered.
	{op: "lt", x: math.Copysign(0, -1), y: 0, emu: 1, ieee: 0},
	{op: "lt", x: 0, y: math.Copysign(0, -1), emu: 0, ieee: 0},
	{op: "lt", x: math.Copysign(0, -1), y: math.Copysign(0, -1), emu: 0, ieee: 0},
	{op: "lt", x: -1, y: -0.5, emu: 1, ieee: 1},
	{op: "lt", x: -0.5, y: -1, emu: 0, ieee: 0},
	{op: "lt", x: -1, y: -1, emu: 0, ieee: 0},
	{op: "lt", x: 1, y: 1 + 0x1p-52, emu: 1, ieee: 1},
	{op: "lt", x: -0x1p-1022, y: 0, emu: 1, ieee: 1},
	{op: "lt", x: 0, y: -0x1p-1022, emu: 0, ieee: 0},
	{op: "lt", x: -math.MaxFloat64, y: math.MaxFloat64, emu: 1, ieee: 1},

	// ExpmP63: at x = 0 the polynomial is exactly 1. ccs = 1 is outside
	// the emulation's range: Trunc(2^63) = 0 makes the result 0.
	{op: "expm", x: 0, y: 0.5, emu: 1 << 62, ieee: 1 << 62},
	{op: "expm", x: 0, y: 0, emu: 0, ieee: 0},
	{op: "expm", x: 0.25, y: 0, emu: 0, ieee: 0},
	{op: "expm", x: 0.5, y: 1, emu: 0, noIEEE: true},
}

func TestEdgeCases(t *testing.T) {
	byName := map[string]op{}
	for _, o := range ops() {
		byName[o.name] = o
	}
	byName["expm"] = op{name: "expm", kind: kInt,
		emu: func(o operands) uint64 { return emu.ExpmP63(ef(o.x), ef(o.y)) },
		nat: func(o operands) uint64 { return nat.ExpmP63(o.x, o.y) },
	}
	for k, c := range edgeCases {
		o, ok := byName[c.op]
		if !ok {
			t.Fatalf("#%d: unknown op %q", k, c.op)
		}
		in := operands{x: c.x, y: c.y, i: c.i, e: c.e}
		if got := o.emu(in); got != c.emu {
			t.Errorf("#%d: %s: want emu64 %#016x", k, describe(o, in, got, o.nat(in)), c.emu)
		}
		if c.noIEEE {
			continue
		}
		if got := o.nat(in); got != c.ieee {
			t.Errorf("#%d: %s: want native (IEEE) %#016x", k, describe(o, in, o.emu(in), got), c.ieee)
		}
	}
}

// TestConversions checks the import and export of values: FromFloat64
// flushes subnormals to a zero of the same sign and keeps everything else,
// Float64 and Big are exact, and Const and GM give the reference's bits.
func TestConversions(t *testing.T) {
	for k, c := range []struct {
		in   float64
		want uint64
	}{
		{0x1p-1074, pz},
		{-0x1p-1074, nz},
		{math.Float64frombits(0x000FFFFFFFFFFFFF), pz},
		{math.Float64frombits(0x800FFFFFFFFFFFFF), nz},
		{0x1p-1022, mn},
		{math.Copysign(0, -1), nz},
		{1.0 / 3, 0x3FD5555555555555},
		{-math.MaxFloat64, 0xFFEFFFFFFFFFFFFF},
	} {
		x := emu.FromFloat64(c.in)
		if uint64(x) != c.want {
			t.Errorf("#%d: FromFloat64(%v) = %#016x, want %#016x", k, c.in, uint64(x), c.want)
		}
		if f := emu.Float64(x); math.Float64bits(f) != c.want {
			t.Errorf("#%d: Float64(%#016x) = %#016x", k, uint64(x), math.Float64bits(f))
		}
		b := emu.Big(x)
		want := new(big.Float).SetFloat64(math.Float64frombits(c.want))
		if b.Cmp(want) != 0 || b.Signbit() != want.Signbit() {
			t.Errorf("#%d: Big(%#016x) = %g, want %g", k, uint64(x), b, want)
		}
	}
	// A pattern with exponent field 2047 (an overflow's leftover) is read
	// as a number, not rejected.
	if b := emu.Big(emu64.FPR(0x7FF0000000000000)); b.MantExp(nil) != 1025 {
		t.Errorf("Big(0x7FF0000000000000) = %g, want 2^1024", b)
	}

	for k, c := range []struct {
		c    arith.Constant
		want uint64
	}{
		// fpr.h's FPEMU bit patterns.
		{arith.Q, 4667981563525332992},
		{arith.InvQ, 4545632735260551042},
		{arith.Log2, 4604418534313441775},
		{arith.InvLog2, 4609176140021203710},
		{arith.InvSqrt2, 4604544271217802189},
		{arith.PTwo63, 4890909195324358656},
		{arith.MTwo31m1, 13970166044099084288},
		{arith.InvSigma(10), 4573496814039276259},
		{arith.SigmaMin(9), 4608433670533905013},
	} {
		if got := uint64(emu.Const(c.c)); got != c.want {
			t.Errorf("#%d: Const(%v) = %d, want %d", k, c.c, got, c.want)
		}
	}
	// fpr_gm_tab entries 2..5: -0 and 1 (the root at angle pi/2 as
	// stored), then the root at pi/4.
	for k, want := range map[int]uint64{2: nz, 3: one, 4: 4604544271217802189, 5: 4604544271217802189} {
		if got := uint64(emu.GM(k)); got != want {
			t.Errorf("GM(%d) = %d, want %d", k, got, want)
		}
	}
}

// TestRegistered checks that the backend is available by name with the
// right value type.
func TestRegistered(t *testing.T) {
	b, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Impl.(arith.Arith[emu64.FPR]); !ok || b.Bits != 53 {
		t.Errorf("emu64 registered as %T with %d bits", b.Impl, b.Bits)
	}
}
