package arith

import (
	"bufio"
	"math"
	"math/big"
	"os"
	"strconv"
	"strings"
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

// TestDefinedRoundsToReference checks the constants a 72-bit format holds
// against the reference's binary64 table: the specification's sigma_min
// and the Gram-Schmidt bound 1.17^2 q round to the reference's values,
// its 1/sigma is one ulp above the correctly rounded formula at every
// degree (the reference's table errs, not the formula: 1/sigma times
// 1.17 sqrt(q) sigma_min is 1 to 2^-200), and every other constant is
// Exact's.
func TestDefinedRoundsToReference(t *testing.T) {
	const prec = 256
	for logn := uint(1); logn <= MaxLogN; logn++ {
		sm, _ := Defined(SigmaMin(logn), prec).Float64()
		if sm != Binary64(SigmaMin(logn)) {
			t.Errorf("sigma_min[%d]: formula rounds to %v, reference %v", logn, sm, Binary64(SigmaMin(logn)))
		}
		is, _ := Defined(InvSigma(logn), prec).Float64()
		if table := Binary64(InvSigma(logn)); table != math.Nextafter(is, 2) {
			t.Errorf("inv_sigma[%d]: reference %v is not one ulp above the rounded formula %v", logn, table, is)
		}
		// 1/sigma * 1.17 * sqrt(q) * sigma_min = 1.
		p := new(big.Float).SetPrec(prec).Mul(Defined(InvSigma(logn), prec), Defined(SigmaMin(logn), prec))
		sq := new(big.Float).SetPrec(prec).Sqrt(new(big.Float).SetPrec(prec).SetInt64(12289))
		p.Mul(p, sq)
		p.Mul(p, new(big.Float).SetPrec(prec).Quo(big.NewFloat(117), big.NewFloat(100)))
		p.Sub(p, big.NewFloat(1))
		if p.Abs(p).Cmp(big.NewFloat(0x1p-200)) > 0 {
			t.Errorf("logn %d: 1/sigma * sigma = 1 + %g", logn, p)
		}
	}
	if b, _ := Defined(BnormMax, prec).Float64(); b != Binary64(BnormMax) {
		t.Errorf("bnorm_max: 1.17^2 q rounds to %v, reference %v", b, Binary64(BnormMax))
	}
	// 1.17^2 * 12289 = 16822.4121 exactly, which binary64 cannot hold.
	if Defined(BnormMax, prec).Cmp(new(big.Float).SetFloat64(Binary64(BnormMax))) == 0 {
		t.Error("bnorm_max: the defined value equals the binary64 one")
	}
	for _, c := range []Constant{InvSigma(0), SigmaMin(0)} {
		if Defined(c, prec).Sign() != 0 {
			t.Errorf("%v: want 0 (unused)", c)
		}
	}
	for c := Constant(0); c < Constant(NumConstants); c++ {
		if s := c.String(); strings.HasPrefix(s, "inv_sigma") || strings.HasPrefix(s, "sigma_min") || c == BnormMax {
			continue
		}
		if Defined(c, prec).Cmp(Exact(c, prec)) != 0 {
			t.Errorf("%v: Defined differs from Exact", c)
		}
	}
}
