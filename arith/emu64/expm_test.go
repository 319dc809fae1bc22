package emu64_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/ALTree/bigfloat"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// expNegFixed returns exp(-x) * 2^expFrac, truncated, for 0 <= x < 1, by
// its Taylor series in fixed point: each term is the previous one times
// x/k, truncated, so with about 40 terms for x < ln 2 the total error is a
// few units of 2^-expFrac. It is much faster than a big.Float exponential,
// which lets the accuracy test use 100,000 inputs; TestExpNegFixed checks
// it against bigfloat.Exp.
const expFrac = 192

func expNegFixed(x float64) *big.Int {
	mant, exp := math.Frexp(x)
	// X = x * 2^expFrac; exact as long as x >= 2^-139, negligible otherwise.
	X, _ := new(big.Float).SetMantExp(big.NewFloat(mant), exp+expFrac).Int(nil)
	sum := new(big.Int).Lsh(big.NewInt(1), expFrac)
	term := new(big.Int).Set(sum)
	k := new(big.Int)
	for i := int64(1); term.Sign() != 0; i++ {
		term.Mul(term, X)
		term.Rsh(term, expFrac)
		term.Quo(term, k.SetInt64(i))
		if i&1 == 1 {
			sum.Sub(sum, term)
		} else {
			sum.Add(sum, term)
		}
	}
	return sum
}

// expmTruth returns 2^63 * ccs * exp(-x) to about 180 bits.
func expmTruth(x, ccs float64) *big.Float {
	t := new(big.Float).SetPrec(256).SetInt(expNegFixed(x))
	t.Mul(t, new(big.Float).SetFloat64(ccs))
	return t.SetMantExp(t, 63-expFrac)
}

func TestExpNegFixed(t *testing.T) {
	for k, x := range []float64{0, 0x1p-60, 1e-9, 0.1, 0.25, 1.0 / 3, 0.5, 0.6931471805599452} {
		want := bigfloat.Exp(new(big.Float).SetPrec(200).SetFloat64(-x))
		got := new(big.Float).SetPrec(200).SetInt(expNegFixed(x))
		got.SetMantExp(got, -expFrac)
		d := new(big.Float).Sub(got, want)
		d.Quo(d, want)
		if e, _ := d.Float64(); math.Abs(e) > 0x1p-180 {
			t.Errorf("#%d: exp(-%v): relative difference %g from bigfloat.Exp", k, x, e)
		}
	}
}

// expmErr returns |got - truth| / truth for an ExpmP63 output.
func expmErr(got uint64, truth *big.Float) float64 {
	d := new(big.Float).SetPrec(256).SetUint64(got)
	d.Sub(d, truth)
	if truth.Sign() == 0 {
		f, _ := d.Float64()
		return math.Abs(f)
	}
	d.Quo(d, truth)
	f, _ := d.Float64()
	return math.Abs(f)
}

// TestExpmP63Accuracy measures both backends' ExpmP63 against
// 2^63*ccs*exp(-x) over random x in [0, ln 2) and ccs in [0, 1), plus the
// ends of those ranges (ccs = 1 is excluded: emu64 maps it to 0, see
// TestEdgeCases). Half of the ccs values are drawn from [0.7, 1), the
// range Falcon uses (sigma_min/sigma for sigma up to 1.8205). The maximum
// errors are logged over all inputs, over ccs >= 2^-10 (where the integer
// output's own granularity is below 2^-52) and over Falcon's range.
//
// The requirement is 45 correct bits. The result is an integer and both
// evaluations truncate at the end, so the assertion allows 2 units of the
// output on top of the relative 2^-45 (it matters only for ccs < 2^-16,
// where 2^63*ccs*exp(-x) is below 2^47).
func TestExpmP63Accuracy(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 5_000
	}
	type input struct{ x, ccs float64 }
	const belowLn2 = 0.6931471805599452 // largest binary64 below ln 2
	ins := []input{{0, 0}, {0, 0.5}, {0, 1 - 0x1p-53}, {belowLn2, 1 - 0x1p-53}, {belowLn2, 0x1p-20},
		{0x1p-60, 0.75}, {math.Ln2 / 2, 1 - 0x1p-53}}
	r := rand.New(rand.NewPCG(0x65787070, 63))
	for k := range n {
		in := input{x: r.Float64() * belowLn2, ccs: r.Float64()}
		if k%2 == 0 {
			in.ccs = 0.7 + 0.3*r.Float64()
		}
		ins = append(ins, in)
	}

	type stats struct{ all, big, falcon float64 }
	var se, sn stats
	agree := 0
	for k, in := range ins {
		truth := expmTruth(in.x, in.ccs)
		ge := emu.ExpmP63(ef(in.x), ef(in.ccs))
		gn := nat.ExpmP63(in.x, in.ccs)
		if ge == gn {
			agree++
		}
		for _, c := range []struct {
			name string
			got  uint64
			s    *stats
		}{{"emu64", ge, &se}, {"native", gn, &sn}} {
			e := expmErr(c.got, truth)
			c.s.all = math.Max(c.s.all, e)
			if in.ccs >= 0x1p-10 {
				c.s.big = math.Max(c.s.big, e)
			}
			if in.ccs >= 0.7 {
				c.s.falcon = math.Max(c.s.falcon, e)
			}
			abs := new(big.Float).SetUint64(c.got)
			abs.Sub(abs, truth).Abs(abs)
			limit := new(big.Float).SetMantExp(truth, -45)
			limit.Add(limit, big.NewFloat(2))
			if abs.Cmp(limit) > 0 {
				t.Errorf("#%d: %s ExpmP63(%v, %v) = %d, truth %.3f: error %g (2^%.2f relative)",
					k, c.name, in.x, in.ccs, c.got, truth, abs, math.Log2(e))
			}
		}
	}
	t.Logf("%d inputs; max relative error (log2) over all / ccs >= 2^-10 / ccs in [0.7, 1):", len(ins))
	for _, c := range []struct {
		name string
		s    stats
	}{{"emu64", se}, {"native", sn}} {
		t.Logf("  %-6s  %.2f / %.2f / %.2f", c.name, math.Log2(c.s.all), math.Log2(c.s.big), math.Log2(c.s.falcon))
	}
	t.Logf("emu64 and native ExpmP63 agree exactly on %d of %d inputs (%.2f%%)",
		agree, len(ins), 100*float64(agree)/float64(len(ins)))
}

