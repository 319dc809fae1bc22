package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/internal/cli"
)

// readManifestRun reads the one run of DIR/manifest.json.
func readManifestRun(t *testing.T, dir string) results.Run {
	t.Helper()
	var m results.Manifest
	if err := json.Unmarshal(readFile(t, filepath.Join(dir, results.ManifestName)), &m); err != nil || len(m.Runs) != 1 {
		t.Fatalf("%s manifest: %v %+v", dir, err, m)
	}
	return m.Runs[0]
}

// bashWords is how bash splits line, run in dir.
func bashWords(t *testing.T, dir, line string) []string {
	t.Helper()
	c := exec.Command("bash", "-c", "printf '%s\\0' "+line)
	c.Dir = dir
	b, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Split(string(b), "\x00")
	return words[:len(words)-1]
}

// TestManifestRecordsGivenWords: a shard's manifest holds the words given,
// --shard and --workers included (a restatement of the options dropped
// --shard, so pasting it back measured the whole campaign), and merge's
// manifest holds merge's words, shell-quoted: a directory named with
// "$(...)" does not run anything when the line is pasted into bash.
func TestManifestRecordsGivenWords(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "2", "--seed", "words", "--workers", "1"}
	var dirs []string
	for i, name := range []string{"q$(touch PWNED3)", "plain"} {
		d := filepath.Join(tmp, name)
		dirs = append(dirs, d)
		args := append(append([]string{}, base...), "--shard", []string{"0/2", "1/2"}[i], "--out", d)
		if code, _, errOut := runArgs(args...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		run := readManifestRun(t, d)
		want := append([]string{"fprlab"}, args...)
		if !slices.Equal(run.Argv, want) {
			t.Errorf("shard %d argv %q, want %q", i, run.Argv, want)
		}
		if got := bashWords(t, tmp, run.Command); !slices.Equal(got, want) {
			t.Errorf("shard %d: bash splits %q into %q", i, run.Command, got)
		}
	}
	m := filepath.Join(tmp, "m")
	margs := []string{"merge", dirs[0], dirs[1], "--out", m}
	if code, _, errOut := runArgs(margs...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	run := readManifestRun(t, m)
	want := append([]string{"fprlab"}, margs...)
	if !slices.Equal(run.Argv, want) {
		t.Errorf("merge argv %q, want %q", run.Argv, want)
	}
	if got := bashWords(t, tmp, run.Command); !slices.Equal(got, want) {
		t.Errorf("merge: bash splits %q into %q", run.Command, got)
	}
	if p := pwned(tmp); len(p) > 0 {
		t.Errorf("the merge command line ran %q", p)
	}
}

// TestSweepMergeWritesManifest: the merge of a sweep's shards writes a
// manifest with merge's words, so report --in reads the merged directory.
func TestSweepMergeWritesManifest(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"sweep", "--format", "vprec:40,vprec:41", "--reference", "", "--params", "512", "--signatures", "1", "--kat", "0"}
	var dirs []string
	for i := range 2 {
		d := filepath.Join(tmp, []string{"s0", "s1"}[i])
		dirs = append(dirs, d)
		if code, _, errOut := runArgs(append(append([]string{}, base...), "--shard", []string{"0/2", "1/2"}[i], "--out", d)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
	}
	m := filepath.Join(tmp, "m")
	margs := []string{"merge", dirs[0], dirs[1], "--out", m}
	if code, _, errOut := runArgs(margs...); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	run := readManifestRun(t, m)
	if want := append([]string{"fprlab"}, margs...); !slices.Equal(run.Argv, want) || run.Output != "sweep.json" {
		t.Errorf("merged sweep manifest argv %q output %q", run.Argv, run.Output)
	}
	page := filepath.Join(tmp, "r.html")
	if code, _, errOut := runArgs("report", "--in", m, "--out", page); code != 0 {
		t.Fatalf("report --in the merged sweep: exit %d: %s", code, errOut)
	}
	if st, err := os.Stat(page); err != nil || st.Size() == 0 {
		t.Errorf("no report page: %v", err)
	}
}

// TestWeakShadowMarkedInJSONAndReport: a --allow-weak-shadow run is marked
// in summary.json and --json ("weak_shadow", the shadow's bits beside the
// backend's) and its row of the report carries the warning; a run with a
// wide enough shadow has no mark.
func TestWeakShadowMarkedInJSONAndReport(t *testing.T) {
	if testing.Short() {
		t.Skip("shadowed signatures")
	}
	tmp := t.TempDir()
	for _, c := range []struct {
		backend string
		weak    bool
	}{{"vprec:41", true}, {"vprec:40", false}} {
		d := filepath.Join(tmp, c.backend[len("vprec:"):])
		code, out, errOut := runArgs("compare", "--backend", c.backend, "--shadow", "oracle", "--oracle-bits", "64", "--allow-weak-shadow", "--params", "512", "--signatures", "1", "--out", d, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.backend, code, errOut)
		}
		for what, doc := range map[string][]byte{"--json": []byte(out), "summary.json": readFile(t, filepath.Join(d, "summary.json"))} {
			var sums []map[string]any
			if err := json.Unmarshal(doc, &sums); err != nil || len(sums) != 1 {
				t.Fatalf("%s %s: %v", c.backend, what, err)
			}
			s := sums[0]
			if c.weak && (s["weak_shadow"] != true || s["shadow_bits"] != 64.0 || s["bits"] != 41.0) {
				t.Errorf("%s %s: weak_shadow %v, shadow_bits %v, bits %v; want true, 64, 41", c.backend, what, s["weak_shadow"], s["shadow_bits"], s["bits"])
			}
			if _, has := s["weak_shadow"]; !c.weak && has {
				t.Errorf("%s %s: marked weak with a shadow 24 bits wider", c.backend, what)
			}
		}
		page := filepath.Join(tmp, c.backend[len("vprec:"):]+".html")
		if code, _, errOut := runArgs("report", "--in", d, "--out", page); code != 0 {
			t.Fatalf("report: exit %d: %s", code, errOut)
		}
		if got := strings.Contains(string(readFile(t, page)), "WEAK SHADOW: the 64-bit shadow"); got != c.weak {
			t.Errorf("%s: report warns of a weak shadow: %v, want %v", c.backend, got, c.weak)
		}
	}
}

