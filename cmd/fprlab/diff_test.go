package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
)

// exampleDir copies the example campaign's compare document (and the
// manifest) into a new directory, with its triword's per-signature worst
// replaced by worst (the example's is -59.7) and its flips by flips.
func exampleDir(t *testing.T, worst float64, flips int) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(exampleCampaign, "compare-512.json"))
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(data, &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		if o["backend"] == "triword" {
			o["per_signature"].(map[string]any)["sum"].(map[string]any)["max_log2"] = worst
			o["meets_2^-46"] = worst <= -46
			o["flips"] = map[string]any{"total": flips}
		}
	}
	out, _ := json.Marshal(objs)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compare-512.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDiff: the example campaign against a copy whose triword got 15 bits
// worse and flips: text and JSON say so; the same campaign twice changes
// nothing.
func TestDiff(t *testing.T) {
	a, b := exampleDir(t, -59.7, 0), exampleDir(t, -44.7, 7)
	code, out, errOut := runCLI(t, "diff", a, b)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"1 of 3 backends worse",
		"triword, Falcon-512: NOW FAILS 2^-46; worst +15.00 bits (2^-59.70 → 2^-44.70); flips 0 → 7 (appeared)",
		"native, Falcon-512: verdict unchanged (fails 2^-46); worst +0.00 bits",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI(t, "diff", a, b, "--json")
	if code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errOut)
	}
	var d struct {
		Pairs []struct {
			A       string `json:"a"`
			Verdict string `json:"verdict"`
			Flips   string `json:"flips"`
			FlipsB  *int64 `json:"flips_b"`
			Stats   []struct {
				Name   string   `json:"name"`
				A      any      `json:"a_log2"`
				Change *float64 `json:"change_bits"`
			} `json:"stats"`
		} `json:"pairs"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for _, p := range d.Pairs {
		if p.A != "triword" {
			continue
		}
		if p.Verdict != "now fails" || p.Flips != "appeared" || *p.FlipsB != 7 || p.Stats[0].Change == nil || *p.Stats[0].Change < 14.99 || *p.Stats[0].Change > 15.01 {
			t.Errorf("triword: %+v", p)
		}
		// The example leaves per_signature.delta_c out: not measured is
		// null, and so is its change.
		for _, s := range p.Stats {
			if s.Name == "per-signature worst δc" && (s.A != nil || s.Change != nil) {
				t.Errorf("an absent statistic reads %v, change %v", s.A, s.Change)
			}
		}
	}
	if code, out, _ := runCLI(t, "diff", a, a); code != 0 || !strings.Contains(out, "0 of 3 backends worse") {
		t.Errorf("a campaign against itself: exit %d\n%s", code, out)
	}
}

// TestDiffBadInput: what cannot be compared exits 2 with a message naming
// the problem.
func TestDiffBadInput(t *testing.T) {
	a := exampleDir(t, -59.7, 0)
	other := t.TempDir()
	doc := `[{"backend": "native", "params": 1024, "signatures": 2, "leaves": 4, "per_leaf": {"sum": {"max_log2": -40}}, "per_signature": {"sum": {"max_log2": -40}}}]`
	if err := os.WriteFile(filepath.Join(other, "c.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	empty, notes := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(notes, "notes.json"), []byte(`{"not": "a document"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", a}, "accepts 2 arg"},
		{[]string{"diff", a, other}, "the backends differ"},
		{[]string{"diff", a, filepath.Join(a, "compare-512.json")}, "is a file"},
		{[]string{"diff", a, filepath.Join(a, "nosuch")}, "nosuch"},
		{[]string{"diff", a, notes}, "holds no compare or sweep document"},
		{[]string{"diff", empty, a}, "holds no compare or sweep document"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want exit 2 naming %q", tc.args, code, errOut, tc.want)
		}
	}
	// Two campaigns of one backend each at different degrees.
	one := t.TempDir()
	doc512 := strings.Replace(doc, `"params": 1024`, `"params": 512`, 1)
	if err := os.WriteFile(filepath.Join(one, "c.json"), []byte(doc512), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "diff", one, other); code != cli.ExitUsage || !strings.Contains(errOut, "Falcon-512") || !strings.Contains(errOut, "Falcon-1024") {
		t.Errorf("degrees differ: exit %d, %q", code, errOut)
	}
	// report --baseline refuses the same.
	if code, _, errOut := runCLI(t, "report", "--in", other, "--baseline", a, "--out", filepath.Join(t.TempDir(), "r.html"), "--allow-no-manifest"); code != cli.ExitUsage || !strings.Contains(errOut, "the backends differ") {
		t.Errorf("report --baseline of another campaign: exit %d, %q", code, errOut)
	}
}