// Digests of the reference's own fpr_expm_p63 outputs (SHA-256 over the
// 64-bit results, little-endian), for the first 2,000 and 100,000 inputs
// of expmRefInputs. They were produced by compiling Falcon-impl-20211101's
// fpr.c, rng.c and shake.c with a small driver, once with FALCON_FPEMU=1
// and once with FALCON_FPNATIVE=1 (no AVX2, no FMA, gcc -O2
// -ffp-contract=off), on x86-64. The first three outputs are listed too.
var expmRef = []struct {
	backend              string
	first                [3]uint64
	digest2k, digest100k string
}{
	{"emu64", [3]uint64{0x129f71a7013d1d69, 0x1e49efbfe47809c6, 0x2a47c252d52f4c84},
		"06ee9f2a203c0ae8d92c9da0525daf3110ef0670947dd0adb094fc08aed0c019",
		"3fd63c6c2c313daf9a887c5a2bd9a7bd279177eacf9f5be31871689e1c74a4f4"},
	{"native", [3]uint64{0x129f71a7013d1d00, 0x1e49efbfe4780900, 0x2a47c252d52f4c00},
		"49d3d3659d58bed74423f80f19fb47c58bd068c366841f980cf511e87e22389d",
		"13462219ba739246e253b599e00c823e6c186806c77e92b2e8d63504220e3825"},
}

// expmRefInputs regenerates the driver's inputs: from the reference PRNG
// seeded with SHAKE256("expm"), x = (u64 >> 1) * 2^-63 redrawn until
// x < ln 2 (the reference's binary64 ln 2), then ccs = (u64 >> 11) * 2^-53.
// Both conversions round to binary64 the same way in either build.
func expmRefInputs(n int) (xs, ccss []float64) {
	p := samplerprng.FromSHAKE256([]byte("expm"))
	ln2 := arith.Binary64(arith.Log2)
	for range n {
		x := math.Ldexp(float64(p.U64()>>1), -63)
		for !(x < ln2) {
			x = math.Ldexp(float64(p.U64()>>1), -63)
		}
		xs = append(xs, x)
		ccss = append(ccss, math.Ldexp(float64(p.U64()>>11), -53))
	}
	return xs, ccss
}

// TestExpmP63Reference checks each backend's ExpmP63 bit for bit against
// the reference build it restates.
func TestExpmP63Reference(t *testing.T) {
	n := 100_000
	if testing.Short() {
		n = 2_000
	}
	xs, ccss := expmRefInputs(n)
	for _, ref := range expmRef {
		f := func(x, ccs float64) uint64 { return emu.ExpmP63(ef(x), ef(ccs)) }
		if ref.backend == "native" {
			f = nat.ExpmP63
		}
		h := sha256.New()
		for k := range xs {
			got := f(xs[k], ccss[k])
			if k < len(ref.first) && got != ref.first[k] {
				t.Errorf("%s #%d: ExpmP63(%v, %v) = %#016x, reference %#016x", ref.backend, k, xs[k], ccss[k], got, ref.first[k])
			}
			h.Write(binary.LittleEndian.AppendUint64(nil, got))
		}
		want := ref.digest100k
		if n == 2_000 {
			want = ref.digest2k
		}
		if got := hex.EncodeToString(h.Sum(nil)); got != want {
			t.Errorf("%s: digest of %d outputs %s, reference %s", ref.backend, n, got, want)
		}
	}
}
