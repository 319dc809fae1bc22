package native_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

var nat native.Arith

// TestIntegerConversionsTable checks Rint (ties to even), Floor and Trunc
// on hand-derived cases: ties of both parities and signs, values just
// around 1/2, 2^52 and 2^63, and signed zeros (IEEE semantics: Floor(-0)
// is 0, unlike the emulation's -1).
func TestIntegerConversionsTable(t *testing.T) {
	for k, c := range []struct {
		x                  float64
		rint, floor, trunc int64
	}{
		{0, 0, 0, 0},
		{math.Copysign(0, -1), 0, 0, 0},
		{0.5, 0, 0, 0},
		{1.5, 2, 1, 1},
		{2.5, 2, 2, 2},
		{3.5, 4, 3, 3},
		{-0.5, 0, -1, 0},
		{-1.5, -2, -2, -1},
		{-2.5, -2, -3, -2},
		{0.49999999999999994, 0, 0, 0},
		{0.5000000000000001, 1, 0, 0},
		{-0.75, -1, -1, 0},
		{0.25, 0, 0, 0},
		{-0.25, 0, -1, 0},
		{2 - 0x1p-52, 2, 1, 1},
		{0x1p52 - 0.5, 1 << 52, 1<<52 - 1, 1<<52 - 1},
		{0x1p52 - 1.5, 1<<52 - 2, 1<<52 - 2, 1<<52 - 2},
		{0x1p51 + 0.5, 1 << 51, 1 << 51, 1 << 51},
		{-(0x1p52 - 0.5), -1 << 52, -1 << 52, -(1<<52 - 1)},
		{0x1p52 + 1, 1<<52 + 1, 1<<52 + 1, 1<<52 + 1},
		{-(0x1p53 + 2), -(1<<53 + 2), -(1<<53 + 2), -(1<<53 + 2)},
		{0x1p63 - 1024, 1<<63 - 1024, 1<<63 - 1024, 1<<63 - 1024},
		{-(0x1p63 - 1024), -(1<<63 - 1024), -(1<<63 - 1024), -(1<<63 - 1024)},
		{0x1p-1022, 0, 0, 0},
		{-0x1p-1074, 0, -1, 0},
	} {
		if got := nat.Rint(c.x); got != c.rint {
			t.Errorf("#%d: Rint(%v) = %d, want %d", k, c.x, got, c.rint)
		}
		if got := nat.Floor(c.x); got != c.floor {
			t.Errorf("#%d: Floor(%v) = %d, want %d", k, c.x, got, c.floor)
		}
		if got := nat.Trunc(c.x); got != c.trunc {
			t.Errorf("#%d: Trunc(%v) = %d, want %d", k, c.x, got, c.trunc)
		}
	}
}

// TestIntegerConversionsRandom compares Rint, Floor and Trunc with the
// math package's RoundToEven, Floor and Trunc (then converted, exactly,
// to int64) over |x| < 2^63: random magnitudes and exact ties k + 1/2.
func TestIntegerConversionsRandom(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 50_000
	}
	r := rand.New(rand.NewPCG(7, 11))
	for k := range n {
		var x float64
		if k%2 == 0 {
			e := r.IntN(71) - 8 // magnitudes 2^-8 .. 2^63 (exclusive)
			x = math.Float64frombits(uint64(e+1023)<<52 | r.Uint64()&(1<<52-1))
		} else {
			x = float64(r.Int64N(1<<r.IntN(53))) + 0.5
		}
		if r.IntN(2) == 0 {
			x = -x
		}
		if got, want := nat.Rint(x), int64(math.RoundToEven(x)); got != want {
			t.Fatalf("#%d: Rint(%v) = %d, want %d", k, x, got, want)
		}
		if got, want := nat.Floor(x), int64(math.Floor(x)); got != want {
			t.Fatalf("#%d: Floor(%v) = %d, want %d", k, x, got, want)
		}
		if got, want := nat.Trunc(x), int64(math.Trunc(x)); got != want {
			t.Fatalf("#%d: Trunc(%v) = %d, want %d", k, x, got, want)
		}
	}
}

