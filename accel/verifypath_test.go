package accel

import (
	"math"
	"testing"
)

// TestVerifyPathHorcrux checks the built-in verify-path costs against the
// paper's figures typed in here, the fit redone by elimination, and the
// model's verify speedups against Table IV.
func TestVerifyPathHorcrux(t *testing.T) {
	tab, err := PlatformCosts("horcrux")
	if err != nil {
		t.Fatal(err)
	}
	v := tab.VerifyPath
	if v == nil {
		t.Fatal("no verify path in the HORCRUX table")
	}
	// Table II per-call costs; the butterfly b and per-coefficient c solve
	// 6912 b + 512 c = 585,000 - 9 K - 1536 m and
	// 15360 b + 1024 c = 1,207,000 - 17 K - 3072 m (K, m from Table II).
	k, m := 11369309.0/503, 3426675.0/975905
	r1, r2 := 585000-9*k-1536*m, 1207000-17*k-3072*m
	b := (r2 - 2*r1) / (15360 - 2*6912)
	c := (r1 - 6912*b) / 512
	u := v.Units
	for _, x := range []struct {
		name      string
		got, want float64
	}{
		{"keccak software", u["keccak_f1600"].Software.Cycles, k},
		{"keccak accelerated", u["keccak_f1600"].Accelerated.Cycles, 385},
		{"butterfly software", u["ntt_butterfly"].Software.Cycles, b},
		{"inverse butterfly software", u["intt_butterfly"].Software.Cycles, b},
		{"butterfly accelerated", u["ntt_butterfly"].Accelerated.Cycles, b * 996 / 1653},
		{"inverse butterfly accelerated", u["intt_butterfly"].Accelerated.Cycles, b * 1209 / 2085},
		{"pointwise software", u["mq_pointwise"].Software.Cycles, m},
		{"pointwise accelerated", u["mq_pointwise"].Accelerated.Cycles, m * 113 / 359},
		{"per coefficient", u["per_coefficient"].Software.Cycles, c},
		{"per coefficient accelerated", u["per_coefficient"].Accelerated.Cycles, c},
	} {
		if math.Abs(x.got/x.want-1) > 5e-4 {
			t.Errorf("%s: %v cycles, want %v", x.name, x.got, x.want)
		}
	}
	// Energies: P_tot (uW, Table VII) x cycles / 160 MHz.
	e := func(cyc, uw float64) float64 { return uw * 1e-6 * cyc / 160e6 * 1e9 }
	for _, x := range []struct {
		name      string
		got, want float64
	}{
		{"keccak software", *u["keccak_f1600"].Software.EnergyNJ, e(k, 183)},
		{"keccak accelerated", *u["keccak_f1600"].Accelerated.EnergyNJ, e(385, 233)},
		{"butterfly software", *u["ntt_butterfly"].Software.EnergyNJ, e(b, 171)},
		{"butterfly accelerated", *u["ntt_butterfly"].Accelerated.EnergyNJ, e(b*996/1653, 257)},
		{"inverse butterfly software", *u["intt_butterfly"].Software.EnergyNJ, e(b, 170)},
		{"inverse butterfly accelerated", *u["intt_butterfly"].Accelerated.EnergyNJ, e(b*1209/2085, 259)},
		{"pointwise software", *u["mq_pointwise"].Software.EnergyNJ, e(m, 172)},
		{"pointwise accelerated", *u["mq_pointwise"].Accelerated.EnergyNJ, e(m*113/359, 353)},
		{"per coefficient", *u["per_coefficient"].Software.EnergyNJ, e(c, 183)},
	} {
		if math.Abs(x.got/x.want-1) > 5e-4 {
			t.Errorf("%s energy: %v nJ, want %v", x.name, x.got, x.want)
		}
	}
	// The butterflies and pointwise products are verify's mq_montymul
	// calls: 8,448 at Falcon-512 (the reference's count for record 0).
	ops := VerifyOps(9, 9)
	if ops[1]+ops[2]+ops[3] != 8448 {
		t.Errorf("Falcon-512 verify: %v operations, butterflies and products %d, want 8448", ops, ops[1]+ops[2]+ops[3])
	}
	cache := readCycleCounts(t)
	for _, x := range []struct {
		deg  string
		pub  float64
		base float64
	}{{"512", 2.27, 585}, {"1024", 2.28, 1207}} {
		cs := cache[x.deg]
		recs := make([]int, len(cs))
		for i := range recs {
			recs[i] = i
		}
		deg := map[string]int{"512": 512, "1024": 1024}[x.deg]
		rep, err := ModelCycles(tab, deg, recs, cs)
		if err != nil {
			t.Fatal(err)
		}
		vr := rep.Verify
		if vr == nil || !(vr.Speedup > 1) || !(vr.MinSpeedup > 1) || !vr.HasEnergy || !(vr.EnergySaving > 0) {
			t.Fatalf("Falcon-%s verify path %+v: want a speedup above 1 and an energy saving", x.deg, vr)
		}
		// Record 0 reproduces the baseline by the fit, and its speedup lies
		// within 10 % of Table IV's.
		if math.Abs(*vr.Record0SoftK-x.base) > 0.5 || math.Abs(*vr.Record0Speedup/x.pub-1) > 0.10 {
			t.Errorf("Falcon-%s record 0: %v kcycles, %vx; want %v kcycles and within 10 %% of %vx", x.deg, *vr.Record0SoftK, *vr.Record0Speedup, x.base, x.pub)
		}
		t.Logf("Falcon-%s verify path: mean %.2fx (records %.2f-%.2f), energy saving %.1f %%; record 0 %.2fx against %.2fx, %.1f %%",
			x.deg, vr.Speedup, vr.MinSpeedup, vr.MaxSpeedup, 100*vr.EnergySaving, *vr.Record0Speedup, x.pub, 100**vr.Record0Saving)
	}
}

