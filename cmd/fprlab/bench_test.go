package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/bench"
	"github.com/fprlab/fprlab/internal/cli"
)

// TestBenchJSON runs a minimal benchmark and checks the JSON contract:
// every requested row, native and emu64 always present, positive times
// with min <= median <= max, ratios consistent with the medians (1 for a
// reference against itself), and triword's keygen skipped with a warning.
func TestBenchJSON(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "--backend", "triword", "--params", "512", "--op", "keygen,verify", "--count", "2", "--min-time", "0", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []bench.Result
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("decoding --json output: %v\n%s", err, out)
	}
	// The field names are the contract of issue 12 (plus ops_per_run and
	// clock): checked on the raw objects, not through the struct above.
	var raw []map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	contract := []string{"backend", "params", "op", "median_ns", "min_ns", "max_ns", "runs", "ratio_to_emu64", "ratio_to_native", "ops_per_run", "clock"}
	for i, obj := range raw {
		if len(obj) != len(contract) {
			t.Errorf("row %d has fields %v, want %v", i, obj, contract)
		}
		for _, k := range contract {
			if _, ok := obj[k]; !ok {
				t.Errorf("row %d lacks %q", i, k)
			}
		}
	}
	got := map[string]bool{}
	medians := map[string]int64{}
	for i, r := range rows {
		got[r.Backend+" "+r.Op] = true
		medians[r.Backend+" "+r.Op] = r.MedianNS
		if r.Params != 512 || r.Runs != 2 || r.OpsPerRun != 1 || (r.Clock != "cpu" && r.Clock != "wall") {
			t.Errorf("row %d: %+v", i, r)
		}
		if r.MinNS <= 0 || r.MinNS > r.MedianNS || r.MedianNS > r.MaxNS {
			t.Errorf("row %d (%s %s): min %d, median %d, max %d", i, r.Backend, r.Op, r.MinNS, r.MedianNS, r.MaxNS)
		}
	}
	for _, want := range []string{"triword verify", "native verify", "emu64 verify", "native keygen", "emu64 keygen"} {
		if !got[want] {
			t.Errorf("no row for %s:\n%s", want, out)
		}
	}
	if got["triword keygen"] || !strings.Contains(errs, "triword keygen Falcon-512 skipped") {
		t.Errorf("triword keygen not skipped with a warning; stderr %q", errs)
	}
	for i, r := range rows {
		if r.RatioToEmu64 == nil || r.RatioToNative == nil {
			t.Errorf("row %d (%s %s): ratio missing", i, r.Backend, r.Op)
			continue
		}
		if want := float64(r.MedianNS) / float64(medians["native "+r.Op]); *r.RatioToNative != want {
			t.Errorf("row %d (%s %s): ratio to native %v, medians give %v", i, r.Backend, r.Op, *r.RatioToNative, want)
		}
		if r.Backend == "emu64" && *r.RatioToEmu64 != 1 {
			t.Errorf("emu64 %s: ratio to itself %v", r.Op, *r.RatioToEmu64)
		}
	}
}

// TestBenchErrors checks that bad flags are errors naming the problem.
func TestBenchErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--op", "sign,frobnicate"}, `--op "frobnicate": unknown operation`},
		{[]string{"--count", "0"}, "--count 0"},
		{[]string{"--params", "500"}, `--params "500"`},
		{[]string{"--backend", "nosuch"}, "--backend"},
		{[]string{"--clock", "sundial"}, `--clock "sundial"`},
		{[]string{"--backend", ","}, "--backend"},
		{[]string{"--scheme", "fn-dsa-2026", "--op", "sign,sign_tree"}, "--op sign_tree: round 3's only"},
		{[]string{"--scheme", "nosuch"}, "--scheme"},
	} {
		code, _, errs := runCLI(t, append([]string{"bench"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.msg) {
			t.Errorf("bench %v: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, cli.ExitUsage, c.msg)
		}
	}
}

// TestBenchScheme: bench --scheme times the scheme's own key generation
// (integer, once: native's row), signing and verification, names the
// scheme in every row, and leaves round 3's expanded-key operations out.
func TestBenchScheme(t *testing.T) {
	code, out, errs := runCLI(t, "bench", "--scheme", "fn-dsa-2026", "--backend", "native", "--count", "1", "--min-time", "0", "--json")
	var res []struct {
		Scheme  string `json:"scheme"`
		Backend string `json:"backend"`
		Op      string `json:"op"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("exit %d, %s, %.300q", code, errs, out)
	}
	var got []string
	for _, r := range res {
		if r.Scheme != "fn-dsa-2026" {
			t.Errorf("row %+v: scheme %q", r, r.Scheme)
		}
		got = append(got, r.Op+"/"+r.Backend)
	}
	want := []string{"keygen/native", "sign/native", "sign/emu64", "verify/native", "verify/emu64"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %v, want %v", got, want)
	}
	code, out, errs = runCLI(t, "bench", "--scheme", "fn-dsa-2026", "--backend", "native", "--count", "1", "--min-time", "0", "--op", "sign")
	if code != 0 || !strings.Contains(out, "FN-DSA-512 (2026 draft), cpu time per operation") {
		t.Errorf("text: exit %d, %s, %q", code, errs, out)
	}
}