// TestArithmeticTable checks the rounded and exact operations on
// hand-derived IEEE-754 results (round to nearest, ties to even), bit for
// bit.
func TestArithmeticTable(t *testing.T) {
	nz := math.Copysign(0, -1)
	for k, c := range []struct {
		name string
		got  float64
		want uint64
	}{
		{"1 + 2^-53 (tie, to even)", nat.Add(1, 0x1p-53), 0x3FF0000000000000},
		{"(1+2^-52) + 2^-53 (tie, to even)", nat.Add(1+0x1p-52, 0x1p-53), 0x3FF0000000000002},
		{"1 - 2^-54 (tie, to even)", nat.Sub(1, 0x1p-54), 0x3FF0000000000000},
		{"-0 + -0", nat.Add(nz, nz), 0x8000000000000000},
		{"-0 + +0", nat.Add(nz, 0), 0},
		{"3 * (1/3)", nat.Mul(3, 1.0/3), 0x3FF0000000000000},
		{"(1+2^-52)^2", nat.Sqr(1 + 0x1p-52), 0x3FF0000000000002},
		{"2^-520 * 2^-520 (subnormal)", nat.Mul(0x1p-520, 0x1p-520), 0x0000000400000000},
		{"1/3", nat.Div(1, 3), 0x3FD5555555555555},
		{"inv(3)", nat.Inv(3), 0x3FD5555555555555},
		{"inv(-0.5)", nat.Inv(-0.5), 0xC000000000000000},
		{"sqrt(2)", nat.Sqrt(2), 0x3FF6A09E667F3BCD},
		{"sqrt(-0)", nat.Sqrt(nz), 0x8000000000000000},
		{"half(-0)", nat.Half(nz), 0x8000000000000000},
		{"half(2^-1022)", nat.Half(0x1p-1022), 0x0008000000000000},
		{"double(-1.5)", nat.Double(-1.5), 0xC008000000000000},
		{"neg(0)", nat.Neg(0), 0x8000000000000000},
		{"of(2^53+1) (tie, to even)", nat.Of(1<<53 + 1), 0x4340000000000000},
		{"of(2^53+3) (tie, to even)", nat.Of(1<<53 + 3), 0x4340000000000002},
		{"of(MaxInt64)", nat.Of(math.MaxInt64), 0x43E0000000000000},
		{"of(MinInt64)", nat.Of(math.MinInt64), 0xC3E0000000000000},
		{"scaled(MaxInt64, -63)", nat.Scaled(math.MaxInt64, -63), 0x3FF0000000000000},
		{"scaled(1, -1074)", nat.Scaled(1, -1074), 0x0000000000000001},
		{"scaled(12289, 0) = fpr_q", nat.Scaled(12289, 0), 4667981563525332992},
		{"const(ln 2)", nat.Const(arith.Log2), 4604418534313441775},
		{"GM(4)", nat.GM(4), 4604544271217802189},
	} {
		if got := math.Float64bits(c.got); got != c.want {
			t.Errorf("#%d %s: got %#016x (%v), want %#016x", k, c.name, got, c.got, c.want)
		}
	}
	if nat.Lt(math.Copysign(0, -1), 0) || nat.Lt(0, math.Copysign(0, -1)) {
		t.Errorf("Lt orders -0 and +0")
	}
	if !nat.Lt(-1, -0.5) || nat.Lt(-0.5, -1) || nat.Lt(1, 1) {
		t.Errorf("Lt is wrong on -1, -0.5, 1")
	}
}

// TestExpmP63Reference checks ExpmP63 on inputs whose outputs were taken
// from the reference's native build (FALCON_FPNATIVE, no AVX2, no FMA,
// x86-64): the first five inputs of the emu64 package's reference test,
// plus x = 0, where the polynomial is exactly 1.
func TestExpmP63Reference(t *testing.T) {
	for k, c := range []struct {
		x, ccs uint64
		want   uint64
	}{
		{0x3fe2884651f70c4b, 0x3fd09dbd06b07d28, 0x129f71a7013d1d00},
		{0x3fb2019479d52b02, 0x3fd03f7ae52f8460, 0x1e49efbfe4780900},
		{0x3fe3bb26644a91b7, 0x3fe3950d1319da07, 0x2a47c252d52f4c00},
		{0x3fb4923d94e17ff8, 0x3f39d7fac3769800, 0x000bec92361ebde4},
		{0x3fcfeafaa077024e, 0x3fbd5f114bbecf28, 0x0b71ce871ef64480},
		{0, 0x3FE0000000000000, 1 << 62},
		{0, 0x3FF0000000000000, 1 << 63},
	} {
		x, ccs := math.Float64frombits(c.x), math.Float64frombits(c.ccs)
		if got := nat.ExpmP63(x, ccs); got != c.want {
			t.Errorf("#%d: ExpmP63(%v, %v) = %#016x, want %#016x", k, x, ccs, got, c.want)
		}
	}
}
