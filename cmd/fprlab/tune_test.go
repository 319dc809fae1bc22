package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/version"
)

func TestTuneBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--params", "256"}, "512 or 1024"},
		{[]string{"--params", "512", "--target", "2^x"}, "--target"},
		{[]string{"--params", "512", "--target", "2^3"}, "target"},
		{[]string{"--params", "512", "--statistic", "worst"}, "--statistic"},
		{[]string{"--params", "512", "--cost", "area"}, "--cost"},
		{[]string{"--params", "512", "--rounding", "up"}, "--rounding"},
		{[]string{"--params", "512", "--exp", "40"}, "--exp"},
		{[]string{"--params", "512", "--signatures", "0"}, "signatures"},
		{[]string{"--params", "512", "--start", "100"}, "start"},
		{[]string{"--params", "512", "--floor", "70"}, "floor"},
		{[]string{"--params", "512", "--workers", "-1"}, "--workers"},
		{[]string{"--params", "512", "--margin", "-1"}, "margin"},
	} {
		code, _, stderr := runCLI(t, append([]string{"tune"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("tune %v: exit %d, stderr %q; want exit 2 naming %q", c.args, code, stderr, c.want)
		}
	}
}

// A small search over Falcon-512 with --out, then the same command again:
// the second run measures nothing new and prints the same result.
func TestTuneOutResume(t *testing.T) {
	if testing.Short() {
		t.Skip("signs some hundred Falcon-512 signatures over big-float formats")
	}
	dir := filepath.Join(t.TempDir(), "tune")
	args := []string{"tune", "--params", "512", "--signatures", "2", "--confirm-signatures", "2", "--start", "64", "--step", "32",
		"--floor", "32", "--target", "2^-40", "--out", dir, "--json", "--workers", "2"}
	code, out1, stderr := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Chosen struct {
			Plan  string `json:"plan"`
			Meets bool   `json:"meets_target"`
			Cost  float64
			Conf  *struct{ Seed string } `json:"confirmation"`
		} `json:"chosen"`
		Uniform struct{ Cost float64 } `json:"uniform"`
	}
	if err := json.Unmarshal([]byte(out1), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Chosen.Meets || r.Chosen.Conf == nil || r.Chosen.Cost > r.Uniform.Cost {
		t.Fatalf("result %+v", r)
	}
	before, err := os.ReadFile(filepath.Join(dir, "evaluations.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The manifest says what was run, so report needs no
	// --allow-no-manifest; its run is the command line as given.
	var m struct {
		Runs []struct {
			Argv   []string `json:"argv"`
			Output string   `json:"output"`
			Seed   string   `json:"seed"`
		} `json:"runs"`
	}
	if data, err := os.ReadFile(filepath.Join(dir, "manifest.json")); err != nil || json.Unmarshal(data, &m) != nil || len(m.Runs) != 1 ||
		m.Runs[0].Output != "result.json" || m.Runs[0].Seed != "tune" || strings.Join(m.Runs[0].Argv, " ") != "fprlab "+strings.Join(args, " ") {
		t.Errorf("manifest: %v %+v", err, m)
	}
	if code, _, stderr := runCLI(t, "report", "--in", dir, "--out", filepath.Join(t.TempDir(), "tune.html"), "--points", "2"); code != 0 {
		t.Errorf("report --in the tune directory: exit %d: %s", code, stderr)
	}
	code, out2, stderr := runCLI(t, append(args, "--progress")...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "evaluations.json"))
	if string(after) != string(before) {
		t.Error("the resumed run measured again")
	}
	// Only the seconds may differ: the result is computed from the same
	// measurements.
	strip := func(s string) string {
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if !strings.Contains(l, `"seconds"`) {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	if strip(out1) != strip(out2) {
		t.Error("the resumed run's result differs")
	}
	// Another run's directory is refused.
	code, _, stderr = runCLI(t, "tune", "--params", "512", "--signatures", "2", "--seed", "other", "--out", dir)
	if code == 0 || !strings.Contains(stderr, "seed") {
		t.Errorf("another seed over the same --out: exit %d, %s", code, stderr)
	}
}

// TestTuneFNDSA: tune --scheme fn-dsa searches FN-DSA-512 plans, names the
// scheme in its result and manifest, prints the expm stage as not tuned
// (FN-DSA's ApproxExp is integer), and its --out directory is refused to a
// round-3 tune with the same flags, as a round-3 directory is refused to
// FN-DSA.
func TestTuneFNDSA(t *testing.T) {
	tmp := t.TempDir()
	common := []string{"--params", "512", "--signatures", "2", "--confirm-signatures", "2", "--start", "64", "--step", "32",
		"--floor", "32", "--target", "2^-40", "--workers", "2"}
	fn := filepath.Join(tmp, "fn")
	code, out, stderr := runCLI(t, append(append([]string{"tune", "--scheme", "fn-dsa"}, common...), "--out", fn, "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Scheme   string `json:"scheme"`
		NotTuned []struct {
			Stage  string `json:"stage"`
			Reason string `json:"reason"`
		} `json:"not_tuned"`
		Below53 []string `json:"below_53"`
		Above53 []string `json:"above_53"`
		Chosen  struct {
			Meets bool `json:"meets_target"`
			Conf  *struct {
				Meets bool `json:"meets_target"`
			} `json:"confirmation"`
		} `json:"chosen"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Scheme != "fn-dsa" || len(r.NotTuned) != 1 || r.NotTuned[0].Stage != "expm" || !strings.Contains(r.NotTuned[0].Reason, "integer") {
		t.Errorf("scheme %q, not tuned %+v", r.Scheme, r.NotTuned)
	}
	if !r.Chosen.Meets || r.Chosen.Conf == nil || !r.Chosen.Conf.Meets {
		t.Errorf("chosen %+v", r.Chosen)
	}
	for _, st := range append(r.Below53, r.Above53...) {
		if st == "expm" {
			t.Error("expm listed as narrower or wider than binary64")
		}
	}
	if data, err := os.ReadFile(filepath.Join(fn, "manifest.json")); err != nil || !strings.Contains(string(data), "FN-DSA-512 (FN-DSA keys)") {
		t.Errorf("manifest does not name FN-DSA-512 with FN-DSA keys: %v %.300s", err, data)
	}
	// The text output (the same run, resumed from the directory).
	code, text, stderr := runCLI(t, append(append([]string{"tune", "--scheme", "fn-dsa"}, common...), "--out", fn)...)
	if code != 0 {
		t.Fatalf("resume: exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(text, "FN-DSA-512 (FN-DSA keys):") || !regexp.MustCompile(`(?m)^expm +- +no floating-point work in FN-DSA`).MatchString(text) || !strings.Contains(text, "not priced") {
		t.Errorf("text output:\n%s", text)
	}

	// Identity: neither scheme's directory resumes as the other's.
	code, _, stderr = runCLI(t, append(append([]string{"tune"}, common...), "--out", fn)...)
	if code == 0 || !strings.Contains(stderr, "scheme") {
		t.Errorf("round 3 over an FN-DSA directory: exit %d, %s", code, stderr)
	}
	r3 := filepath.Join(tmp, "r3")
	if code, _, stderr := runCLI(t, append(append([]string{"tune"}, common...), "--out", r3)...); code != 0 {
		t.Fatalf("round 3: exit %d: %s", code, stderr)
	}
	code, _, stderr = runCLI(t, append(append([]string{"tune", "--scheme", "fn-dsa"}, common...), "--out", r3)...)
	if code == 0 || !strings.Contains(stderr, "scheme") {
		t.Errorf("FN-DSA over a round-3 directory: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI(t, "tune", "--scheme", "fn-dsa", "--params", "256"); code != cli.ExitUsage || !strings.Contains(stderr, "512 or 1024") {
		t.Errorf("--scheme fn-dsa --params 256: exit %d, %s", code, stderr)
	}
}

// TestTuneKeySource: tune --scheme fn-dsa signs with FN-DSA's keys unless
// --key-source falcon, as compare does; the source is in the JSON and
// text output, the manifest and the --out identity, and a directory
// resumes with its own key source only -- one written before the key
// source existed (no key_source in its identity) as round-3 keys.
func TestTuneKeySource(t *testing.T) {
	if testing.Short() {
		t.Skip("two small FN-DSA-512 searches")
	}
	tmp := t.TempDir()
	common := []string{"tune", "--scheme", "fn-dsa", "--params", "512", "--signatures", "1", "--confirm-signatures", "1", "--start", "64", "--step", "32",
		"--floor", "32", "--target", "2^-40", "--workers", "2", "--seed", "tune-keys"}
	fnDir, r3Dir := filepath.Join(tmp, "fn"), filepath.Join(tmp, "r3")
	type result struct {
		KeySource string `json:"key_source"`
		Uniform   struct {
			ErrorLog2 float64 `json:"error_log2"`
		} `json:"uniform"`
	}
	search := func(dir string, extra ...string) (result, string) {
		t.Helper()
		code, out, errs := runCLI(t, append(append(common, "--json", "--out", dir), extra...)...)
		if code != 0 {
			t.Fatalf("tune %v: exit %d: %s", extra, code, errs)
		}
		var r result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatal(err)
		}
		return r, out
	}
	fn, _ := search(fnDir)
	r3, r3Out := search(r3Dir, "--key-source", "falcon")
	if fn.KeySource != "fn-dsa" || r3.KeySource != "falcon" {
		t.Errorf("key_source %q and %q; want fn-dsa and falcon", fn.KeySource, r3.KeySource)
	}
	if fn.Uniform.ErrorLog2 == r3.Uniform.ErrorLog2 {
		t.Errorf("both key sources measure the uniform plan at 2^%g: the keys did not change", fn.Uniform.ErrorLog2)
	}
	// The identity: key_source fn-dsa for FN-DSA keys, none for round 3's
	// (as before the flag existed); the manifest names the keys.
	flags := func(dir string) map[string]string {
		var env struct {
			Identity checkpoint.Identity `json:"identity"`
		}
		data, err := os.ReadFile(filepath.Join(dir, "evaluations.json"))
		if err != nil || json.Unmarshal(data, &env) != nil {
			t.Fatalf("%s/evaluations.json: %v", dir, err)
		}
		return env.Identity.Flags
	}
	if f := flags(fnDir); f["key_source"] != "fn-dsa" || f["scheme"] != "fn-dsa" {
		t.Errorf("FN-DSA keys: identity %v", f)
	}
	if f := flags(r3Dir); f["scheme"] != "fn-dsa" || f["key_source"] != "" {
		t.Errorf("round-3 keys: identity %v; want scheme fn-dsa and no key_source", f)
	}
	for dir, want := range map[string]string{fnDir: "fn-dsa", r3Dir: "falcon"} {
		m := readJSONFile(t, dir, "manifest.json")
		runs, _ := m["runs"].([]any)
		if len(runs) != 1 || runs[0].(map[string]any)["key_source"] != want || runs[0].(map[string]any)["scheme"] != "fn-dsa" {
			t.Errorf("%s manifest: runs %v; want scheme fn-dsa, key_source %s", dir, runs, want)
		}
		name := map[string]string{"fn-dsa": "FN-DSA-512 (FN-DSA keys)", "falcon": "FN-DSA-512 (round-3 keys)"}[want]
		if title, _ := m["title"].(string); !strings.Contains(title, name) {
			t.Errorf("%s manifest title %q does not name %s", dir, title, name)
		}
	}
	// Text output (resumed: nothing is measured again).
	code, out, errs := runCLI(t, append(common, "--out", r3Dir, "--key-source", "falcon")...)
	if code != 0 || !strings.HasPrefix(out, "FN-DSA-512 (round-3 keys):") {
		t.Errorf("text output, round-3 keys: exit %d, %q, %s", code, out, errs)
	}

	// Resuming with the other key source is refused, naming the flag.
	if code, _, errs := runCLI(t, append(common, "--out", fnDir, "--key-source", "falcon")...); code != 2 || !strings.Contains(errs, "without --key-source falcon") {
		t.Errorf("FN-DSA-key directory resumed with round-3 keys: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI(t, append(common, "--out", r3Dir)...); code != 2 || !strings.Contains(errs, "resume it with --key-source falcon") {
		t.Errorf("round-3-key directory resumed with FN-DSA keys: exit %d, stderr %q", code, errs)
	}

	// A directory tune --scheme fn-dsa wrote before the key source
	// existed: its identity as that version's tune.Identity wrote it, the
	// round-3-key search's measurements as its checkpoint.
	old := filepath.Join(tmp, "old")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	oldID := checkpoint.Identity{Command: "tune", Version: version.Release(), Flags: map[string]string{
		"params": "512", "target": "-40", "margin": "0.5", "statistic": "per-signature-worst", "seed": "tune-keys", "keys": "1",
		"format": "vprec:%d", "scheme": "fn-dsa"}}
	// The round-3-key search's identity is the old one (Load compares).
	var ck struct {
		Evaluations []json.RawMessage `json:"evaluations"`
	}
	if _, err := checkpoint.Load(filepath.Join(r3Dir, "evaluations.json"), oldID, &ck); err != nil {
		t.Fatal(err)
	}
	if err := checkpoint.Save(filepath.Join(old, "evaluations.json"), oldID, &ck); err != nil {
		t.Fatal(err)
	}
	out = resumeOldKeySourceDir(t, common, old)
	var got, want map[string]any
	if json.Unmarshal([]byte(out), &got) != nil || json.Unmarshal([]byte(r3Out), &want) != nil {
		t.Fatal("tune --json is not a JSON object")
	}
	for _, k := range []string{"key_source", "uniform", "chosen", "pareto"} {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Errorf("old directory resumed with --key-source falcon: %s %v, the round-3-key search's %v", k, got[k], want[k])
		}
	}
}
