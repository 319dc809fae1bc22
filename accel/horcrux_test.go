package accel

import (
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// TestFPRUnitPack compares the instruction sequence FPR_LOAD_SE, FPR_EXEC,
// FPR_RDHI with emu64's packing stage (the reference's FPR) on every
// exponent from below the subnormal threshold to the top of the normal
// range, with mantissas at the rounding boundaries and random ones.
func TestFPRUnitPack(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	reps := 200
	if testing.Short() {
		reps = 10
	}
	var u FPRUnit
	n := 0
	check := func(s uint64, e int, m uint64) {
		n++
		if got, want := u.Pack(s, e, m), emu64.Pack(s, e, m); got != want {
			t.Fatalf("FPR(%d, %d, %#x): unit %#x, emu64 %#x", s, e, m, got, want)
		}
	}
	for e := -1200; e <= 1000; e++ {
		for s := range uint64(2) {
			check(s, e, 0)
			for low := range uint64(8) {
				check(s, e, 1<<54|low)                     // smallest mantissas, each rounding case
				check(s, e, (1<<55-1)&^7|low)              // largest: rounding carries into the exponent
				check(s, e, 1<<54|rng.Uint64()>>11&^7|low) // random
			}
			for range reps {
				check(s, e, 1<<54|rng.Uint64()>>10)
			}
		}
	}
	t.Logf("%d packings", n)
}

// TestFPRUnitNorm64 compares FPR_NORM64_EXEC, _RDHI, _RDE with emu64's
// normaliser on every leading-zero count, zero included.
func TestFPRUnitNorm64(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 15))
	var u FPRUnit
	reps := 20000
	if testing.Short() {
		reps = 1000
	}
	for lz := 0; lz <= 64; lz++ {
		for i := range reps {
			var m uint64
			if lz < 64 {
				m = (rng.Uint64() | 1<<63) >> lz
				if i == 0 {
					m = 1 << 63 >> lz
				}
			}
			e := rng.IntN(4000) - 2000
			gm, ge := u.Norm64(m, e)
			wm, we := emu64.Norm64(m, e)
			if gm != wm || ge != we {
				t.Fatalf("FPR_NORM64(%#x, %d): unit %#x, %d; emu64 %#x, %d", m, e, gm, ge, wm, we)
			}
		}
	}
}

// TestHorcruxArithKAT runs KAT records through emu64 over the fpr-unit
// model: every rounded result equals emu64's, the KAT records come out
// byte for byte (the whole files without -short: 100 records of each
// degree), and the instruction counts are the reference's FPR and
// FPR_NORM64 counters of record 0, phase by phase.
func TestHorcruxArithKAT(t *testing.T) {
	checkSameOps(t, "horcrux", NewHorcruxArith())

	n512, n1024 := 100, 100
	if testing.Short() {
		n512, n1024 = 2, 1
	}
	b := arith.Backend{Name: "emu64+fpru", Bits: 53, Impl: NewHorcruxArith()}
	checkKATPrefix(t, b, b, 9, n512)
	checkKATPrefix(t, b, b, 10, n1024)

	ref := loadRefCounts(t)
	for _, logn := range []uint{9, 10} {
		kh, sh := NewHorcruxArith(), NewHorcruxArith()
		rec := falcon.KATRequests(1)[0]
		kb := arith.Backend{Name: "fpru-keygen", Bits: 53, Impl: kh}
		sb := arith.Backend{Name: "fpru-sign", Bits: 53, Impl: sh}
		if err := falcon.GenerateKAT(logn, &rec, falcon.KATOptions{Keygen: kb, Sign: sb}); err != nil {
			t.Fatal(err)
		}
		for phase, h := range map[string]*HorcruxArith{"keypair": kh, "sign": sh} {
			r := ref.degree(logn)[phase]
			if got := h.Instructions(); got.Pack != r["FPR"] || got.Norm64 != r["FPR_NORM64"] {
				t.Errorf("logn %d %s: %d packings and %d normalisations, reference FPR %d, FPR_NORM64 %d",
					logn, phase, got.Pack, got.Norm64, r["FPR"], r["FPR_NORM64"])
			}
		}
	}
}

// TestFPRUnitTable checks the fpr-unit-only model on Falcon-512 record 0
// against figures worked out by hand from the reference's counts: keygen
// saves 433,929 x (43-3) + 227,531 x (108-3) = 41,247,915 cycles of
// 162,348,000 (1.3406x); sign 297,190 x 40 + 160,500 x 105 = 28,740,100 of
// 67,331,000 (1.7447x), and the published 18,721,000 saved cycles of sign
// imply (297,190 x 43 + 160,500 x 108 - 18,721,000) / 457,690 = 24.89
// cycles per call; verify has no fpr calls.
func TestFPRUnitTable(t *testing.T) {
	k, err := record0Counts(9)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := FPRUnitTable(DefaultFPRUnitCycles)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ModelCycles(tab, 512, []int{0}, [][3]UnitCounts{PhaseUnitCounts(k)})
	if err != nil {
		t.Fatal(err)
	}
	es := rep.Phases
	near := func(a, b, tol float64) bool { return a-b < tol && b-a < tol }
	if e := es[0]; e.Phase != "keygen" || !near(e.SavedK, 41247.915, 1e-6) || !near(e.EstSpeedup, 1.3406, 1e-4) {
		t.Errorf("keygen %+v", e)
	}
	if e := es[1]; e.Phase != "sign" || !near(e.SavedK, 28740.1, 1e-6) || !near(e.EstSpeedup, 1.7447, 1e-4) ||
		e.FPRUnitImplied == nil || !near(*e.FPRUnitImplied, 24.89, 0.005) {
		t.Errorf("sign %+v", e)
	}
	if e := es[2]; e.Phase != "verify" || e.SavedK != 0 || e.EstSpeedup != 1 || e.FPRUnitImplied != nil {
		t.Errorf("verify %+v", e)
	}
}
