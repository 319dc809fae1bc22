package plan_test

// The tests that sign and shadow over plans: they run plans through the
// Falcon engine and the shadow, which package valuetype instantiates for
// the plans' value types, so they live outside package plan.

import (
	"context"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/plan"
	"github.com/fprlab/fprlab/arith/vfloat"
	"github.com/fprlab/fprlab/falcon"
	_ "github.com/fprlab/fprlab/valuetype" // the engines and shadows of every value type
)

// signAll signs count messages with keys generated on emu64 and returns the
// accumulated SHA-256 of the signatures.
func signAll(t *testing.T, b arith.Backend, logn uint, count int) string {
	t.Helper()
	kb, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	kr := sha3.NewSHAKE256()
	kr.Write([]byte("plan keys"))
	sk, _, err := falcon.Keygen(kb, logn, kr)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for i := range count {
		rng := sha3.NewSHAKE256()
		fmt.Fprintf(rng, "plan signature %d", i)
		sig, err := falcon.Sign(b, sk, []byte(fmt.Sprint("message ", i)), falcon.Compressed, rng)
		if err != nil {
			t.Fatalf("%s: signature %d: %v", b.Name, i, err)
		}
		h.Write(sig)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// A uniform plan signs exactly as its format alone does; all=binary64 signs
// exactly as native binary64 (which the NIST KATs pin).
func TestUniformPlanEqualsFormat(t *testing.T) {
	count := 16
	if testing.Short() {
		count = 4
	}
	for _, c := range []struct{ plan, single string }{
		{"all=vprec:40", "vprec:40"},
		{"all=vprec:30:e9:rz", "vprec:30:e9:rz"},
		{"all=vprec:64:e11:sr=5", "vprec:64:e11:sr=5"},
		{"all=binary64", "native"},
	} {
		pb, err := arith.Lookup("plan:" + c.plan)
		if err != nil {
			t.Fatal(err)
		}
		sb, err := arith.Lookup(c.single)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := signAll(t, pb, 8, count), signAll(t, sb, 8, count); got != want {
			t.Errorf("plan %s: signature digest %s, %s gives %s", c.plan, got, c.single, want)
		}
	}
}

// A plan computes the same over vfloat's formats as over their big.Float
// reference (two implementations, one result).
func TestPlanImplementationsAgree(t *testing.T) {
	fast, err := arith.Lookup("plan:ldl=vprec:40+sampler=vprec:36:e11:rz+all=binary64")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := arith.Lookup("plan:ldl=vprecbig:40+sampler=vprecbig:36:e11:rz+all=vprecbig:53:e11")
	if err != nil {
		t.Fatal(err)
	}
	if _, isBig := ref.Impl.(arith.Arith[*big.Float]); !isBig {
		t.Fatalf("the vprecbig plan runs on %T", ref.Impl)
	}
	if _, isBig := fast.Impl.(arith.Arith[*big.Float]); isBig {
		t.Fatal("the vprec plan runs on big.Float")
	}
	if got, want := signAll(t, fast, 8, 6), signAll(t, ref, 8, 6); got != want {
		t.Errorf("vfloat plan digest %s, big.Float plan %s", got, want)
	}
}

// A plan mixing vprec formats wider than vfloat's significand (computed
// over big.Float) with narrower ones runs over big.Float, its narrow
// stages with vprecbig's code: it signs as the same plan in vprecbig
// names. (Such plans were refused, naming Go types.)
func TestMixedCarrierPlan(t *testing.T) {
	mixed, err := arith.Lookup("plan:all=vprec:120+ffsampling=vprec:16+sampler=vprec:40:e11:rz")
	if err != nil {
		t.Fatal(err)
	}
	if _, isBig := mixed.Impl.(arith.Arith[*big.Float]); !isBig {
		t.Fatalf("the mixed plan runs on %T", mixed.Impl)
	}
	ref, err := arith.Lookup("plan:all=vprecbig:120+ffsampling=vprecbig:16+sampler=vprecbig:40:e11:rz")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := signAll(t, mixed, 6, 4), signAll(t, ref, 6, 4); got != want {
		t.Errorf("mixed plan digest %s, vprecbig plan %s", got, want)
	}
	// The narrow stage has 16 bits: the signatures are not those of
	// all=vprec:120 (the test would pass if the narrow stage were widened).
	wide, err := arith.Lookup("plan:all=vprec:120")
	if err != nil {
		t.Fatal(err)
	}
	if signAll(t, mixed, 6, 4) == signAll(t, wide, 6, 4) {
		t.Error("the mixed plan signs as all=vprec:120: its 16-bit stage was not applied")
	}
}

// stageMax returns the largest relative error of each observed stage.
func stageMax(s *shadow.Summary) map[string]float64 {
	m := map[string]float64{}
	for _, st := range s.Stages {
		if st.MaxRelLog2 == nil {
			continue
		}
		k := st.Stage
		if strings.HasPrefix(k, "ffsampling_") {
			k = "ffsampling"
		}
		if v, ok := m[k]; !ok || *st.MaxRelLog2 > v {
			m[k] = *st.MaxRelLog2
		}
	}
	return m
}

func measure(t *testing.T, planText string) *shadow.Summary {
	t.Helper()
	b, err := arith.Lookup("plan:" + planText)
	if err != nil {
		t.Fatal(err)
	}
	cfg := shadow.Config{LogN: 6, Signatures: 2, Keys: 1, Seed: "plan", Shadow: shadow.ShadowDD, Sigma: shadow.SigmaFormula, KeygenBackend: "emu64", Workers: 2}
	recs, err := shadow.Run(context.Background(), b, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return shadow.Summarize(b.Name, cfg, recs)
}

// Giving one stage fewer bits raises that stage's error, and leaves the
// stages it does not feed exactly as they were.
func TestNarrowStageRaisesItsError(t *testing.T) {
	base := stageMax(measure(t, "all=binary64"))
	// The observed stages each plan stage's values reach first, and the
	// observed stages computed from inputs it does not touch.
	for _, c := range []struct {
		stage       string
		observed    string
		independent []string
	}{
		{"fft", "basis_fft", nil},
		{"gram", "gram", []string{"basis_fft", "target"}},
		{"target", "target", []string{"basis_fft", "gram", "ffldl", "leaf"}},
		{"ldl", "ffldl", []string{"basis_fft", "gram", "target"}},
		{"leaf", "leaf", []string{"basis_fft", "gram", "target", "ffldl"}},
		{"ffsampling", "ffsampling", []string{"basis_fft", "gram", "target", "ffldl", "leaf"}},
		{"lattice", "lattice_ifft", []string{"basis_fft", "gram", "target", "ffldl", "leaf", "ffsampling"}},
	} {
		got := stageMax(measure(t, c.stage+"=vprec:30:e11,all=binary64"))
		if got[c.observed] < base[c.observed]+15 {
			t.Errorf("%s at 30 bits: %s error 2^%.2f, binary64 gives 2^%.2f: want at least 15 bits more", c.stage, c.observed, got[c.observed], base[c.observed])
		}
		for _, s := range c.independent {
			if got[s] != base[s] {
				t.Errorf("%s at 30 bits changed %s's error: 2^%.3f, binary64 gives 2^%.3f", c.stage, s, got[s], base[s])
			}
		}
	}
	// expm_p63 at 30 bits: its error grows, nothing before it changes.
	bs, es := measure(t, "all=binary64"), measure(t, "expm=vprec:30:e11,all=binary64")
	if es.ExpmP63.Max == nil || bs.ExpmP63.Max == nil || *es.ExpmP63.Max < *bs.ExpmP63.Max+15 {
		t.Errorf("expm at 30 bits: expm_p63 error %v, binary64 %v", es.ExpmP63.Max, bs.ExpmP63.Max)
	}
	if got := stageMax(es); got["leaf"] != base["leaf"] || got["ffldl"] != base["ffldl"] {
		t.Errorf("expm at 30 bits changed the tree's errors")
	}
	if math.IsNaN(base["basis_fft"]) {
		t.Fatal("no basis error measured")
	}
}

// Instantiated with its concrete type (to add an observer), a plan still
// gives every run its own stage: concurrent signatures equal sequential
// ones (and the race detector sees no shared stage).
func TestPlanInstantiatedConcrete(t *testing.T) {
	b, err := arith.Lookup("plan:ldl=vprec:40+all=binary64")
	if err != nil {
		t.Fatal(err)
	}
	pa, ok := b.Impl.(*plan.Arith[vfloat.V, plan.Format[vfloat.V]])
	if !ok {
		t.Fatalf("plan implementation %T", b.Impl)
	}
	ib := falcon.Instantiate[vfloat.V](b, pa, nil)
	want := signAll(t, b, 6, 3)
	got := make(chan string, 3)
	for range 3 {
		go func() { got <- signAll(t, ib, 6, 3) }()
	}
	for range 3 {
		if g := <-got; g != want {
			t.Fatalf("instantiated plan, concurrent: digest %s, the registered backend gives %s", g, want)
		}
	}
}

// Concurrent runs over one plan backend keep their own stages, and their
// own memories of a foreign stage's conversions (the race detector checks
// the sharing; the signatures check the result).
func TestPlanConcurrentRuns(t *testing.T) {
	for _, name := range []string{"plan:ldl=vprec:40+all=binary64", "plan:ldl=bigref:vprecbig:40:e11:rz+sampler=bigref:vprecbig:40:e11:rz+all=binary64"} {
		b, err := arith.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		want := signAll(t, b, 6, 4)
		got := make(chan string, 4)
		for range 4 {
			go func() { got <- signAll(t, b, 6, 4) }()
		}
		for range 4 {
			if g := <-got; g != want {
				t.Fatalf("%s: concurrent digest %s, sequential %s", name, g, want)
			}
		}
	}
}

// TestForeignStageAsVPrecStage: plans with a stage computed by a foreign
// arithmetic sign exactly as the plans with that stage in the vprec
// format the foreign one computes, over both carriers: fed from binary64
// stages, with decisions (sampler), expm_p63 (expm), rounding toward zero
// and to nearest, and a stage wider than its neighbours (whose values
// enter the narrower stages rounded by their rule).
func TestForeignStageAsVPrecStage(t *testing.T) {
	for _, c := range []struct{ foreign, vprec string }{
		{"ldl=bigref:vprecbig:40:e11:rz,all=binary64", "ldl=vprec:40:e11:rz,all=binary64"},
		{"sampler=bigref:vprecbig:33:e11:rz,all=binary64", "sampler=vprec:33:e11:rz,all=binary64"},
		{"expm=bigref:vprecbig:30:e11,all=binary64", "expm=vprec:30:e11,all=binary64"},
		{"fft=bigref:vprecbig:64:e15,all=vprec:45:e11", "fft=vprec:64:e15,all=vprec:45:e11"},
		{"target=bigref:vprecbig:36:e11:rz,all=vprecbig:53:e11", "target=vprecbig:36:e11:rz,all=vprecbig:53:e11"},
		{"all=bigref:vprecbig:44:e11:rz", "all=vprec:44:e11:rz"},
	} {
		fb, err := arith.Lookup("plan:" + c.foreign)
		if err != nil {
			t.Fatal(err)
		}
		vb, err := arith.Lookup("plan:" + c.vprec)
		if err != nil {
			t.Fatal(err)
		}
		plan.ForeignImports.Store(0)
		if got, want := signAll(t, fb, 8, 4), signAll(t, vb, 8, 4); got != want {
			t.Errorf("%s: digest %s, %s gives %s", c.foreign, got, c.vprec, want)
		}
		// Signatures are integers, robust to a last bit here and there:
		// the shadow sees every value's error.
		if got, want := summaryOf(t, c.foreign), summaryOf(t, c.vprec); got != want {
			t.Errorf("%s: records differ from %s's\n got %.300s\nwant %.300s", c.foreign, c.vprec, got, want)
		}
		if plan.ForeignImports.Load() == 0 {
			t.Errorf("%s: no value entered the foreign stage", c.foreign)
		}
	}
}

// summaryOf is the shadow's summary of a small campaign over a plan
// (measure), without its name and time.
func summaryOf(t *testing.T, plan string) string {
	t.Helper()
	sum := measure(t, plan)
	sum.Backend, sum.Seconds = "", 0
	j, err := json.Marshal(sum)
	if err != nil {
		t.Fatal(err)
	}
	return string(j)
}