// conditionsDir is a copy of the example campaign's compare document with
// set applied to every backend object.
func conditionsDir(t *testing.T, set map[string]any) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(exampleCampaign, "compare-512.json"))
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(data, &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		for k, v := range set {
			o[k] = v
		}
	}
	out, _ := json.Marshal(objs)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compare-512.json"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestDiffOtherConditions: campaigns measured under another scheme, key
// source, shadow, exact sigma or acceptance test are refused by diff and
// report --baseline, naming what differs; --allow-mismatch marks every
// pair and row instead.
func TestDiffOtherConditions(t *testing.T) {
	base := map[string]any{"shadow": "dd", "exact_sigma": "formula"}
	fn := map[string]any{"shadow": "dd", "exact_sigma": "formula", "scheme": "fn-dsa", "key_source": "fn-dsa"}
	with := func(m map[string]any, k string, v any) map[string]any {
		out := map[string]any{k: v}
		for mk, mv := range m {
			if mk != k {
				out[mk] = mv
			}
		}
		return out
	}
	for i, c := range []struct {
		a, b map[string]any
		want string
	}{
		{base, with(base, "scheme", "fn-dsa"), "FN-DSA"},
		{fn, with(fn, "key_source", "falcon"), "round 3's"},
		{base, with(base, "shadow", "oracle"), `--shadow "oracle"`},
		{base, with(base, "exact_sigma", "reference"), `--exact-sigma "reference"`},
		{base, with(base, "acceptance", "two-bernoulli"), `--acceptance "two-bernoulli"`},
	} {
		a, b := conditionsDir(t, c.a), conditionsDir(t, c.b)
		code, out, errOut := runCLI(t, "diff", a, b)
		if code != 2 || !strings.Contains(errOut, "other conditions") || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("case %d: diff: exit %d, want 2 naming %q; stdout %q, stderr %s", i, code, c.want, out, errOut)
		}
		code, out, errOut = runCLI(t, "diff", "--allow-mismatch", a, b)
		if code != 0 || strings.Count(out, "MEASURED UNDER OTHER CONDITIONS") != 3 || strings.Count(out, "(other conditions)") != 3*7 {
			t.Errorf("case %d: diff --allow-mismatch: exit %d (%s), want every pair and row marked:\n%s", i, code, errOut, out)
		}
		page := filepath.Join(t.TempDir(), "r.html")
		code, _, errOut = runCLI(t, "report", "--allow-no-manifest", "--baseline", a, "--in", b, "--out", page)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("case %d: report --baseline: exit %d, want 2 naming %q: %s", i, code, c.want, errOut)
		}
		code, _, errOut = runCLI(t, "report", "--allow-no-manifest", "--allow-mismatch", "--baseline", a, "--in", b, "--out", page)
		html, _ := os.ReadFile(page)
		if code != 0 || strings.Count(string(html), "measured under other conditions") < 3+3*7 {
			t.Errorf("case %d: report --allow-mismatch: exit %d (%s), want every row marked", i, code, errOut)
		}
	}
	a, b := conditionsDir(t, base), conditionsDir(t, base)
	if code, out, errOut := runCLI(t, "diff", a, b); code != 0 || strings.Contains(out, "OTHER CONDITIONS") {
		t.Errorf("same conditions: exit %d (%s):\n%s", code, errOut, out)
	}
}

// TestDiffFailOnWorse: --fail-on-worse exits 1 when a backend got worse,
// after the comparison, and 0 when none did; the header names A and B.
func TestDiffFailOnWorse(t *testing.T) {
	a, b := exampleDir(t, -59.7, 0), exampleDir(t, -44.7, 7)
	code, out, errOut := runCLI(t, "diff", "--fail-on-worse", a, b)
	if code != 1 || !strings.Contains(out, "1 of 3 backends worse") || !strings.Contains(errOut, "1 of 3 backends") {
		t.Errorf("worse: exit %d, want 1; stdout:\n%s\nstderr: %s", code, out, errOut)
	}
	if want := "B (" + b + ") against the baseline A (" + a + "):"; !strings.HasPrefix(out, want) {
		t.Errorf("header: want %q, got %q", want, strings.SplitN(out, "\n", 2)[0])
	}
	if code, _, errOut := runCLI(t, "diff", "--fail-on-worse", a, a); code != 0 {
		t.Errorf("unchanged: exit %d (%s), want 0", code, errOut)
	}
}