// TestEmptyShardHasNoFigures: the summary of a shard that holds no
// signature has no figure that reads as a measurement -- its verdict, bits
// lost, failure fraction and every log2 are null -- and the report says the
// shard holds no signature instead of "0 (exact)" in every column.
func TestEmptyShardHasNoFigures(t *testing.T) {
	d := filepath.Join(t.TempDir(), "E5")
	code, out, errOut := runArgs("compare", "--backend", "native", "--params", "512", "--signatures", "2", "--shard", "5/10", "--out", d, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for what, doc := range map[string][]byte{"--json": []byte(out), "summary.json": readFile(t, filepath.Join(d, "summary.json"))} {
		var sums []map[string]any
		if err := json.Unmarshal(doc, &sums); err != nil || len(sums) != 1 {
			t.Fatalf("%s: %v", what, err)
		}
		s := sums[0]
		renyi, _ := s["renyi"].(map[string]any)
		attempts, _ := s["attempts"].(map[string]any)
		for name, v := range map[string]any{"meets_2^-46": s["meets_2^-46"], "bits_lost_at_2^64": renyi["bits_lost_at_2^64"],
			"bits_lost_at_2^64_average": renyi["bits_lost_at_2^64_average"], "failed_fraction": attempts["failed_fraction"]} {
			if v != nil {
				t.Errorf("%s: %s is %v, want null", what, name, v)
			}
		}
		var walk func(path string, v any)
		walk = func(path string, v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					// target_log2 is the specification's constant, not a figure.
					if _, isNum := x.(float64); isNum && strings.HasSuffix(k, "_log2") && k != "target_log2" {
						t.Errorf("%s: %s.%s is %v, want null", what, path, k, x)
					}
					walk(path+"."+k, x)
				}
			case []any:
				for _, x := range v {
					walk(path, x)
				}
			}
		}
		walk("", s)
	}
	page := filepath.Join(filepath.Dir(d), "r.html")
	if code, _, errOut := runArgs("report", "--in", d, "--out", page); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	html := string(readFile(t, page))
	if !strings.Contains(html, "no signature measured") || strings.Contains(html, "0 (exact)") {
		t.Errorf("report of an empty shard does not say it holds no signature")
	}
}

