package arith

import (
	"bufio"
	"math"
	"math/big"
	"os"
	"strconv"
	"testing"
)

// TestGMBinary64MatchesReference checks every entry of the computed twiddle
// table against the bit patterns of the reference's fpr_gm_tab
// (testdata/fpr_gm_tab.txt, copied from fpr.c of Falcon-impl-20211101).
func TestGMBinary64MatchesReference(t *testing.T) {
	f, err := os.Open("testdata/fpr_gm_tab.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	k := 0
	for sc.Scan() {
		want, err := strconv.ParseUint(sc.Text(), 10, 64)
		if err != nil {
			t.Fatalf("line %d: %v", k+1, err)
		}
		if k >= 2 { // entries 0 and 1 are unused
			if got := math.Float64bits(GMBinary64(k)); got != want {
				t.Errorf("gm_tab[%d] = %#016x, want %#016x", k, got, want)
			}
		}
		k++
	}
	if k != 2048 {
		t.Fatalf("read %d entries, want 2048", k)
	}
}

// TestGMExactIsRootOfUnity checks that each root w at angle pi*num/den,
// computed at 256 bits, satisfies |w|^2 = 1 and that w^den = -1 (den is a
// power of two, so w is a primitive 2den-th root), to working precision.
func TestGMExactIsRootOfUnity(t *testing.T) {
	const prec = 256
	tol := new(big.Float).SetMantExp(big.NewFloat(1), -prec+12)
	for _, j := range []int{2, 3, 5, 77, 511, 512, 700, 1023} {
		re, im := GMExact(2*j, prec), GMExact(2*j+1, prec)
		_, den := GMAngle(j)
		// Repeated squaring: w^den with den = 2^s.
		a, b := new(big.Float).SetPrec(prec).Set(re), new(big.Float).SetPrec(prec).Set(im)
		for d := den; d > 1; d >>= 1 {
			a2 := new(big.Float).SetPrec(prec).Mul(a, a)
			b2 := new(big.Float).SetPrec(prec).Mul(b, b)
			ab := new(big.Float).SetPrec(prec).Mul(a, b)
			a.Sub(a2, b2)
			b.Add(ab, ab)
		}
		a.Add(a, big.NewFloat(1)) // w^den + 1 should be 0
		if a.Abs(a).Cmp(tol) > 0 || b.Abs(b).Cmp(tol) > 0 {
			t.Errorf("root %d: w^%d + 1 = (%g, %g), not within 2^-%d", j, den, a, b, prec-12)
		}
	}
}

func TestExactConstantsRoundToReference(t *testing.T) {
	for c := Constant(0); c < Constant(NumConstants); c++ {
		if c.String() == "inv_sigma[0]" || c.String() == "sigma_min[0]" {
			continue
		}
		got, _ := Exact(c, 300).Float64()
		if math.Float64bits(got) != math.Float64bits(Binary64(c)) && !(c == PTwo63m1 || c == MTwo63m1) {
			t.Errorf("%v: exact value rounds to %v, reference has %v", c, got, Binary64(c))
		}
	}
}
