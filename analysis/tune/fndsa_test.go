package tune

import (
	"context"
	"crypto/sha3"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/plan"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/scheme"
)

// A small FN-DSA-512 search: it signs FN-DSA (its measurements are of
// FN-DSA signatures), never moves the expm stage, in which FN-DSA signing
// has no floating-point work, and says so; a shadowed campaign run here
// apart from the search, on the confirmation's seed and size, measures
// the chosen plan within the target, the acceptance budget and without a
// flip; and the chosen plan's FN-DSA signatures verify.
func TestSearchFNDSA(t *testing.T) {
	cfg := Config{
		LogN: 9, TargetLog2: -40, MarginBits: 0.5, Statistic: PerSignatureWorst, Cost: CostAccel,
		Signatures: 2, Keys: 1, ConfirmSignatures: 3, Seed: "tune-fndsa", Format: "vprec:%d",
		Start: 64, Step: 32, Floor: 32, Workers: 2, Scheme: schemeFNDSA,
	}
	res, err := Search(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Scheme != "fn-dsa" || res.KeySource != "falcon" {
		t.Errorf("result scheme %q, key source %q (the zero KeySource is round 3's keys)", res.Scheme, res.KeySource)
	}
	if len(res.NotTuned) != 1 || res.NotTuned[0].Stage != "expm" {
		t.Fatalf("not tuned: %+v, want the expm stage alone", res.NotTuned)
	}
	if len(res.OpsPerSignature["expm"]) != 0 {
		t.Errorf("operations counted in FN-DSA's expm stage: %v", res.OpsPerSignature["expm"])
	}
	if slices.Contains(res.Below53, "expm") || slices.Contains(res.Above53, "expm") {
		t.Errorf("expm listed among the tuned stages: below %v, above %v", res.Below53, res.Above53)
	}
	moved := false
	for _, e := range res.Evaluations {
		if e.Widths[arith.PlanExpm] != cfg.Start {
			t.Errorf("plan %s moves the expm stage", e.Plan)
		}
		if e.Widths != res.Uniform.Widths {
			moved = true
		}
	}
	if !moved || !res.Chosen.Meets || res.Chosen.Cost >= res.Uniform.Cost {
		t.Fatalf("no cheaper plan: chosen %s (cost %g, uniform %g)", res.Chosen.Plan, res.Chosen.Cost, res.Uniform.Cost)
	}
	conf := res.Chosen.Confirmation
	if conf == nil || !conf.Meets {
		t.Fatalf("chosen plan %s: confirmation %+v", res.Chosen.Plan, conf)
	}

	// The confirmation again, outside the search: the same FN-DSA
	// signatures (seed and count) over the chosen plan.
	p, err := plan.Parse(res.Chosen.Plan)
	if err != nil {
		t.Fatal(err)
	}
	b, err := plan.Backend(p)
	if err != nil {
		t.Fatal(err)
	}
	sc := shadow.Config{LogN: 9, Signatures: 3, Keys: 1, Seed: "tune-fndsa/confirm", Shadow: shadow.ShadowDD,
		Sigma: shadow.SigmaReference, KeygenBackend: "emu64", Workers: 2, OracleBits: 256, Scheme: schemeFNDSA}
	recs, err := shadow.Run(context.Background(), b, sc)
	if err != nil {
		t.Fatal(err)
	}
	sum := shadow.Summarize(b.Name, sc, recs)
	if sum.Scheme != "fn-dsa" || sum.Signatures != 3 {
		t.Fatalf("confirmation campaign: scheme %q, %d signatures", sum.Scheme, sum.Signatures)
	}
	worst := sum.PerSignature.Sum.Max
	if worst == nil || *worst > cfg.TargetLog2 || *worst != float64(conf.ErrorLog2) {
		t.Errorf("confirmation campaign: per-signature worst %v, the search's confirmation 2^%g, target 2^%g", worst, float64(conf.ErrorLog2), cfg.TargetLog2)
	}
	budget := cfg.TargetLog2 + math.Log2(math.Sqrt(154)/1.312)
	if a := sum.AcceptanceRel.Max; a == nil || *a > budget {
		t.Errorf("confirmation campaign: acceptance error %v, budget 2^%g", a, budget)
	}
	if sum.Flips.Total != 0 {
		t.Errorf("confirmation campaign: %d flips", sum.Flips.Total)
	}

	// The chosen plan's FN-DSA signatures verify.
	emu, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("tune-fndsa keys"))
	sk, _, err := falcon.Keygen(emu, 9, rng)
	if err != nil {
		t.Fatal(err)
	}
	k, err := fndsa.NewSigningKey(sk, false)
	if err != nil {
		t.Fatal(err)
	}
	vk, err := fndsa.DecodeVerifyingKey(k.VerifyingKey(), false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		msg := fmt.Appendf(nil, "message %d", i)
		sig, err := k.Sign(b, []byte("ctx"), fndsa.None, msg, rng)
		if err != nil {
			t.Fatalf("signing over %s: %v", res.Chosen.Plan, err)
		}
		if err := vk.Verify([]byte("ctx"), fndsa.None, msg, sig); err != nil {
			t.Errorf("signature %d over %s does not verify: %v", i, res.Chosen.Plan, err)
		}
	}
}

// The stages of round 3 all compute, so a round-3 search tunes every
// stage; and FN-DSA is refused below its standard degrees.
func TestSchemeChecks(t *testing.T) {
	cfg := Config{
		LogN: 5, TargetLog2: -40, MarginBits: 0.5, Statistic: PerSignatureWorst, Cost: CostBits,
		Signatures: 1, Keys: 1, ConfirmSignatures: 1, Seed: "s", Format: "vprec:%d", Start: 56, Step: 8, Floor: 24,
		Scheme: schemeFNDSA,
	}
	if err := cfg.Check(); err == nil {
		t.Error("FN-DSA at degree 32 accepted")
	}
	var ops StageOps
	for s := range ops {
		if !idleStage(ops[s]) {
			t.Fatal("a zero count is not idle")
		}
		ops[s][arith.OpNeg] = 1
		if idleStage(ops[s]) {
			t.Fatal("a stage with a negation is idle")
		}
	}
}

