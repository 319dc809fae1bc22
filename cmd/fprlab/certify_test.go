package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
	draft "github.com/fprlab/fprlab/fndsa2026"
	"github.com/fprlab/fprlab/internal/cli"
)

// The text leads with the verdict: binary64 is not proven by this
// analysis at Falcon-512 (its bound is above 2^-46), a 100-bit format is.
func TestCertifyText(t *testing.T) {
	code, out, errs := runCLI(t, "certify", "--backend", "native,vprec:100", "--params", "512", "--kat-records", "0:1")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "not proven for 1 of 2 (backend, key) pairs") || !strings.Contains(lines[0], "shows no failure") {
		t.Fatalf("output:\n%s", out)
	}
	if !strings.Contains(out, "\nnot proven: native, Falcon-512, KAT key 0:") || !strings.Contains(out, "\nproven: vprec:100, Falcon-512, KAT key 0:") {
		t.Fatalf("output:\n%s", out)
	}
	// KAT key 0's exact delta_sigma over binary64, as compare --shadow
	// oracle measures it under its default exact 1/sigma, the formula
	// (2^-46.96 against the reference's table; TestSoundness in
	// analysis/certify and TestCertifyExactSigmaMatchesCompare check
	// that the two agree).
	if !strings.Contains(out, "delta_sigma, exact:     2^-46.94 at leaf 34 (exact 1/sigma: the formula)") {
		t.Fatalf("output:\n%s", out)
	}
	// --require-proven turns a "not proven" into exit 1, after the same
	// verdict; a proven one stays exit 0.
	code, out2, errs := runCLI(t, "certify", "--backend", "native,vprec:100", "--params", "512", "--kat-records", "0:1", "--require-proven")
	if code != cli.ExitFalse || !strings.HasPrefix(out2, lines[0]+"\n") || !strings.Contains(errs, "--require-proven: 1 of 2 not proven") {
		t.Errorf("--require-proven with native: exit %d, stderr %q, output:\n%s", code, errs, out2)
	}
	if code, _, errs := runCLI(t, "certify", "--backend", "vprec:100", "--params", "512", "--kat-records", "0:1", "--require-proven"); code != 0 {
		t.Errorf("--require-proven with vprec:100: exit %d, stderr %q", code, errs)
	}
}

