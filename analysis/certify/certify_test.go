package certify_test

import (
	"context"
	"crypto/sha3"
	"math"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	"github.com/fprlab/fprlab/scheme"
	_ "github.com/fprlab/fprlab/valuetype"
)

// katKey returns the private key of NIST KAT record i at degree 2^logn,
// from the published response file.
func katKey(t testing.TB, logn uint, i int) *falcon.PrivateKey {
	t.Helper()
	rsp, err := katref.Response(logn)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := falcon.ParseKAT(rsp)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := falcon.DecodePrivateKey(recs[i].SK)
	if err != nil {
		t.Fatal(err)
	}
	return sk
}

func lookup(t testing.TB, name string) arith.Backend {
	t.Helper()
	b, err := arith.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSoundness certifies KAT key 0 of Falcon-512 over native, native-fma
// and triword
// and signs messages with the key under the shadow: delta_sigma must be
// the shadow's maximum (it is the same for every signature of the key),
// and no sampled delta_c may exceed the bound. The shadow rounds its
// measurement to binary64 (one rounding of the difference at 256 bits,
// one to binary64), hence the 2^-50 relative tolerance.
func TestSoundness(t *testing.T) {
	soundness(t, nil, katKey(t, 9, 0), "falcon", "native", "native-fma", "triword")
}

// TestSoundnessFNDSA is TestSoundness for both FN-DSA profiles, each with
// the first key of its seeded compare campaign: the key's values are read
// from the scheme's own attempt (its self-adjoint LDL, its 1/sigma), so
// delta_sigma is the one the scheme's shadow measures, and the sampled
// delta_c of its signatures stays below the bound.
func TestSoundnessFNDSA(t *testing.T) {
	for _, name := range []string{"fn-dsa", "fn-dsa-2026"} {
		t.Run(name, func(t *testing.T) {
			sc, err := scheme.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			cfg := shadow.Config{LogN: 9, Seed: "certify", Keys: 1, Scheme: sc, KeySource: shadow.KeysOf(sc)}
			keys, err := certify.SeededKeys(cfg, lookup(t, "native"))
			if err != nil {
				t.Fatal(err)
			}
			soundness(t, sc, keys[0].SK, sc.Name(), "native", "triword")
			// Read as round 3 signs, the same key has other leaves.
			b := lookup(t, "native")
			m, _ := certify.ModelFor(b, "")
			own, err1 := certify.Certify(b, keys[0].SK, certify.Options{Model: m, Scheme: sc})
			r3, err2 := certify.Certify(b, keys[0].SK, certify.Options{Model: m})
			if err1 != nil || err2 != nil || own.DeltaSigma == r3.DeltaSigma {
				t.Errorf("delta_sigma %v as %s signs, %v as round 3 signs (%v, %v)", own.DeltaSigma, sc.Name(), r3.DeltaSigma, err1, err2)
			}
		})
	}
}

func soundness(t *testing.T, sc scheme.Scheme, sk *falcon.PrivateKey, want string, backends ...string) {
	sigs := 6
	if testing.Short() {
		sigs = 2
	}
	for _, name := range backends {
		b := lookup(t, name)
		m, err := certify.ModelFor(b, "")
		if err != nil {
			t.Fatal(err)
		}
		r, err := certify.Certify(b, sk, certify.Options{Model: m, Scheme: sc})
		if err != nil {
			t.Fatal(err)
		}
		if r.Scheme != want {
			t.Errorf("%s: result of scheme %q, want %q", name, r.Scheme, want)
		}
		smp, err := certify.CheckSignatures(context.Background(), b, sc, sk, certify.Check{Signatures: sigs, Seed: "certify-soundness"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// The same signatures against the dd shadow: each delta_c is
		// within dd's distance from the oracle, the slack, of the oracle's
		// (the maxima too).
		sdd, err := certify.CheckSignatures(context.Background(), b, sc, sk, certify.Check{Signatures: sigs, Seed: "certify-soundness", Shadow: shadow.ShadowDD}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sdd.Shadow != shadow.ShadowDD || smp.Shadow != shadow.ShadowOracle || !(sdd.Slack > 0 && sdd.Slack < 0x1p-70) || smp.Slack != 0 {
			t.Errorf("%s: shadows %q, %q with slacks %g, %g", name, smp.Shadow, sdd.Shadow, smp.Slack, sdd.Slack)
		}
		if d := math.Abs(math.Exp2(sdd.DeltaCMax) - math.Exp2(smp.DeltaCMax)); !(d <= sdd.Slack+math.Exp2(smp.DeltaCMax)*0x1p-50) {
			t.Errorf("%s: sampled delta_c 2^%v against dd, 2^%v against the oracle: %g apart, slack %g", name, sdd.DeltaCMax, smp.DeltaCMax, d, sdd.Slack)
		}
		// Attempts on hashed points chosen for the key, where the
		// targets are largest, with every sample at the edge of the support
		// (z0 = 18), under the dd shadow.
		sch, err := certify.CheckChosen(context.Background(), b, sc, sk, certify.Check{Chosen: sigs, Edge: falcon.MaxBaseSample, Seed: "certify-soundness", Shadow: shadow.ShadowDD}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sch.Signatures != sigs || math.IsInf(sch.DeltaCMax, -1) {
			t.Errorf("%s: %d attempts on chosen points, delta_c 2^%v", name, sch.Signatures, sch.DeltaCMax)
		}
		if r.Exceeds(sch) {
			t.Errorf("%s: delta_c 2^%v on chosen hashed points exceeds the certified bound 2^%v", name, sch.DeltaCMax, math.Log2(r.DeltaCBound))
		}
		dc, ds := smp.DeltaCMax, smp.DeltaSigmaMax
		t.Logf("%s: delta_c bound 2^%.2f, sampled 2^%.2f over %d signatures, 2^%.2f over %d attempts on chosen points; delta_sigma 2^%.4f, shadow 2^%.4f",
			name, math.Log2(r.DeltaCBound), dc, sigs, sch.DeltaCMax, sigs, math.Log2(r.DeltaSigma), ds)
		if d := math.Abs(math.Log2(r.DeltaSigma) - ds); !(d < 1e-9) && !(r.DeltaSigma == 0 && math.IsInf(ds, -1)) {
			t.Errorf("%s: delta_sigma 2^%v, the shadow measures 2^%v", name, math.Log2(r.DeltaSigma), ds)
		}
		if r.Exceeds(smp) {
			t.Errorf("%s: sampled delta_c 2^%v exceeds the certified bound 2^%v", name, dc, math.Log2(r.DeltaCBound))
		}
		if r.Proven != (r.SumBound <= certify.Target) || r.SumBound < r.DeltaCBound || r.SumBound < r.DeltaSigma {
			t.Errorf("%s: inconsistent verdict: %+v", name, r)
		}
		if len(r.CallBounds) != 2*512 || r.CallBounds[r.WorstCall] != r.DeltaCBound || len(r.WorstPath) != 9 {
			t.Errorf("%s: %d call bounds, worst call %d at %q", name, len(r.CallBounds), r.WorstCall, r.WorstPath)
		}
		var sum float64
		for _, s := range r.Stages {
			sum += s.Bound
		}
		if sum < r.DeltaCBound*(1-0x1p-40) || sum > r.DeltaCBound*(1+0x1p-40) {
			t.Errorf("%s: stage shares sum to %v, bound %v", name, sum, r.DeltaCBound)
		}
	}
}

// TestSoundnessPlan certifies a precision plan whose basis and tree come
// from wider stages than the target and ffSampling, so that their values
// are rounded on entry (Model.ConvRel), and checks the bound against
// signatures. The same key's uniform plan is certified as vprec is.
func TestSoundnessPlan(t *testing.T) {
	sk := katKey(t, 9, 0)
	bound := func(name string) (*certify.Result, arith.Backend) {
		b := lookup(t, name)
		return certifyBuiltin(t, b, sk), b
	}
	uni, _ := bound("plan:all=vprec:48")
	vp, _ := bound("vprec:48")
	if uni.DeltaCBound != vp.DeltaCBound || uni.DeltaSigma != vp.DeltaSigma {
		t.Errorf("plan:all=vprec:48 bound %g (delta_sigma %g), vprec:48 %g (%g)", uni.DeltaCBound, uni.DeltaSigma, vp.DeltaCBound, vp.DeltaSigma)
	}
	r, b := bound("plan:all=vprec:48+fft=vprec:64+ldl=vprec:64+leaf=vprec:64+sampler=vprec:64")
	smp, err := certify.CheckSignatures(context.Background(), b, nil, sk, certify.Check{Signatures: 3, Seed: "certify-plan"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("plan: delta_c bound 2^%.2f, sampled 2^%.2f; uniform vprec:48 2^%.2f", math.Log2(r.DeltaCBound), smp.DeltaCMax, math.Log2(uni.DeltaCBound))
	if r.Exceeds(smp) || !(math.Log2(r.DeltaCBound) < -20) {
		t.Errorf("plan: sampled delta_c 2^%v, certified bound 2^%v", smp.DeltaCMax, math.Log2(r.DeltaCBound))
	}
}

// certifyBuiltin certifies sk over b with b's built-in model.
func certifyBuiltin(t *testing.T, b arith.Backend, sk *falcon.PrivateKey) *certify.Result {
	t.Helper()
	m, err := certify.ModelFor(b, "")
	if err != nil {
		t.Fatal(err)
	}
	r, err := certify.Certify(b, sk, certify.Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSoundnessSplitPlan certifies a plan computing the target 16 bits
// narrower than ffSampling (Model.Target, and the target's conversion into
// ffSampling's format) and checks the bound against signatures, and that
// the bound answers to the target's format: its side of the computation is
// most of the bound, and the same plan certified as if the target were
// computed in ffSampling's format (Target dropped) has a far smaller
// target share.
func TestSoundnessSplitPlan(t *testing.T) {
	sk := katKey(t, 9, 0)
	b := lookup(t, "plan:all=vprec:56+target=vprec:40")
	m, err := certify.ModelFor(b, "")
	if err != nil {
		t.Fatal(err)
	}
	if m.Target == nil || m.Target.MulRel != 0x1p-40 || m.MulRel != 0x1p-56 || m.ConvRel != 0x1p-56 {
		t.Fatalf("model %+v", m)
	}
	r := certifyBuiltin(t, b, sk)
	smp, err := certify.CheckSignatures(context.Background(), b, nil, sk, certify.Check{Signatures: 3, Seed: "certify-split-plan"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	flat := m
	flat.Target = nil
	rf, err := certify.Certify(b, sk, certify.Options{Model: flat})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("split plan: delta_c bound 2^%.2f, sampled 2^%.2f; the target taken in ffSampling's format: 2^%.2f", math.Log2(r.DeltaCBound), smp.DeltaCMax, math.Log2(rf.DeltaCBound))
	if r.Exceeds(smp) {
		t.Errorf("split plan: sampled delta_c 2^%v above the certified bound 2^%v", smp.DeltaCMax, math.Log2(r.DeltaCBound))
	}
	// The target's side -- its roundings, the basis rounded into its
	// format, its twiddles and 1/q -- is most of the bound; taken in
	// ffSampling's format its roundings all but vanish.
	share := map[string]float64{}
	for _, st := range r.Stages {
		share[st.Stage] = st.Bound / r.DeltaCBound
	}
	if s := share["target"] + share["key_values"] + share["constants"]; s < 0.9 || share["target"] < 0.1 {
		t.Errorf("split plan: the target's side is %.3f of the bound (target %.3f), want most of it: %v", s, share["target"], r.Stages)
	}
	if !(rf.DeltaCBound < r.DeltaCBound/4) || !(rf.Stages[0].Bound < r.Stages[0].Bound/1000) {
		t.Errorf("the target's model dropped: bound %v (target %v), with it %v (%v)", rf.DeltaCBound, rf.Stages[0], r.DeltaCBound, r.Stages[0])
	}
	// The target's own share is that of a plan computing both the target
	// and ffSampling in the target's format, the other stages as here
	// (their functionals differ by ffSampling's roundings of l10 alone;
	// the worst calls may differ, their target shares not by much).
	r40 := certifyBuiltin(t, lookup(t, "plan:all=vprec:40+fft=vprec:56+gram=vprec:56+ldl=vprec:56+leaf=vprec:56+sampler=vprec:56+expm=vprec:56+lattice=vprec:56"), sk)
	if ratio := r.Stages[0].Bound / r40.Stages[0].Bound; !(ratio > 0.97 && ratio < 1.03) {
		t.Errorf("split plan: the target's share %v at call %d, %v at call %d of the plan computing ffSampling in the target's format", r.Stages[0].Bound, r.WorstCall, r40.Stages[0].Bound, r40.WorstCall)
	}
	// The other way round, the target 24 bits wider than ffSampling: its
	// own roundings vanish, its conversion into ffSampling's 40 bits (one
	// rounding of each component of t) stays, a part of what the target's
	// roundings at 40 bits are (r40's).
	r64 := certifyBuiltin(t, lookup(t, "plan:all=vprec:56+target=vprec:64+ffsampling=vprec:40"), sk)
	t.Logf("target at 64 bits, ffSampling at 40: target share %v; both at 40: %v", r64.Stages[0].Bound, r40.Stages[0].Bound)
	if ratio := r64.Stages[0].Bound / r40.Stages[0].Bound; !(ratio > 0.05 && ratio < 0.9) {
		t.Errorf("target at 64 bits, ffSampling at 40: target share %v, %v with both at 40 bits", r64.Stages[0].Bound, r40.Stages[0].Bound)
	}
}

// TestBoundTracksModel checks that the bound answers to the model: with
// the relative bounds raised 2^10 times the bound grows, and a model too
// small for the arithmetic gives a smaller bound. (A model too small is
// caught by TestModels against the measured per-operation errors: the
// bound's looseness, see the package documentation, keeps the sampled
// delta_c far below even the halved model's bound.)
func TestBoundTracksModel(t *testing.T) {
	sk := katKey(t, 9, 0)
	b := lookup(t, "native")
	m, _ := certify.ModelFor(b, "")
	base, err := certify.Certify(b, sk, certify.Options{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	big := m
	big.AddRel, big.MulRel = m.AddRel*1024, m.MulRel*1024
	rb, err := certify.Certify(b, sk, certify.Options{Model: big})
	if err != nil {
		t.Fatal(err)
	}
	rh, err := certify.Certify(b, sk, certify.Options{Model: m.Halved()})
	if err != nil {
		t.Fatal(err)
	}
	if !(rb.DeltaCBound > 64*base.DeltaCBound) || !(rh.DeltaCBound < base.DeltaCBound) {
		t.Errorf("bounds 2^%.2f (model), 2^%.2f (x1024), 2^%.2f (halved)",
			math.Log2(base.DeltaCBound), math.Log2(rb.DeltaCBound), math.Log2(rh.DeltaCBound))
	}
}

// TestModels checks every built-in model against the per-operation errors
// `arith errors` measures (analysis.MeasureOpErrors, the oracle at 256
// bits on Falcon's exponent range): the measured maximum never exceeds the
// model, and for the formats rounded to nearest the halved model is
// exceeded -- so this test catches a model too small by a factor of 2.
func TestModels(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 1000
	}
	cases := []struct {
		name      string
		tightRN   bool // the measured maximum reaches the halved model
		wantBelow bool // may have samples below the bounds' range
	}{
		{"native", true, false},
		{"native-fma", true, false},
		{"emu64", true, false},
		{"vprec:48", true, false},
		{"vprec:40:e8:rz", false, false},
		{"dd", false, true},
		{"triword", false, true},
		{"triword-acc", false, true},
	}
	for _, c := range cases {
		b := lookup(t, c.name)
		m, err := certify.ModelFor(b, "")
		if err != nil {
			t.Fatal(err)
		}
		res, err := analysis.MeasureOpErrors(b, []string{"add", "sub", "mul"}, analysis.OpErrorConfig{N: n, Seed: 35})
		if err != nil {
			t.Fatal(err)
		}
		halvedCaught := false
		for _, r := range res {
			rel := m.AddRel
			if r.Op == "mul" {
				rel = m.MulRel
			}
			if r.MaxRelErrLog2 > math.Log2(rel) {
				t.Errorf("%s %s: measured 2^%.3f above the model's 2^%.3f", c.name, r.Op, r.MaxRelErrLog2, math.Log2(rel))
			}
			if r.BelowRange > 0 && r.BelowRangeMaxAbsErrLog2 > math.Log2(m.Abs) {
				t.Errorf("%s %s: below-range absolute error 2^%.1f above the model's 2^%.1f", c.name, r.Op, r.BelowRangeMaxAbsErrLog2, math.Log2(m.Abs))
			}
			if r.MaxRelErrLog2 > math.Log2(rel/2) {
				halvedCaught = true
			}
		}
		if c.tightRN && !halvedCaught {
			t.Errorf("%s: the halved model is not exceeded by any measured operation", c.name)
		}
	}
}

func TestModelFor(t *testing.T) {
	for _, c := range []struct{ name, declared, want string }{
		{"native", "", "binary64"},
		{"native-fma", "", "a fused multiply-add is its product unrounded"},
		{"plan:all=vprec:53", "", "plan, every stage in vprec:53: 53-bit round to nearest"},
		{"plan:all=vprec:53+ldl=vprec:64", "", "plan, target and ffsampling in vprec:53: 53-bit round to nearest, operands of other stages converted"},
		{"plan:all=vprec:53+target=vprec:60", "", "plan, target in vprec:60: 60-bit round to nearest, operands of other stages converted; ffsampling in vprec:53: 53-bit round to nearest, operands of other stages converted, the target converted into vprec:53"},
		{"oracle:200", "", "no built-in error model"},
		// The centre, the samples and 1/sigma pass from ffsampling through
		// leaf to sampler: a stage that would round them again is refused,
		// one that holds them exactly (wider, or another rounding of the
		// same width) is not.
		{"plan:all=vprec:80+sampler=vprec:20", "", "its sampler stage (vprec:20) does not hold every value of its ffsampling stage (vprec:80)"},
		{"plan:all=vprec:64+leaf=vprec:11", "", "its leaf stage (vprec:11) does not hold every value of its ffsampling stage (vprec:64)"},
		{"plan:all=vprec:64+leaf=vprec:80+sampler=vprec:72", "", "its sampler stage (vprec:72) does not hold every value of its leaf stage (vprec:80)"},
		{"plan:all=vprec:53:e11+ffsampling=vprec:53", "", "its leaf stage (vprec:53:e11) does not hold every value of its ffsampling stage (vprec:53)"},
		{"plan:all=binary64+ffsampling=vprec:64", "", "give the leaf and sampler stages ffsampling's format or a wider one"},
		{"plan:all=vprec:64:e11+ffsampling=vprec:53:e8", "", "ffsampling in vprec:53:e8: 53-bit round to nearest"},
		{"plan:all=vprec:53:e11:rz+ffsampling=vprec:53:e11", "", "ffsampling in vprec:53:e11: 53-bit round to nearest"},
		{"plan:all=binary64+ffsampling=vprec:64+leaf=vprec:64+sampler=vprec:64", "", "plan, target in vprec:53:e11"},
		{"native-fma", "rel=2^-52,abs=2^-1000", "declared"},
		{"native", "rel=2^-3", `rel: "2^-3": want 2^-P with 8 < P <= 2000`},
		{"native", "rel=2^-8", "8 < P"},
		{"native", "rel=2^-0", "8 < P"},
		{"native", "rel=2^-8.5", "declared rel=2^-8.5"},
		{"native", "rel=2^-53,abs=2^-0", `abs: "2^-0": want 2^-P with 0 < P <= 2000`},
		{"native", "rel=2^-53,abs=2^-2001", "0 < P <= 2000"},
		{"native", "abs=2^-60", "missing rel"},
		{"native", "rel=0.5", "want 2^-P"},
		{"native", "rel=2^-50,x=2^-3", "unknown term"},
		{"native", "rel=2^-53,x=1", `unknown term "x"`},
	} {
		b, err := arith.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := certify.ModelFor(b, c.declared)
		got := m.Name
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%s %q: got %q, want it to mention %q", c.name, c.declared, got, c.want)
		}
	}
	// A plan's model: its format's, with the conversion of other stages'
	// values only where there are other formats.
	for _, c := range []struct {
		name string
		conv float64
	}{{"plan:all=vprec:40:e11:rz", 0}, {"plan:all=vprec:40:e11:rz+fft=vprec:64", 0x1p-39}} {
		b, err := arith.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := certify.ModelFor(b, "")
		if err != nil || m.AddRel != 0x1p-39 || m.MulRel != 0x1p-39 || m.ConvRel != c.conv {
			t.Errorf("%s: %+v, %v", c.name, m, err)
		}
	}
	m, err := certify.ParseErrorModel("rel=2^-52.5,abs=2^-900")
	if err != nil || !(m.AddRel >= math.Exp2(-52.5)) || m.AddRel > math.Exp2(-52.5)*(1+0x1p-40) || m.Abs != 0x1p-900 {
		t.Errorf("ParseErrorModel: %+v, %v", m, err)
	}
}

// TestFileKey: a round-3 KAT key read back with its degree; refused when
// --params names another degree, when the bytes are not a key (naming
// the file), and at a degree certify does not analyse.
func TestFileKey(t *testing.T) {
	sc, err := scheme.Lookup("falcon")
	if err != nil {
		t.Fatal(err)
	}
	sk := katKey(t, 9, 0)
	data := sk.Encode()
	for _, logn := range []uint{0, 9} {
		if k, err := certify.FileKey(sc, data, "k.sk", logn); err != nil || k.SK.LogN != 9 || k.Ref.Source != "file" {
			t.Errorf("logn %d: %+v, %v", logn, k.Ref, err)
		}
	}
	if _, err := certify.FileKey(sc, data, "k.sk", 10); err == nil || !strings.Contains(err.Error(), "--sk k.sk holds a key of degree 512, --params says 1024") {
		t.Errorf("--params 1024: %v", err)
	}
	if _, err := certify.FileKey(sc, data[:100], "k.sk", 0); err == nil || !strings.HasPrefix(err.Error(), "--sk k.sk: ") {
		t.Errorf("a cut key: %v", err)
	}
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("certify a small key"))
	small, _, err := falcon.Keygen(lookup(t, "native"), 6, rng)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := certify.FileKey(sc, small.Encode(), "k.sk", 0); err == nil || !strings.Contains(err.Error(), "degree 64: certify analyses 512 and 1024") {
		t.Errorf("degree 64: %v", err)
	}
}