// TestModelVerifyPathHand checks the model on a toy table worked out by
// hand.
func TestModelVerifyPathHand(t *testing.T) {
	one := func(c, e float64) VerifyCost { return VerifyCost{Cycles: c, EnergyNJ: &e} }
	v := &VerifyPathTable{Units: map[string]VerifyUnitCost{
		"keccak_f1600":    {one(100, 10), one(10, 2)},
		"ntt_butterfly":   {one(2, 1), one(1, 1)},
		"intt_butterfly":  {one(0, 0), one(0, 0)},
		"mq_pointwise":    {one(0, 0), one(0, 0)},
		"per_coefficient": {one(1, 0), one(1, 0)},
	}}
	// Falcon-512: 4608 forward butterflies, 512 coefficients. Records with
	// 10 and 30 permutations: software 1000 + 9216 + 512 = 10,728 and
	// 3000 + 9216 + 512 = 12,728 cycles; accelerated 100 + 4608 + 512 =
	// 5220 and 300 + 4608 + 512 = 5420.
	rep, err := ModelVerifyPath(v, 512, []int{0, 1}, []uint64{10, 30})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(rep.SoftK-11.728) > 1e-9 || math.Abs(rep.AccelK-5.32) > 1e-9 || math.Abs(rep.Speedup-11728.0/5320) > 1e-12 {
		t.Errorf("mean %v -> %v kcycles, %vx", rep.SoftK, rep.AccelK, rep.Speedup)
	}
	if math.Abs(rep.MinSpeedup-10728.0/5220) > 1e-12 || math.Abs(rep.MaxSpeedup-12728.0/5420) > 1e-12 {
		t.Errorf("record range %v-%v", rep.MinSpeedup, rep.MaxSpeedup)
	}
	// Energy: software 20 x 10 + 4608 = 4808 nJ, accelerated 40 + 4608 =
	// 4648 nJ.
	if math.Abs(rep.SoftNJ-4808) > 1e-9 || math.Abs(rep.AccelNJ-4648) > 1e-9 || math.Abs(rep.EnergySaving-(1-4648.0/4808)) > 1e-12 {
		t.Errorf("energy %v -> %v nJ, saving %v", rep.SoftNJ, rep.AccelNJ, rep.EnergySaving)
	}
	if rep.Record0Speedup == nil || math.Abs(*rep.Record0Speedup-10728.0/5220) > 1e-12 {
		t.Errorf("record 0 speedup %v", rep.Record0Speedup)
	}
	if _, err := ModelVerifyPath(v, 256, []int{0}, []uint64{1}); err == nil {
		t.Error("Falcon-256 accepted")
	}
}