// An FN-DSA plan whose lattice stage is too narrow for any attempt to be
// short is a measurement (it cannot sign), not an error of the search, as
// for round 3.
func TestMeasureFNDSACannotSign(t *testing.T) {
	cfg := Config{
		LogN: 9, TargetLog2: -40, MarginBits: 0.5, Statistic: PerSignatureWorst, Cost: CostBits,
		Signatures: 1, Keys: 1, ConfirmSignatures: 1, Seed: "narrow", Format: "vprec:%d",
		Start: 64, Step: 8, Floor: 11, Workers: 1, Scheme: schemeFNDSA,
	}
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	s := &searcher{ctx: context.Background(), cfg: cfg, evals: map[string]*Evaluation{}}
	var w Widths
	for i := range w {
		w[i] = 64
	}
	w[arith.PlanLattice] = 11
	e, err := s.measure(w, cfg.Seed, 1, cfg.TargetLog2)
	if err != nil {
		t.Fatalf("a plan that cannot sign stopped the search: %v", err)
	}
	if e.Meets || e.Failure == "" || !math.IsInf(float64(e.ErrorLog2), 1) || e.Verdict() == "meets" {
		t.Errorf("lattice at 11 bits: %+v", e)
	}
}

// An FN-DSA search's measurements sign with the keys of its KeySource:
// a plan measured with FN-DSA keys is the shadowed campaign of
// compare --scheme fn-dsa with the same seed (FN-DSA keys from
// shadow.SchemeKeySeed), with round-3 keys the campaign of --key-source
// falcon, and the two differ; round 3 takes no FN-DSA keys.
func TestMeasureKeySource(t *testing.T) {
	base := Config{
		LogN: 9, TargetLog2: -40, MarginBits: 0.5, Statistic: PerSignatureWorst, Cost: CostBits,
		Signatures: 1, Keys: 1, ConfirmSignatures: 1, Seed: "keys", Format: "vprec:%d",
		Start: 48, Step: 8, Floor: 24, Workers: 1, Scheme: schemeFNDSA,
	}
	var w Widths
	for i := range w {
		w[i] = 48
	}
	p, err := plan.Parse("all=vprec:48")
	if err != nil {
		t.Fatal(err)
	}
	b, err := plan.Backend(p)
	if err != nil {
		t.Fatal(err)
	}
	got := map[shadow.KeySource]float64{}
	for _, ks := range []shadow.KeySource{keysFNDSA, shadow.KeysFalcon} {
		cfg := base
		cfg.KeySource = ks
		if err := cfg.Check(); err != nil {
			t.Fatal(err)
		}
		s := &searcher{ctx: context.Background(), cfg: cfg, evals: map[string]*Evaluation{}}
		e, err := s.measure(w, cfg.Seed, 1, cfg.TargetLog2)
		if err != nil {
			t.Fatal(err)
		}
		// compare --scheme fn-dsa [--key-source falcon] --seed keys, as
		// cmd/fprlab builds its campaign.
		sc := shadow.Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "keys", Shadow: shadow.ShadowDD, Sigma: shadow.SigmaReference,
			KeygenBackend: "emu64", Workers: 1, OracleBits: 256, Scheme: schemeFNDSA, KeySource: ks}
		recs, err := shadow.Run(context.Background(), b, sc)
		if err != nil {
			t.Fatal(err)
		}
		sum := shadow.Summarize(b.Name, sc, recs)
		if sum.KeySource != string(ks) {
			t.Fatalf("campaign key source %q, want %q", sum.KeySource, ks)
		}
		m := sum.PerSignature.Sum.Max
		if m == nil || e.PerSignatureMaxLog2 == nil || *m != *e.PerSignatureMaxLog2 {
			t.Errorf("key source %s: the search measures %v, the campaign %v", ks, e.PerSignatureMaxLog2, m)
		}
		got[ks] = *m
	}
	if got[keysFNDSA] == got[shadow.KeysFalcon] {
		t.Errorf("FN-DSA and round-3 keys measure the same error 2^%g: are the keys the same?", got[keysFNDSA])
	}

	r3 := base
	r3.Scheme, r3.KeySource = schemeFalcon, keysFNDSA
	if err := r3.Check(); err == nil {
		t.Error("round 3 with FN-DSA keys accepted")
	}
	bad := base
	bad.KeySource = "ntru"
	if err := bad.Check(); err == nil {
		t.Error("an unknown key source accepted")
	}
}

// cannotSign takes the engine's two verdicts on precision as the scheme
// layer marks them (scheme.MarkEngine, through a shadow's error wrapping),
// and nothing else.
func TestCannotSign(t *testing.T) {
	for _, err := range []error{
		scheme.MarkEngine(falcon.ErrSignAttempts),
		scheme.MarkEngine(falcon.ErrSamplerStuck),
		scheme.MarkEngine(fndsa.ErrSignAttempts, fndsa.ErrSignAttempts),
	} {
		if marked := fmt.Errorf("signature 3: %w", err); !cannotSign(marked) {
			t.Errorf("cannotSign(%v) = false", marked)
		}
	}
	for _, err := range []error{errors.New("signature 3 does not verify"), context.Canceled, nil} {
		if cannotSign(err) {
			t.Errorf("cannotSign(%v) = true", err)
		}
	}
}