// TestMergeRefusesInputAsOut: merge --out one of its inputs is refused with
// a message saying so (it used to report the directory in use by a stale
// pid: merge's own reader's lock against its writer's).
func TestMergeRefusesInputAsOut(t *testing.T) {
	tmp := t.TempDir()
	var dirs []string
	for i := range 2 {
		d := filepath.Join(tmp, []string{"S1", "S2"}[i])
		dirs = append(dirs, d)
		if code, _, errOut := runArgs("compare", "--backend", "native", "--params", "512", "--signatures", "1", "--seed", "same", "--shard", []string{"0/2", "1/2"}[i], "--out", d); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
	}
	for _, out := range []string{dirs[0], dirs[1] + "/", filepath.Join(tmp, ".", "S1")} {
		code, _, errOut := runArgs("merge", dirs[0], dirs[1], "--out", out)
		if code != 2 || !strings.Contains(errOut, "is the input directory") || strings.Contains(errOut, "pid") {
			t.Errorf("--out %s: exit %d, %q", out, code, errOut)
		}
	}
}

// TestHelpTexts: help of an unknown command is a usage error; merge's help
// names sweep and diverge; compare's names its default shadow; --shard says I counts
// from 0 and --workers its range.
func TestHelpTexts(t *testing.T) {
	if code, out, errOut := runArgs("help", "nosuch"); code != cli.ExitUsage || out != "" || !strings.Contains(errOut, `unknown help topic "nosuch"`) {
		t.Errorf("help nosuch: exit %d, %q, %q", code, out, errOut)
	}
	if code, out, _ := runArgs("help", "campaign", "slurm"); code != 0 || !strings.Contains(out, "campaign slurm") {
		t.Errorf("help campaign slurm: exit %d, %q", code, out)
	}
	code, out, _ := runArgs("help", "merge")
	if code != 0 || !strings.Contains(out, "compare,\nsweep or diverge run") || !strings.Contains(out, "compare --json, sweep --json or diverge --json") {
		t.Errorf("help merge: exit %d, %q", code, out)
	}
	if _, out, _ := runArgs("--help"); !strings.Contains(out, "compare, sweep or diverge campaign") || !strings.Contains(out, "exact shadow (double-double, or the big-float oracle)") {
		t.Errorf("command list: %q", out)
	}
	for _, c := range []string{"compare", "sweep"} {
		_, out, _ := runArgs(c, "--help")
		if !strings.Contains(out, "I counted from 0") {
			t.Errorf("%s --shard does not say I counts from 0: %q", c, out)
		}
	}
	for _, c := range []string{"compare", "tune"} {
		_, out, _ := runArgs(c, "--help")
		if !strings.Contains(out, "0, the default, is the number of CPUs") {
			t.Errorf("%s --workers help: %q", c, out)
		}
	}
}

// TestWorkersRange: --workers outside 0..max(256, 4 NumCPU) is refused
// before any work, naming the range.
func TestWorkersRange(t *testing.T) {
	for _, args := range [][]string{
		{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--workers", "100000"},
		{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--workers", "-1"},
		{"sweep", "--format", "vprec:40", "--reference", "", "--params", "512", "--signatures", "1", "--kat", "0", "--workers", "100000"},
		{"tune", "--params", "512", "--signatures", "1", "--workers", "100000"},
	} {
		code, _, errOut := runArgs(args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, "parallel signatures (0 for the number of CPUs") {
			t.Errorf("%q: exit %d, %q", args, code, errOut)
		}
	}
	if err := campaign.CheckWorkers(256); err != nil {
		t.Errorf("256 workers refused: %v", err)
	}
}

// TestRecordsDumpUnknownBackendAndReportFile: records dump --backend of a
// backend the campaign does not measure is refused (it printed an empty
// document), and report --in a file says the file has no manifest, not
// that its directory has none.
func TestRecordsDumpUnknownBackendAndReportFile(t *testing.T) {
	d := filepath.Join(t.TempDir(), "c")
	if code, _, errOut := runArgs("compare", "--backend", "native", "--params", "512", "--signatures", "2", "--shard", "1/4", "--out", d); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if code, out, errOut := runArgs("records", "dump", d, "--backend", "emu64"); code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "no backend emu64 (its backends: native)") {
		t.Errorf("dump of another backend: exit %d, %q, %q", code, out, errOut)
	}
	if code, _, errOut := runArgs("records", "dump", d, "--backend", "native"); code != 0 {
		t.Errorf("dump of its backend: exit %d, %q", code, errOut)
	}
	doc := filepath.Join(d, "summary.json")
	code, _, errOut := runArgs("report", "--in", doc, "--out", filepath.Join(filepath.Dir(d), "r.html"))
	if code != cli.ExitUsage || !strings.Contains(errOut, "is a file, one document without the manifest.json") {
		t.Errorf("report --in FILE: exit %d, %q", code, errOut)
	}
}
