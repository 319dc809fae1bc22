package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/internal/cli"
)

type cyclesReportJSON struct {
	Platform string `json:"platform"`
	Params   int    `json:"params"`
	Records  []int  `json:"records"`
	Phases   []struct {
		Phase      string  `json:"phase"`
		BaselineK  float64 `json:"baseline_kcycles"`
		EstK       float64 `json:"estimated_kcycles"`
		EstSpeedup float64 `json:"estimated_speedup"`
		Valid      bool    `json:"valid"`
		Units      []struct {
			Unit string  `json:"unit"`
			Mean float64 `json:"mean"`
			Min  uint64  `json:"min"`
			Max  uint64  `json:"max"`
		} `json:"units"`
	} `json:"phases"`
}

// TestAccelCyclesJSON runs accel cycles on two records with the built-in
// table, and with a user table whose accelerated costs equal the software
// ones, which must leave every phase at its baseline (speedup 1).
// flatCostTable is a cost table in which acceleration changes nothing,
// with no verify path.
const flatCostTable = `{"platform": "flat", "units": {` +
	`"fpr": {"software": {"cycles": 5}, "accelerated": {"cycles": 5}},` +
	`"fpr_norm64": {"software": {"cycles": 5}, "accelerated": {"cycles": 5}},` +
	`"modp_montymul": {"software": {"cycles": 1}, "accelerated": {"cycles": 1}},` +
	`"mq_montymul": {"software": {"cycles": 1}, "accelerated": {"cycles": 1}},` +
	`"keccak_f1600": {"software": {"cycles": 9}, "accelerated": {"cycles": 9}}},` +
	`"phases": {"512": {"keygen": {"baseline_kcycles": 1000}, "sign": {"baseline_kcycles": 500}, "verify": {"baseline_kcycles": 5}}}}`

