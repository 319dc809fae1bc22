package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/version"
)

// readJSONFile decodes DIR/name into a map.
func readJSONFile(t *testing.T, dir, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("%s/%s: %v", dir, name, err)
	}
	return m
}

// TestCompareKeySource: compare --scheme fn-dsa signs with FN-DSA's keys
// unless --key-source falcon; the source is in the JSON and text output,
// the manifest and the directory's identity, and a directory is resumed
// with its own key source only -- one written before the key source
// existed (no key_source) as round-3 keys.
func TestCompareKeySource(t *testing.T) {
	tmp := t.TempDir()
	common := []string{"compare", "--scheme", "fn-dsa", "--backend", "native", "--params", "512", "--signatures", "2", "--seed", "key-source"}
	fnDir, r3Dir := filepath.Join(tmp, "fn"), filepath.Join(tmp, "r3")
	code, out, errs := runCLI(t, append(common, "--json", "--out", fnDir)...)
	if code != 0 {
		t.Fatalf("FN-DSA keys: exit %d: %s", code, errs)
	}
	fn := jsonObjects(t, out, false)[0]
	code, out, errs = runCLI(t, append(common, "--json", "--out", r3Dir, "--key-source", "falcon")...)
	if code != 0 {
		t.Fatalf("round-3 keys: exit %d: %s", code, errs)
	}
	r3 := jsonObjects(t, out, false)[0]
	if fn["key_source"] != "fn-dsa" || fn["keygen_backend"] != "" || fn["keygen"] != nil {
		t.Errorf("FN-DSA keys: key_source %v, keygen_backend %q, keygen %v; want fn-dsa, none, no shadowed key generation", fn["key_source"], fn["keygen_backend"], fn["keygen"])
	}
	if r3["key_source"] != "falcon" || r3["keygen_backend"] != "native" || r3["keygen"] == nil {
		t.Errorf("round-3 keys: key_source %v, keygen_backend %v, keygen %v; want falcon over native, shadowed", r3["key_source"], r3["keygen_backend"], r3["keygen"])
	}
	if reflect.DeepEqual(fn["per_leaf"], r3["per_leaf"]) {
		t.Errorf("the two key sources measure the same per-call statistics: the keys did not change")
	}
	// Identity and manifest.
	if id := readJSONFile(t, fnDir, "run.json"); id["key_source"] != "fn-dsa" || id["scheme"] != "fn-dsa" {
		t.Errorf("FN-DSA keys: run.json %v", id)
	}
	if id := readJSONFile(t, r3Dir, "run.json"); id["scheme"] != "fn-dsa" || id["key_source"] != nil {
		t.Errorf("round-3 keys: run.json %v; want scheme fn-dsa and no key_source (as before FN-DSA keys existed)", id)
	}
	for dir, want := range map[string]string{fnDir: "fn-dsa", r3Dir: "falcon"} {
		m := readJSONFile(t, dir, "manifest.json")
		runs, _ := m["runs"].([]any)
		if len(runs) != 1 || runs[0].(map[string]any)["key_source"] != want || runs[0].(map[string]any)["scheme"] != "fn-dsa" {
			t.Errorf("%s manifest: runs %v; want scheme fn-dsa, key_source %s", dir, runs, want)
		}
		if title, _ := m["title"].(string); !strings.Contains(title, "FN-DSA-512 (") {
			t.Errorf("%s manifest title %q does not name the scheme and keys", dir, title)
		}
	}
	// Text output.
	text := []string{"compare", "--scheme", "fn-dsa", "--backend", "native", "--params", "512", "--signatures", "1", "--seed", "key-source"}
	code, out, errs = runCLI(t, text...)
	if code != 0 || !strings.Contains(out, "keys: 1 from FN-DSA key generation") || !strings.Contains(errs, "FN-DSA-512 (FN-DSA keys)") {
		t.Errorf("text output: exit %d, stdout %q, stderr %q", code, out, errs)
	}
	code, out, errs = runCLI(t, append(text, "--key-source", "falcon")...)
	if code != 0 || !strings.Contains(out, "keys: 1 from round-3 key generation over native") || !strings.Contains(errs, "FN-DSA-512 (round-3 keys)") {
		t.Errorf("text output, round-3 keys: exit %d, stdout %q, stderr %q", code, out, errs)
	}

	// Resuming with the other key source is refused, naming the flag.
	if code, _, errs := runCLI(t, append(common, "--out", fnDir, "--key-source", "falcon")...); code != 2 || !strings.Contains(errs, "without --key-source falcon") {
		t.Errorf("FN-DSA-key directory resumed with round-3 keys: exit %d, stderr %q", code, errs)
	}
	if code, _, errs := runCLI(t, append(common, "--out", r3Dir)...); code != 2 || !strings.Contains(errs, "resume it with --key-source falcon") {
		t.Errorf("round-3-key directory resumed with FN-DSA keys: exit %d, stderr %q", code, errs)
	}
	code, out, errs = runCLI(t, append(common, "--json", "--out", r3Dir, "--key-source", "falcon")...)
	if code != 0 {
		t.Fatalf("round-3-key directory resumed with its flag: exit %d: %s", code, errs)
	}
	if again := jsonObjects(t, out, false)[0]; !reflect.DeepEqual(again["per_leaf"], r3["per_leaf"]) {
		t.Errorf("resumed round-3-key directory: per_leaf %v, want %v", again["per_leaf"], r3["per_leaf"])
	}

	// A directory an FN-DSA campaign wrote before the key source existed:
	// its run.json as that version's compareIdentity wrote it.
	old := filepath.Join(tmp, "old")
	if err := os.MkdirAll(old, 0o755); err != nil {
		t.Fatal(err)
	}
	oldID, err := json.MarshalIndent(struct {
		Command    string   `json:"command"`
		Version    string   `json:"version"`
		Backends   []string `json:"backends"`
		Params     int      `json:"params"`
		Signatures int      `json:"signatures"`
		Keys       int      `json:"keys"`
		Seed       string   `json:"seed"`
		Shadow     string   `json:"shadow"`
		ExactSigma string   `json:"exact_sigma"`
		Scheme     string   `json:"scheme"`
	}{"compare", version.Release(), []string{"native"}, 512, 2, 1, "key-source", "dd", "reference", "fn-dsa"}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(old, "run.json"), append(oldID, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	out = resumeOldKeySourceDir(t, common, old)
	if got := jsonObjects(t, out, false)[0]; got["key_source"] != "falcon" || !reflect.DeepEqual(got["per_leaf"], r3["per_leaf"]) {
		t.Errorf("old FN-DSA directory resumed: key_source %v, per_leaf equal to round-3 keys' %v", got["key_source"], reflect.DeepEqual(got["per_leaf"], r3["per_leaf"]))
	}
}

// TestKeySourceBadFlags: --key-source is for --scheme fn-dsa, with a known
// source.
func TestKeySourceBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--key-source", "falcon"}, "--scheme fn-dsa or fn-dsa-2026 only"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--key-source", "fn-dsa"}, "--scheme fn-dsa or fn-dsa-2026 only"},
		{[]string{"compare", "--scheme", "fn-dsa", "--backend", "native", "--params", "512", "--signatures", "1", "--key-source", "ml-dsa"}, "--key-source"},
		{[]string{"sweep", "--format", "vprec:40", "--params", "512", "--signatures", "1", "--key-source", "falcon"}, "--scheme fn-dsa or fn-dsa-2026 only"},
		{[]string{"sweep", "--scheme", "fn-dsa", "--format", "vprec:40", "--params", "512", "--signatures", "1", "--key-source", "round3"}, "--key-source"},
		{[]string{"tune", "--params", "512", "--signatures", "1", "--key-source", "falcon"}, "--scheme fn-dsa or fn-dsa-2026 only"},
		{[]string{"tune", "--scheme", "fn-dsa", "--params", "512", "--signatures", "1", "--key-source", "ntru"}, "--key-source"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestKeySourceMerge: shards of an FN-DSA campaign merge when their keys
// come from the same source, and not otherwise.
func TestKeySourceMerge(t *testing.T) {
	tmp := t.TempDir()
	shard := func(i, dir string, extra ...string) {
		t.Helper()
		args := append([]string{"compare", "--scheme", "fn-dsa", "--backend", "native", "--params", "512", "--signatures", "2", "--shard", i + "/2", "--out", dir}, extra...)
		if code, _, errs := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	a, b, r3 := filepath.Join(tmp, "a"), filepath.Join(tmp, "b"), filepath.Join(tmp, "r3")
	shard("0", a)
	shard("1", b)
	shard("1", r3, "--key-source", "falcon")
	code, out, errs := runCLI(t, "merge", a, b, "--out", filepath.Join(tmp, "m"), "--json")
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	if m := jsonObjects(t, out, false)[0]; m["key_source"] != "fn-dsa" || m["signatures"] != float64(2) || m["keygen_backend"] != "" {
		t.Errorf("merged: key_source %v, %v signatures, keygen_backend %v", m["key_source"], m["signatures"], m["keygen_backend"])
	}
	if code, _, errs := runCLI(t, "merge", a, r3, "--out", filepath.Join(tmp, "m2")); code != 2 || !strings.Contains(errs, "its keys are round 3's") || !strings.Contains(errs, "--key-source fn-dsa") {
		t.Errorf("merge of FN-DSA-key and round-3-key shards: exit %d, stderr %q", code, errs)
	}
}

// TestSweepKeySource: sweep --scheme fn-dsa signs with FN-DSA's keys, says
// so, and keeps the key source in its directory's identity.
func TestSweepKeySource(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sw")
	args := []string{"sweep", "--scheme", "fn-dsa", "--format", "vprec:56", "--reference", "", "--params", "512", "--signatures", "1", "--out", dir}
	code, out, errs := runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, errs)
	}
	if p := jsonObjects(t, out, true)[0]; p["key_source"] != "fn-dsa" || p["keygen_backend"] != "" {
		t.Errorf("sweep point: key_source %v, keygen_backend %v", p["key_source"], p["keygen_backend"])
	}
	if id := readJSONFile(t, dir, "run.json"); id["key_source"] != "fn-dsa" {
		t.Errorf("sweep run.json: %v", id)
	}
	if code, _, errs := runCLI(t, append(args, "--key-source", "falcon")...); code != 2 || !strings.Contains(errs, "without --key-source falcon") {
		t.Errorf("sweep directory resumed with round-3 keys: exit %d, stderr %q", code, errs)
	}
	code, out, errs = runCLI(t, "sweep", "--scheme", "fn-dsa", "--key-source", "falcon", "--format", "vprec:56", "--reference", "", "--params", "512", "--signatures", "1", "--json")
	if code != 0 {
		t.Fatalf("sweep --key-source falcon: exit %d: %s", code, errs)
	}
	if p := jsonObjects(t, out, true)[0]; p["key_source"] != "falcon" || p["keygen_backend"] != "emu64" {
		t.Errorf("sweep --key-source falcon: key_source %v, keygen_backend %v; want falcon over emu64", p["key_source"], p["keygen_backend"])
	}
}

// resumeOldKeySourceDir checks that the FN-DSA directory old, written
// before the key source existed (round-3 keys), is refused to the command
// args without --key-source (exit 2, naming --key-source falcon), and
// returns the --json output of its resumption with --key-source falcon.
func resumeOldKeySourceDir(t *testing.T, args []string, old string) string {
	t.Helper()
	if code, _, errs := runCLI(t, append(args, "--out", old)...); code != 2 || !strings.Contains(errs, "no key_source") || !strings.Contains(errs, "--key-source falcon") {
		t.Errorf("old FN-DSA directory without --key-source: exit %d, stderr %q; want exit 2 naming --key-source falcon", code, errs)
	}
	code, out, errs := runCLI(t, append(args, "--json", "--out", old, "--key-source", "falcon")...)
	if code != 0 {
		t.Fatalf("old FN-DSA directory with --key-source falcon: exit %d: %s", code, errs)
	}
	return out
}
