package emu64_test

import (
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/emu64"
)

// TestStagedDefault checks that Staged with emu64's own stages, given
// explicitly, by default, or as the zero value, computes what Arith
// computes on random operands of every exponent, and that each stage is
// reached: a stage that changes results shows up in the operations that
// use it.
func TestStagedDefault(t *testing.T) {
	var a emu64.Arith
	explicit := emu64.NewStaged(emu64.Datapath{Pack: emu64.Pack, Norm64: emu64.Norm64, MantProduct: bits.Mul64, FixedProduct: bits.Mul64})
	variants := map[string]emu64.Staged{"zero": {}, "default": emu64.NewStaged(emu64.Datapath{}), "explicit": explicit}
	rng := rand.New(rand.NewPCG(8, 9))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for range n {
		x := emu64.FPR(rng.Uint64() &^ (1 << 62)) // exponents up to 2^1
		y := emu64.FPR(rng.Uint64() &^ (1 << 62))
		i, e := int64(rng.Uint64()), rng.IntN(200)-100
		ex := a.FromFloat64(rng.Float64() * 0.69)
		cc := a.FromFloat64(rng.Float64())
		for name, s := range variants {
			if s.Add(x, y) != a.Add(x, y) || s.Sub(x, y) != a.Sub(x, y) || s.Mul(x, y) != a.Mul(x, y) ||
				s.Sqr(x) != a.Sqr(x) || s.Div(x, y) != a.Div(x, y) || s.Inv(x) != a.Inv(x) ||
				s.Sqrt(x) != a.Sqrt(x) || s.Of(i) != a.Of(i) || s.Scaled(i, e) != a.Scaled(i, e) ||
				s.ExpmP63(ex, cc) != a.ExpmP63(ex, cc) {
				t.Fatalf("%s: results differ from Arith at x=%#x y=%#x i=%d e=%d", name, x, y, i, e)
			}
		}
	}
	// Each stage is reached by the operations that use it.
	zeroPack := emu64.NewStaged(emu64.Datapath{Pack: func(uint64, int, uint64) emu64.FPR { return 0 }})
	noNorm := emu64.NewStaged(emu64.Datapath{Norm64: func(m uint64, e int) (uint64, int) { return m, e }})
	noMant := emu64.NewStaged(emu64.Datapath{MantProduct: func(x, y uint64) (uint64, uint64) { return 0, 0 }})
	noFixed := emu64.NewStaged(emu64.Datapath{FixedProduct: func(x, y uint64) (uint64, uint64) { return 0, 0 }})
	x, y := a.Of(3), a.Of(5)
	if zeroPack.Add(x, y) != 0 || zeroPack.Mul(x, y) != 0 || zeroPack.Div(x, y) != 0 || zeroPack.Sqrt(x) != 0 || zeroPack.Scaled(3, 1) != 0 {
		t.Error("Pack not reached by every rounded operation")
	}
	if noNorm.Of(3) == a.Of(3) || noNorm.Add(x, a.Neg(a.Of(2))) == a.Of(1) {
		t.Error("Norm64 not reached by Of and Add")
	}
	if noMant.Mul(x, y) == a.Mul(x, y) || noMant.Div(x, y) != a.Div(x, y) {
		t.Error("MantProduct not reached by Mul alone")
	}
	if noFixed.ExpmP63(a.FromFloat64(0.5), a.FromFloat64(0.75)) != 0 || noFixed.Mul(x, y) != a.Mul(x, y) {
		t.Error("FixedProduct not reached by ExpmP63 alone")
	}
}