func TestCertifyJSON(t *testing.T) {
	code, out, errs := runCLI(t, "certify", "--backend", "vprec:100", "--params", "512", "--kat-records", "1:2", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var doc struct {
		Results []struct {
			Backend, Scheme string
			Params          int
			Key             struct {
				Source string
				Index  int
			}
			DeltaCBoundLog2 float64  `json:"delta_c_bound_log2"`
			DeltaSigmaLog2  *float64 `json:"delta_sigma_log2"`
			SumBoundLog2    float64  `json:"sum_bound_log2"`
			Proven          bool
			WorstCall       struct {
				Call, Leaf int
				Path       string
			} `json:"worst_call"`
			Stages []struct {
				Stage string
				Share float64
			}
			Seconds float64
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(doc.Results) != 1 {
		t.Fatalf("document:\n%s", out)
	}
	r := doc.Results[0]
	share := 0.0
	for _, s := range r.Stages {
		share += s.Share
	}
	if r.Backend != "vprec:100" || r.Scheme != "falcon" || r.Params != 512 || r.Key.Source != "kat" || r.Key.Index != 1 ||
		!r.Proven || r.SumBoundLog2 > -46 || r.SumBoundLog2 < r.DeltaCBoundLog2 || r.DeltaSigmaLog2 == nil || *r.DeltaSigmaLog2 > r.SumBoundLog2 ||
		len(r.WorstCall.Path) != 9 || r.WorstCall.Leaf != r.WorstCall.Call/2 || len(r.Stages) != 7 || share < 0.999 || share > 1.001 || r.Seconds <= 0 {
		t.Fatalf("document:\n%s", out)
	}
}

func TestCertifyBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--params", "512", "--kat-records", "0:1"}, "missing --backend"},
		{[]string{"--backend", "native", "--kat-records", "0:1"}, "missing --params"},
		{[]string{"--backend", "native", "--params", "512"}, "missing --kat-records"},
		{[]string{"--backend", "native", "--params", "512", "--kat-records", "5:5"}, "want FROM:TO"},
		{[]string{"--backend", "native", "--params", "512", "--kat-records", "0:1", "--scheme", "fn-dsa"}, "Falcon round 3"},
		{[]string{"--backend", "oracle:200", "--params", "512", "--kat-records", "0:1"}, "--error-model rel=2^-P"},
		{[]string{"--backend", "native", "--params", "512", "--kat-records", "0:1", "--error-model", "rel=3"}, "want 2^-P"},
		{[]string{"--backend", "native", "--params", "512", "--kat-records", "0:1", "--error-model", ""}, "--error-model is empty"},
		{[]string{"--backend", "native", "--params", "512", "--kat-records", "0:1", "--error-model", "rel=2^-53,rel=2^-60"}, "rel is given twice"},
		{[]string{"--backend", "native,native", "--params", "512", "--kat-records", "0:1"}, "native is listed twice"},
		{[]string{"--backend", "native", "--params", "512", "--keys", "0"}, "--keys 0: want 1 to 1000"},
		{[]string{"--backend", "native", "--params", "512", "--keys", "0", "--kat-records", "0:1"}, "three sources of keys"},
		{[]string{"--pstar", "--params", "512", "--kat-records", "0:1", "--error-model", ""}, "--error-model is empty"},
	} {
		code, _, errs := runCLI(t, append([]string{"certify"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 mentioning %q", c.args, code, errs, c.want)
		}
	}
}

// TestCertifyCheckpoint: --checkpoint saves every (backend, key); the same
// command again prints the same output from it, saying so on stderr; a
// run with other flags or another key file is refused, as are
// --checkpoint - , --checkpoint with --pstar and a checkpoint that is the
// --sk file. (Resuming a run stopped part way is TestAllResume's, in
// analysis/certify.)
func TestCertifyCheckpoint(t *testing.T) {
	dir := t.TempDir()
	ckpt := filepath.Join(dir, "certify.ckpt")
	args := []string{"certify", "--backend", "emu64,native", "--params", "512", "--kat-records", "0:1", "--check-chosen", "2", "--check-shadow", "dd", "--checkpoint", ckpt}
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var env struct {
		Payload struct {
			Done []struct {
				Document struct {
					Backend string
					Key     struct{ Index int }
				}
			}
		}
	}
	if err := json.Unmarshal(mustRead(t, ckpt), &env); err != nil || len(env.Payload.Done) != 2 || env.Payload.Done[1].Document.Backend != "native" || env.Payload.Done[1].Document.Key.Index != 0 {
		t.Fatalf("checkpoint %+v, %v", env, err)
	}
	code, again, errs := runCLI(t, args...)
	if code != 0 || again != out || !strings.Contains(errs, "2 (backend, key) pairs finished earlier, read from "+ckpt) {
		t.Errorf("again: exit %d, stderr %q, output the same: %v", code, errs, again == out)
	}
	code, _, errs = runCLI(t, append(slices.Clone(args), "--check-signatures", "1")...)
	if code != 2 || !strings.Contains(errs, "belongs to another run (it has --check-signatures 0, this run --check-signatures 1)") {
		t.Errorf("other flags: exit %d, stderr %q", code, errs)
	}

	sk := filepath.Join(dir, "key.sk")
	skArgs := func(path string) []string {
		return []string{"certify", "--backend", "vprec:100", "--sk", sk, "--checkpoint", path}
	}
	recs := katRecords(t, 9)
	keys := [][]byte{recs[0].SK, recs[1].SK}
	writeFile(t, sk, keys[0])
	skCkpt := filepath.Join(dir, "sk.ckpt")
	if code, _, errs := runCLI(t, skArgs(skCkpt)...); code != 0 {
		t.Fatalf("--sk: exit %d, stderr %q", code, errs)
	}
	writeFile(t, sk, keys[1])
	if code, _, errs := runCLI(t, skArgs(skCkpt)...); code != 2 || !strings.Contains(errs, "it has --sk sha256:") {
		t.Errorf("another key file: exit %d, stderr %q", code, errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--checkpoint", "-"}, "--checkpoint -: a checkpoint is a file"},
		{[]string{"certify", "--pstar", "--params", "512", "--kat-records", "0:1", "--checkpoint", ckpt}, "excludes --backend, --error-model, --check-signatures, --check-chosen, --require-proven and --checkpoint"},
		{skArgs(sk), "--checkpoint " + sk + " is the --sk file"},
		// A checkpoint that could not be saved is refused before the
		// first (backend, key) is computed, not after.
		{[]string{"certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--checkpoint", filepath.Join(t.TempDir(), "missing", "ck")}, "cannot be written: cannot create a file in"},
	} {
		if code, _, errs := runCLI(t, c.args...); code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
	if data := mustRead(t, sk); !bytes.Equal(data, keys[1]) {
		t.Error("the key file was changed")
	}
}

// TestCertifyInterrupted: an interrupted certify (a cancelled context, as
// Ctrl-C makes) prints the pairs it finished, marks the JSON
// "interrupted" and exits 130. Here the context is cancelled once the
// checkpoint holds the first of three pairs, while the second is under
// way (each takes about a second); without a checkpoint, cancelled before
// the first, it prints none and says that nothing is saved.
func TestCertifyInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck")
	base := []string{"certify", "--backend", "native", "--params", "512", "--kat-records", "0:3", "--json"}
	run1 := func(ctx context.Context, args []string) (code int, results int, interrupted bool, stderr string) {
		var out, errb bytes.Buffer
		code = run(ctx, args, nil, &out, &errb)
		var doc struct {
			Results     []map[string]any `json:"results"`
			Interrupted bool             `json:"interrupted"`
		}
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.Results == nil {
			t.Errorf("%v: stdout %q: %v", args, out.String(), err)
		}
		return code, len(doc.Results), doc.Interrupted, errb.String()
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for {
			if _, err := os.Stat(path); err == nil {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	code, n, interrupted, errs := run1(ctx, append(base, "--checkpoint", path))
	if code != cli.ExitInterrupted || n < 1 || n > 2 || !interrupted || !strings.Contains(errs, "run the same command again to resume") {
		t.Errorf("with a checkpoint: exit %d, %d results, interrupted %v, stderr %q", code, n, interrupted, errs)
	}
	code, n, interrupted, errs = run1(ctx, base)
	if code != cli.ExitInterrupted || n != 0 || !interrupted || !strings.Contains(errs, "the 0 (backend, key) pairs finished are printed; nothing is saved") {
		t.Errorf("without: exit %d, %d results, interrupted %v, stderr %q", code, n, interrupted, errs)
	}
	// The text says so on standard output too, and --pstar stops between
	// keys likewise.
	var out, errb bytes.Buffer
	if code := run(ctx, []string{"certify", "--backend", "native", "--params", "512", "--kat-records", "0:3", "--checkpoint", path}, nil, &out, &errb); code != cli.ExitInterrupted ||
		!strings.HasPrefix(out.String(), "interrupted: ") || !strings.Contains(out.String(), "the others were not certified") {
		t.Errorf("text: exit %d, stdout %q", code, out.String())
	}
	out.Reset()
	errb.Reset()
	if code := run(ctx, []string{"certify", "--pstar", "--params", "512", "--kat-records", "0:3"}, nil, &out, &errb); code != cli.ExitInterrupted ||
		out.String() != "certified P*, Falcon-512: interrupted after 0 of 3 keys, printed below; the worst over the keys is not known\n" ||
		!strings.Contains(errb.String(), "interrupted: the certified P* of 0 of 3 keys are printed") {
		t.Errorf("--pstar: exit %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run(ctx, []string{"certify", "--pstar", "--params", "512", "--kat-records", "0:3", "--json"}, nil, &out, &errb); code != cli.ExitInterrupted ||
		!strings.Contains(out.String(), `"interrupted": true`) || !strings.Contains(out.String(), `"per_key": []`) {
		t.Errorf("--pstar --json: exit %d, stdout %q", code, out.String())
	}
}

// --check-signatures signs under the oracle shadow and prints the sampled
// maximum beside the bound, and the gap between them. (No backend fprlab
// has exceeds its bound, even with a declared model far below its real
// error: the key's own values' error alone keeps the bound 13 bits above
// the sample, so the exit status 1 of an exceeded bound is not reached
// here.)
func TestCertifyCheckSignatures(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies several keys (about 10 s, minutes under the race detector): run without -short")
	}
	code, out, errs := runCLI(t, "certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--check-signatures", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var doc struct {
		Results []struct {
			Bound      float64  `json:"delta_c_bound_log2"`
			Signatures int      `json:"signatures"`
			Sampled    *float64 `json:"sampled_delta_c_max_log2"`
			Gap        *float64 `json:"gap_bits"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Results) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	r := doc.Results[0]
	if r.Signatures != 3 || r.Sampled == nil || r.Gap == nil || *r.Gap <= 0 || *r.Sampled > -30 || *r.Sampled < -60 || r.Bound-*r.Sampled != *r.Gap {
		t.Fatalf("document:\n%s", out)
	}
	code, _, errs = runCLI(t, "certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--check-signatures", "-1")
	if code != 2 || !strings.Contains(errs, "--check-signatures -1") {
		t.Errorf("--check-signatures -1: exit %d, stderr %q", code, errs)
	}
	// The same signatures against the dd shadow.
	code, out, errs = runCLI(t, "certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--check-signatures", "3", "--check-shadow", "dd", "--progress", "--json")
	var dd struct {
		Results []struct {
			Shadow  string   `json:"check_shadow"`
			Sampled *float64 `json:"sampled_delta_c_max_log2"`
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &dd) != nil || len(dd.Results) != 1 || dd.Results[0].Shadow != "dd" ||
		dd.Results[0].Sampled == nil || math.Abs(*dd.Results[0].Sampled-*r.Sampled) > 1e-6 {
		t.Errorf("--check-shadow dd: exit %d, stderr %q, document:\n%s", code, errs, out)
	}
	if !strings.Contains(errs, "certify: native, KAT key 0: --check-signatures: 3/3 signatures") {
		t.Errorf("--progress: stderr %q", errs)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "native,dd", "--check-signatures", "3", "--check-shadow", "dd"}, "cannot check --backend dd"},
		{[]string{"--backend", "native", "--check-shadow", "dd"}, "--check-shadow dd: it is the exact side of --check-signatures and --check-chosen: give one of them with N > 0"},
		{[]string{"--backend", "native", "--check-shadow", "oracle", "--check-chosen", "0"}, "--check-shadow oracle: it is the exact side of --check-signatures and --check-chosen"},
		{[]string{"--backend", "native", "--check-chosen", "-2"}, "--check-chosen -2: want 0 to 10000000"},
		{[]string{"--backend", "vprec:200", "--check-chosen", "2", "--check-shadow", "dd"}, "--check-shadow dd (106 bits) is not 24 bits wider than vprec:200 (200 bits): the sampled delta_c would be the shadow's own error, not the backend's; use --check-shadow oracle"},
		{[]string{"--backend", "vprec:240", "--check-signatures", "2"}, "--check-shadow oracle (256 bits) is not 24 bits wider than vprec:240 (240 bits)"},
		{[]string{"--pstar", "--check-chosen", "2"}, "excludes --backend, --error-model, --check-signatures, --check-chosen"},
		{[]string{"--backend", "native", "--check-chosen", "2", "--chosen-deviation", "19"}, `--chosen-deviation "19": want drawn or an integer 0 to 18 (the base sampler's support)`},
		{[]string{"--backend", "native", "--check-chosen", "2", "--chosen-deviation", "edge"}, `--chosen-deviation "edge": want drawn or an integer 0 to 18`},
		{[]string{"--backend", "native", "--chosen-deviation", "drawn"}, "--chosen-deviation places the samples of --check-chosen's attempts: give --check-chosen N with N > 0"},
		{[]string{"--backend", "native", "--check-chosen", "0", "--chosen-deviation", "7"}, "give --check-chosen N with N > 0"},
		{[]string{"--backend", "native", "--check-chosen", "2", "--chosen-deviation", "+18"}, `--chosen-deviation "+18": want drawn or an integer 0 to 18`},
		{[]string{"--backend", "native", "--check-chosen", "2", "--chosen-deviation", "018"}, `--chosen-deviation "018": want drawn or an integer 0 to 18`},
		{[]string{"--backend", "native", "--check-signatures", "3", "--check-shadow", "mpfr"}, `--check-shadow "mpfr": want oracle or dd`},
	} {
		code, _, errs := runCLI(t, append([]string{"certify", "--params", "512", "--kat-records", "0:1"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// --check-chosen runs attempts on hashed points chosen for the key, their
// samples at the edge of the support (z0 = 18) unless --chosen-deviation
// says otherwise, and prints their largest delta_c beside the bound, in
// text and JSON.
func TestCertifyCheckChosen(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies a key twice and signs under the dd shadow (about 5 s): run without -short")
	}
	code, out, errs := runCLI(t, "certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--check-chosen", "4", "--check-shadow", "dd", "--progress", "--json")
	var doc struct {
		Results []struct {
			Bound    float64  `json:"delta_c_bound_log2"`
			Shadow   string   `json:"check_shadow"`
			Attempts int      `json:"chosen_attempts"`
			Dev      *int     `json:"chosen_deviation"`
			Chosen   *float64 `json:"chosen_delta_c_max_log2"`
			Gap      *float64 `json:"chosen_gap_bits"`
			Sampled  *float64 `json:"sampled_delta_c_max_log2"`
		}
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil || len(doc.Results) != 1 {
		t.Fatalf("exit %d, stderr %q, document:\n%s", code, errs, out)
	}
	r := doc.Results[0]
	if r.Attempts != 4 || r.Dev == nil || *r.Dev != 18 || r.Shadow != "dd" || r.Chosen == nil || r.Gap == nil || *r.Gap <= 0 || *r.Chosen < -60 || r.Bound-*r.Chosen != *r.Gap || r.Sampled != nil {
		t.Errorf("document:\n%s", out)
	}
	if !strings.Contains(errs, "certify: native, KAT key 0: --check-chosen: 4/4 attempts") {
		t.Errorf("--progress: stderr %q", errs)
	}
	code, out, errs = runCLI(t, "certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--check-chosen", "2", "--check-shadow", "dd")
	if code != 0 || !strings.Contains(out, "chosen hashed points:") || !strings.Contains(out, "maximum over 2 attempts on 2 hashed points chosen for the key's largest targets, samples 18 to 19 from their centres (z0 = 18), dd shadow: the bound is") {
		t.Errorf("text: exit %d, stderr %q, output:\n%s", code, errs, out)
	}
	// Drawn samples: no deviation in the document, "samples drawn" in text.
	code, out, errs = runCLI(t, "certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--check-chosen", "2", "--chosen-deviation", "drawn", "--check-shadow", "dd", "--json")
	if code != 0 || strings.Contains(out, "chosen_deviation") || !strings.Contains(out, `"chosen_attempts": 2`) {
		t.Errorf("--chosen-deviation drawn: exit %d, stderr %q, document:\n%s", code, errs, out)
	}
	code, out, errs = runCLI(t, "certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--check-chosen", "2", "--chosen-deviation", "drawn", "--check-shadow", "dd")
	if code != 0 || !strings.Contains(out, "chosen for the key's largest targets, samples drawn, dd shadow") {
		t.Errorf("--chosen-deviation drawn, text: exit %d, stderr %q, output:\n%s", code, errs, out)
	}
}

// The other sources of keys: --sk FILE holding KAT key 0 certifies as
// --kat-records 0:1 does; --keys 1 --seed S certifies the key compare
// --keys 1 --seed S signs with, whose delta_sigma compare's oracle shadow
// measures at every signature.
func TestCertifyKeySources(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies several keys (about 10 s, minutes under the race detector): run without -short")
	}
	result := func(args ...string) map[string]any {
		t.Helper()
		code, out, errs := runCLI(t, append([]string{"certify", "--backend", "native", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		var doc struct{ Results []map[string]any }
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Results) != 1 {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
		return doc.Results[0]
	}
	recs := katRecords(t, 9)
	skFile := filepath.Join(t.TempDir(), "sk")
	if err := os.WriteFile(skFile, recs[0].SK, 0o600); err != nil {
		t.Fatal(err)
	}
	kat, file := result("--params", "512", "--kat-records", "0:1"), result("--sk", skFile)
	for _, k := range []string{"delta_c_bound_log2", "delta_sigma_log2", "sum_bound_log2", "proven", "params"} {
		if kat[k] != file[k] {
			t.Errorf("%s: KAT record 0 gives %v, --sk of its key %v", k, kat[k], file[k])
		}
	}
	if key := file["key"].(map[string]any); key["source"] != "file" {
		t.Errorf("--sk key: %v", key)
	}
	seeded := result("--params", "512", "--keys", "1", "--seed", "certify keys", "--exact-sigma", "reference")
	// A seeded key is named by what makes it again: seed and key
	// generation backend (round 3).
	if key := seeded["key"].(map[string]any); key["source"] != "seed" || key["seed"] != "certify keys" || key["keygen_backend"] != "native" || key["key_source"] != nil {
		t.Errorf("seeded key: %v", key)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"compare", "--backend", "native", "--params", "512", "--keys", "1", "--seed", "certify keys",
		"--signatures", "1", "--shadow", "oracle", "--exact-sigma", "reference", "--json"}, nil, &out, &errb); code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errb.String())
	}
	var sums []struct {
		PerSignature struct {
			DeltaSigma struct {
				Max float64 `json:"max_log2"`
			} `json:"delta_sigma"`
		} `json:"per_signature"`
	}
	if err := json.Unmarshal(out.Bytes(), &sums); err != nil || len(sums) != 1 {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if got, want := seeded["delta_sigma_log2"].(float64), sums[0].PerSignature.DeltaSigma.Max; math.Abs(got-want) > 1e-6 {
		t.Errorf("seeded key 0: certify's delta_sigma 2^%v, compare's oracle shadow 2^%v", got, want)
	}
	code, _, errs := runCLI(t, "certify", "--backend", "native", "--params", "512", "--keys", "1", "--kat-records", "0:1")
	if code != 2 || !strings.Contains(errs, "give one") {
		t.Errorf("two sources: exit %d: %s", code, errs)
	}
	code, _, errs = runCLI(t, "certify", "--backend", "native", "--params", "1024", "--sk", skFile)
	if code != 2 || !strings.Contains(errs, "--params says 1024") {
		t.Errorf("--sk of another degree: exit %d: %s", code, errs)
	}
}

// --pstar: the least vprec:P proven for KAT key 0 at Falcon-512, checked
// from both sides by certifying vprec:P* and vprec:P*-1 as backends.
func TestCertifyPStar(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies several keys (about 10 s, minutes under the race detector): run without -short")
	}
	code, out, errs := runCLI(t, "certify", "--pstar", "--params", "512", "--kat-records", "0:1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		PStar struct {
			Worst  *int `json:"worst_pstar"`
			PerKey []struct {
				PStar *int `json:"pstar"`
			} `json:"per_key"`
		} `json:"pstar"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.PStar.Worst == nil || len(doc.PStar.PerKey) != 1 || doc.PStar.PerKey[0].PStar == nil {
		t.Fatalf("%v\n%s", err, out)
	}
	p := *doc.PStar.Worst
	if p <= 53 || p > 160 || *doc.PStar.PerKey[0].PStar != p {
		t.Fatalf("P* %d:\n%s", p, out)
	}
	code, out, errs = runCLI(t, "certify", "--backend", fmt.Sprintf("vprec:%d,vprec:%d", p-1, p), "--params", "512", "--kat-records", "0:1")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("\nnot proven: vprec:%d,", p-1)) || !strings.Contains(out, fmt.Sprintf("\nproven: vprec:%d,", p)) {
		t.Errorf("vprec:%d and vprec:%d: exit %d: %s\n%s", p-1, p, code, errs, out)
	}
	code, _, errs = runCLI(t, "certify", "--pstar", "--backend", "native", "--params", "512", "--kat-records", "0:1")
	if code != 2 || !strings.Contains(errs, "excludes --backend") {
		t.Errorf("--pstar --backend: exit %d: %s", code, errs)
	}
}

// compare --certify adds, per backend, the certificates of the campaign's
// keys: the same bounds certify --keys gives for those keys, in --json and
// in summary.json; schemes and backends it cannot certify are refused.
func TestCompareCertify(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies several keys (about 10 s, minutes under the race detector): run without -short")
	}
	dir := filepath.Join(t.TempDir(), "camp")
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"compare", "--backend", "native,triword", "--params", "512", "--keys", "2", "--seed", "cc",
		"--signatures", "2", "--certify", "--json", "--out", dir}, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var sums []struct {
		Backend   string
		Certified *struct {
			Keys, Proven int
			Sum          float64 `json:"sum_bound_log2"`
		}
	}
	if err := json.Unmarshal(out.Bytes(), &sums); err != nil || len(sums) != 2 {
		t.Fatalf("%v\n%s", err, out.String())
	}
	file, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil || !bytes.Contains(file, []byte(`"certified"`)) {
		t.Errorf("summary.json lacks the certificates: %v", err)
	}
	for _, s := range sums {
		code, cout, errs := runCLI(t, "certify", "--backend", s.Backend, "--params", "512", "--keys", "2", "--seed", "cc", "--json")
		if code != 0 {
			t.Fatalf("certify %s: exit %d: %s", s.Backend, code, errs)
		}
		var doc struct {
			Results []struct {
				Sum    float64 `json:"sum_bound_log2"`
				Proven bool
			}
		}
		if err := json.Unmarshal([]byte(cout), &doc); err != nil || len(doc.Results) != 2 {
			t.Fatalf("%v\n%s", err, cout)
		}
		worst, proven := math.Max(doc.Results[0].Sum, doc.Results[1].Sum), 0
		for _, r := range doc.Results {
			if r.Proven {
				proven++
			}
		}
		if c := s.Certified; c == nil || c.Keys != 2 || c.Proven != proven || c.Sum != worst {
			t.Errorf("%s: compare --certify %+v, certify: worst 2^%v, %d proven", s.Backend, c, worst, proven)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--backend", "native", "--mode", "tree"}, "excludes --mode tree"},
		{[]string{"--backend", "oracle:200"}, "--error-model"},
	} {
		errb.Reset()
		args := append([]string{"compare", "--params", "512", "--signatures", "1", "--certify"}, c.args...)
		if code := run(context.Background(), args, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: exit %d: %s", c.args, code, errb.String())
		}
	}
}

// certify --scheme fn-dsa-2026 certifies the draft's signing: its seeded
// keys are compare --scheme fn-dsa-2026's (compare --certify gives the
// same bound), a key file in the draft's encoding is read with --sk, and
// the NIST KAT's round-3 keys are refused.
func TestCertifyFNDSA2026(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies three keys and signs under the shadow: run without -short")
	}
	code, out, errs := runCLI(t, "certify", "--scheme", "fn-dsa-2026", "--backend", "native", "--params", "512", "--keys", "1", "--seed", "c26",
		"--check-signatures", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		Results []struct {
			Scheme     string
			Sum        float64 `json:"sum_bound_log2"`
			Signatures int
			Gap        *float64 `json:"gap_bits"`
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Results) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	r := doc.Results[0]
	if r.Scheme != "fn-dsa-2026" || r.Signatures != 2 || r.Gap == nil || *r.Gap <= 0 {
		t.Errorf("result %+v", r)
	}
	var cmp bytes.Buffer
	var errb bytes.Buffer
	if code := run(context.Background(), []string{"compare", "--scheme", "fn-dsa-2026", "--backend", "native", "--params", "512", "--keys", "1", "--seed", "c26",
		"--signatures", "1", "--certify", "--json"}, nil, &cmp, &errb); code != 0 {
		t.Fatalf("compare --certify: exit %d: %s", code, errb.String())
	}
	var sums []struct {
		Certified *struct {
			Sum float64 `json:"sum_bound_log2"`
		}
	}
	if err := json.Unmarshal(cmp.Bytes(), &sums); err != nil || len(sums) != 1 || sums[0].Certified == nil || sums[0].Certified.Sum != r.Sum {
		t.Errorf("compare --certify gives %s, certify 2^%v (%v)", cmp.String(), r.Sum, err)
	}

	k, err := draft.KeyGen(9, make([]byte, draft.KeygenSeedSize))
	if err != nil {
		t.Fatal(err)
	}
	skf := filepath.Join(t.TempDir(), "sk")
	if err := os.WriteFile(skf, k.Encode(), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "certify", "--scheme", "fn-dsa-2026", "--backend", "vprec:100", "--sk", skf)
	if code != 0 || !strings.Contains(out, "proven: vprec:100, FN-DSA-512 (2026 draft)") {
		t.Errorf("--sk: exit %d\n%s%s", code, out, errs)
	}
	// Round 3's decoder does not take the draft's key.
	if code, _, errs := runCLI(t, "certify", "--backend", "vprec:100", "--sk", skf); code != 2 || !strings.Contains(errs, "--sk") {
		t.Errorf("the draft's key as round 3's: exit %d: %s", code, errs)
	}
	if code, _, errs := runCLI(t, "certify", "--scheme", "fn-dsa-2026", "--backend", "native", "--params", "512", "--kat-records", "0:1"); code != 2 || !strings.Contains(errs, "round 3") {
		t.Errorf("--kat-records: exit %d: %s", code, errs)
	}
}

// katRecords returns the published NIST KAT records of degree 2^logn.
func katRecords(t *testing.T, logn uint) []falcon.KATRecord {
	t.Helper()
	rsp, err := katref.Response(logn)
	if err != nil {
		t.Fatal(err)
	}
	_, recs, err := falcon.ParseKAT(rsp)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// TestCertifyExactSigmaMatchesCompare: certify's delta_sigma is what
// compare's oracle shadow measures under the same --exact-sigma, by
// default (the formula) and with the reference's table, for the backends
// where the two differ most: triword computes its own 1/sigma near the
// formula's, dd takes the reference's binary64 table. (Before certify had
// the flag it took the reference's table while compare took the formula:
// dd's "proven" bound, 2^-81, lay below the 2^-53.19 compare measured in
// the same output.)
func TestCertifyExactSigmaMatchesCompare(t *testing.T) {
	if testing.Short() {
		t.Skip("certifies and signs over dd and triword under the oracle (about 20 s)")
	}
	for _, sigma := range []string{"", "reference"} {
		args := []string{"--params", "512", "--kat-records", "0:1"}
		if sigma != "" {
			args = append(args, "--exact-sigma", sigma)
		}
		code, out, errs := runCLI(t, append([]string{"certify", "--backend", "triword,dd", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("certify %v: exit %d: %s", args, code, errs)
		}
		var cert struct {
			Results []struct {
				Backend    string  `json:"backend"`
				DeltaSigma float64 `json:"delta_sigma_log2"`
				ExactSigma string  `json:"exact_sigma"`
			}
		}
		if err := json.Unmarshal([]byte(out), &cert); err != nil || len(cert.Results) != 2 {
			t.Fatalf("certify: %v\n%s", err, out)
		}
		code, out, errs = runCLI(t, append([]string{"compare", "--backend", "triword,dd", "--shadow", "oracle", "--json"}, args...)...)
		if code != 0 {
			t.Fatalf("compare %v: exit %d: %s", args, code, errs)
		}
		var sums []struct {
			Backend      string `json:"backend"`
			PerSignature struct {
				DeltaSigma struct {
					Max float64 `json:"max_log2"`
				} `json:"delta_sigma"`
			} `json:"per_signature"`
		}
		if err := json.Unmarshal([]byte(out), &sums); err != nil || len(sums) != 2 {
			t.Fatalf("compare: %v\n%s", err, out)
		}
		want := map[string]string{"": "formula", "reference": "reference"}[sigma]
		for i, r := range cert.Results {
			got := sums[i].PerSignature.DeltaSigma.Max
			if r.Backend != sums[i].Backend || r.ExactSigma != want || math.Abs(r.DeltaSigma-got) > 1e-6 {
				t.Errorf("--exact-sigma %q: certify %s delta_sigma 2^%v (%q), compare %s 2^%v", sigma, r.Backend, r.DeltaSigma, r.ExactSigma, sums[i].Backend, got)
			}
		}
	}
	// FN-DSA fixes its table: the formula is refused, the reference is
	// its default.
	code, _, errs := runCLI(t, "certify", "--scheme", "fn-dsa", "--backend", "native", "--params", "512", "--keys", "1", "--seed", "s", "--exact-sigma", "formula")
	if code != 2 || !strings.Contains(errs, "fixes its 1/sigma table") {
		t.Errorf("fn-dsa --exact-sigma formula: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, "certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--exact-sigma", "table"); code != 2 || !strings.Contains(errs, `--exact-sigma "table": want formula or reference`) {
		t.Errorf("--exact-sigma table: exit %d, %q", code, errs)
	}
}