func TestAccelCyclesJSON(t *testing.T) {
	code, out, errs := runCLI(t, "accel", "cycles", "--params", "512", "--records", "2", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var r cyclesReportJSON
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Platform != "horcrux" || r.Params != 512 || len(r.Records) != 2 || len(r.Phases) != 3 || r.Phases[0].BaselineK != 162348 {
		t.Fatalf("%+v", r)
	}
	// The verify phase of every record has the same mq_montymul count (HORCRUX's
	// verify path: 2 NTT + 2n + iNTT = 8,448 at Falcon-512).
	if u := r.Phases[2].Units[3]; u.Unit != "mq_montymul" || u.Min != 8448 || u.Max != 8448 {
		t.Errorf("verify mq_montymul %+v", u)
	}

	dir := t.TempDir()
	table := flatCostTable
	path := filepath.Join(dir, "flat.json")
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runCLI(t, "accel", "cycles", "--params", "512", "--records", "1", "--platform", path, "--json")
	if code != 0 {
		t.Fatalf("flat table: exit %d, stderr %q", code, errs)
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, p := range r.Phases {
		if !p.Valid || p.EstSpeedup != 1 || p.EstK != p.BaselineK {
			t.Errorf("flat table, %s: %+v, want the baseline unchanged", p.Phase, p)
		}
	}
	code, out, errs = runCLI(t, "accel", "cycles", "--params", "512", "--records", "1", "--platform", path)
	if code != 0 || !strings.Contains(out, `cost table "flat"`) || !strings.Contains(out, "(no source given)") {
		t.Errorf("flat table, text: exit %d, %q, %q", code, errs, out)
	}

	// Bad input: exit 2 and a message naming the problem.
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(strings.Replace(table, `"fpr": {"software": {"cycles": 5}`, `"fpr": {"software": {"cycles": -5}`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--params", "512", "--records", "0"}, "--records 0"},
		{[]string{"--params", "512", "--records", "101"}, "--records 101"},
		{[]string{"--params", "2048"}, "512 or 1024"},
		{[]string{"--params", "512", "--platform", "nosuch"}, "not a built-in platform"},
		{[]string{"--params", "512", "--platform", filepath.Join(dir, "missing.json")}, "missing.json"},
		{[]string{"--params", "512", "--platform", bad}, "units.fpr.software.cycles -5"},
		{[]string{"--params", "1024", "--platform", path}, "no figures for Falcon-1024"},
	} {
		code, _, errs := runCLI(t, append([]string{"accel", "cycles"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
}

// TestAccelExactnessChecks checks that accel mult and ffsampling report
// emu64's digest for exact datapaths (the check itself, and the faults it
// catches, are tested in package accel).
func TestAccelExactnessChecks(t *testing.T) {
	ed := &accel.ExactChecker{LogN: 9, Record: 0}
	code, out, errs := runCLI(t, "accel", "mult", "--params", "512", "--json")
	if code != 0 {
		t.Fatalf("mult: exit %d, %q", code, errs)
	}
	var m struct {
		Designs []struct {
			Design string           `json:"design"`
			Exact  accel.ExactCheck `json:"exactness"`
		} `json:"designs"`
	}
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	want, err := ed.Emu64Digest()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Designs) != 10 {
		t.Fatalf("%d designs", len(m.Designs))
	}
	for _, d := range m.Designs {
		if !d.Exact.Exact() || d.Exact.Digest != want || d.Exact.Emu64Digest != want {
			t.Errorf("mult %s: %+v, want emu64's digest %v", d.Design, d.Exact, want)
		}
	}
	code, out, errs = runCLI(t, "accel", "ffsampling", "--params", "512", "--signatures", "1", "--json")
	if code != 0 {
		t.Fatalf("ffsampling: exit %d, %q", code, errs)
	}
	var f struct {
		BitExact  bool               `json:"bit_exact"`
		Digest    accel.ResultDigest `json:"digest"`
		Recursive accel.ResultDigest `json:"recursive_digest"`
	}
	if err := json.Unmarshal([]byte(out), &f); err != nil {
		t.Fatal(err)
	}
	if !f.BitExact || f.Digest != f.Recursive || f.Digest.Samples != 1024 || f.Digest.Results < 100000 {
		t.Errorf("ffsampling: %+v", f)
	}
}

// TestAccelCyclesCortexM4F checks the shape of accel cycles --platform
// cortex-m4f --json and that it carries TWFalcon's published figures.
func TestAccelCyclesCortexM4F(t *testing.T) {
	code, out, errs := runCLI(t, "accel", "cycles", "--params", "512", "--platform", "cortex-m4f", "--records", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d, %q", code, errs)
	}
	var r struct {
		Records        int       `json:"records"`
		TriwordCalls   []float64 `json:"triword_calls"`
		TriwordCycles  float64   `json:"triword_cycles"`
		Emu64Cycles    float64   `json:"emu64_cycles"`
		Ratio          float64   `json:"ratio"`
		PublishedRatio float64   `json:"twfalcon_ratio_512"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if r.Records != 1 || len(r.TriwordCalls) != 4 || r.PublishedRatio != 1.84 || r.TriwordCycles <= r.Emu64Cycles || r.Ratio != r.TriwordCycles/r.Emu64Cycles {
		t.Errorf("%+v", r)
	}
}

// TestAccelCyclesFNDSA: accel cycles --scheme fn-dsa prices FN-DSA's verify
// path with FN-DSA's operations -- with --key-source falcon, NIST record
// 0's verification takes 7 + 10 Keccak permutations (the key digest and
// hash-to-point, derived by hand in fndsacount's TestCountFNDSARecord0); with
// FN-DSA keys, go-fn-dsa's record 0 takes 7 + 8 (its hash-to-point absorbs
// 40 + 64 + 2 + 6 + 7 = 119 bytes and squeezes 540 draws, 1,080 bytes:
// 1 + 7, from Python's hashlib as in fndsacount's TestCountFNDSAKAT); 2n
// pointwise products where round 3 takes 3n -- at the table's
// per-operation costs; FN-DSA keys average go-fn-dsa's ten records of the
// degree by default; and it refuses what is round 3's only.
func TestAccelCyclesFNDSA(t *testing.T) {
	for _, c := range []struct {
		args   []string
		keccak float64
		ks     string
	}{
		{[]string{"--key-source", "falcon"}, 17, "falcon"},
		{nil, 15, "fn-dsa"},
	} {
		checkAccelCyclesFNDSA(t, c.args, c.keccak, c.ks)
	}
	code, out, errs := runCLI(t, "accel", "cycles", "--params", "512", "--scheme", "fn-dsa", "--json")
	var all struct {
		KeySource string `json:"key_source"`
		Records   []int  `json:"records"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &all) != nil || all.KeySource != "fn-dsa" || len(all.Records) != 10 || all.Records[9] != 9 {
		t.Errorf("FN-DSA keys, default --records: exit %d, %s, key source %q, records %v; want go-fn-dsa's 0 to 9", code, errs, all.KeySource, all.Records)
	}
	code, out, errs = runCLI(t, "accel", "cycles", "--params", "512", "--records", "1", "--scheme", "fn-dsa")
	if code != 0 || !strings.HasPrefix(out, "FN-DSA-512 verify path") || !strings.Contains(out, "round 3's and is not run") || !strings.Contains(out, "go-fn-dsa's KAT records 0 to 0 of the degree (1 records, their FN-DSA keys)") {
		t.Errorf("text: exit %d, %q, %.600q", code, errs, out)
	}

	dir := t.TempDir()
	flat := filepath.Join(dir, "flat.json")
	if err := os.WriteFile(flat, []byte(flatCostTable), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--params", "512", "--scheme", "fn-dsa", "--platform", "cortex-m4f"}, "round 3 only"},
		{[]string{"--params", "512", "--scheme", "fn-dsa", "--platform", flat}, "no verify_path"},
		{[]string{"--params", "512", "--scheme", "fndsa"}, "--scheme"},
		{[]string{"--params", "512", "--scheme", "fn-dsa", "--records", "11"}, "--records 11: go-fn-dsa's KAT has 10 records per degree"},
		{[]string{"--params", "512", "--scheme", "fn-dsa", "--key-source", "ntru"}, "--key-source"},
		{[]string{"--params", "512", "--key-source", "falcon"}, "--key-source falcon applies to --scheme fn-dsa or fn-dsa-2026 only"},
	} {
		code, _, errs := runCLI(t, append([]string{"accel", "cycles"}, c.args...)...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", c.args, code, errs, c.want)
		}
	}
}

// checkAccelCyclesFNDSA runs accel cycles --scheme fn-dsa on record 0 at
// degree 512 with extra flags and checks its verify path: keccak
// permutations, 2 x 256 x 9 NTT and 256 x 9 iNTT butterflies, 2n
// pointwise products, n per coefficient, priced at horcrux's costs.
func checkAccelCyclesFNDSA(t *testing.T, extra []string, keccak float64, ks string) {
	t.Helper()
	code, out, errs := runCLI(t, append([]string{"accel", "cycles", "--params", "512", "--records", "1", "--scheme", "fn-dsa", "--json"}, extra...)...)
	if code != 0 {
		t.Fatalf("%v: exit %d, stderr %q", extra, code, errs)
	}
	var r struct {
		Scheme     string `json:"scheme"`
		KeySource  string `json:"key_source"`
		VerifyPath struct {
			Steps []struct {
				Unit     string  `json:"unit"`
				Mean     float64 `json:"mean"`
				SoftCyc  float64 `json:"software_cycles_per_op"`
				AccelCyc float64 `json:"accelerated_cycles_per_op"`
			} `json:"steps"`
			SoftK  float64 `json:"software_kcycles"`
			AccelK float64 `json:"accelerated_kcycles"`
		} `json:"verify_path"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"keccak_f1600": keccak, "ntt_butterfly": 2 * 256 * 9, "intt_butterfly": 256 * 9, "mq_pointwise": 2 * 512, "per_coefficient": 512}
	tab, err := accel.PlatformCosts("horcrux")
	if err != nil {
		t.Fatal(err)
	}
	var soft, hw float64
	for _, st := range r.VerifyPath.Steps {
		if st.Mean != want[st.Unit] {
			t.Errorf("%s: %g per verification, want %g", st.Unit, st.Mean, want[st.Unit])
		}
		u := tab.VerifyPath.Units[st.Unit]
		soft += want[st.Unit] * u.Software.Cycles / 1e3
		hw += want[st.Unit] * u.Accelerated.Cycles / 1e3
	}
	if r.KeySource != ks {
		t.Errorf("%v: key source %q, want %q", extra, r.KeySource, ks)
	}
	if r.Scheme != "fn-dsa" || len(r.VerifyPath.Steps) != 5 || math.Abs(r.VerifyPath.SoftK-soft) > 1e-6*soft || math.Abs(r.VerifyPath.AccelK-hw) > 1e-6*hw {
		t.Errorf("scheme %q, %d steps, %g / %g kcycles, want %g / %g", r.Scheme, len(r.VerifyPath.Steps), r.VerifyPath.SoftK, r.VerifyPath.AccelK, soft, hw)
	}
}
