package falcon

import (
	"math"
	mrand "math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/internal/fips206"
)

// TestFIPS206InvSigma: FN-DSA's 1/sigma is the specification's formula
// correctly rounded to binary64, and round 3's table is one ulp above it
// at every degree.
func TestFIPS206InvSigma(t *testing.T) {
	for logn := uint(1); logn <= 10; logn++ {
		f, _ := arith.InvSigmaFormula(logn, 256).Float64()
		if got := fips206InvSigma[logn]; got != f {
			t.Errorf("logn %d: %x, formula rounds to %x", logn, got, f)
		}
		if r3 := arith.Binary64(arith.InvSigma(logn)); math.Float64bits(r3) != math.Float64bits(f)+1 {
			t.Errorf("logn %d: round 3's 1/sigma %x is not one ulp above %x", logn, r3, f)
		}
	}
}

// TestExpmP63FIPS206: FN-DSA's integer ApproxExp over native and emu64 equals
// the reference's emulated fpr_expm_p63 (emu64's ExpmP63, the same integer
// polynomial on trunc(2^63 x) and trunc(2^63 ccs)) on random inputs in its
// domain and at its edges, and is 0 at ccs = 1 as go-fn-dsa's is.
func TestExpmP63FIPS206(t *testing.T) {
	var n native.Arith
	var e emu64.Arith
	r := mrand.New(mrand.NewPCG(1, 206))
	xs := []float64{0, math.Ln2 - 0x1p-52, 0x1p-60}
	cs := []float64{0, 0.5, 1 - 0x1p-53, 0x1p-30}
	for range 20000 {
		xs = append(xs, r.Float64()*math.Ln2)
		cs = append(cs, r.Float64())
	}
	for i, x := range xs {
		c := cs[i%len(cs)]
		want := e.ExpmP63(e.FromFloat64(x), e.FromFloat64(c))
		if got := fips206.ExpmP63(n, x, c); got != want {
			t.Fatalf("native: fips206.ExpmP63(%x, %x) = %#x, fpr_expm_p63 %#x", x, c, got, want)
		}
		if got := fips206.ExpmP63(e, e.FromFloat64(x), e.FromFloat64(c)); got != want {
			t.Fatalf("emu64: fips206.ExpmP63(%x, %x) = %#x, fpr_expm_p63 %#x", x, c, got, want)
		}
	}
	if got := fips206.ExpmP63(n, 0.25, 1); got != 0 {
		t.Fatalf("ccs = 1: %#x, want 0", got)
	}
}
