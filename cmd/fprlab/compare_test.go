package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fprlab/fprlab/analysis/shadow"
)

func compareArgs(extra ...string) []string {
	return append([]string{"compare", "--backend", "native,emu64", "--params", "512", "--signatures", "2", "--keys", "1", "--seed", "cli test", "--workers", "2"}, extra...)
}

// TestCompareJSONContract checks the documented fields of compare --json.
func TestCompareJSONContract(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), compareArgs("--json"), nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got []map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0]["backend"] != "native" || got[1]["backend"] != "emu64" {
		t.Fatalf("backends: %v", out.String()[:200])
	}
	for _, k := range []string{"backend", "params", "signatures", "keys", "seed", "oracle_bits", "leaves", "per_leaf", "per_signature", "meets_2^-46", "renyi", "flips", "stages", "seconds"} {
		if _, ok := got[0][k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	pl := got[0]["per_leaf"].(map[string]any)["delta_c"].(map[string]any)
	for _, k := range []string{"min_log2", "q01_log2", "q10_log2", "median_log2", "q90_log2", "q99_log2", "max_log2", "histogram"} {
		if _, ok := pl[k]; !ok {
			t.Errorf("per_leaf.delta_c lacks %q", k)
		}
	}
	if got[0]["leaves"].(float64) != 2*512 {
		t.Errorf("leaves %v, want 1024 for two one-attempt signatures", got[0]["leaves"])
	}
	// emu64 and native compute the same binary64 values except ExpmP63.
	a, b := got[0]["per_leaf"], got[1]["per_leaf"]
	if ja, _ := json.Marshal(a); !bytes.Equal(ja, must(json.Marshal(b))) {
		t.Errorf("native and emu64 differ in per_leaf")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestCompareOutResume: a campaign directory whose records file lost its
// last record (and has a torn line) is completed by the same command, with
// the summary of an uninterrupted run; another run's flags are refused.
func TestCompareOutResume(t *testing.T) {
	oneUnitSegments(t)
	dir := filepath.Join(t.TempDir(), "camp")
	var out1, out2, errb bytes.Buffer
	if code := run(context.Background(), compareArgs("--json", "--out", dir), nil, &out1, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	recs := filepath.Join(dir, "records-native.seg")
	data, err := os.ReadFile(recs)
	if err != nil {
		t.Fatal(err)
	}
	ends := segmentEnds(t, data)
	if len(ends) != 3 {
		t.Fatalf("%d segments, want 3 (one unit each)", len(ends))
	}
	// Keep the key and the first signature, then half of a segment.
	torn := data[:ends[1]+(ends[2]-ends[1])/2]
	if err := os.WriteFile(recs, torn, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(context.Background(), compareArgs("--json", "--out", dir), nil, &out2, &errb); code != 0 {
		t.Fatalf("resume exit %d: %s", code, errb.String())
	}
	if want := fmt.Sprintf("compare: %s: segment 3, from byte %d, was cut short (an interrupted run); it is dropped and its units are run again", recs, ends[1]); !strings.Contains(errb.String(), want) {
		t.Errorf("resume: stderr %q, want %q", errb.String(), want)
	}
	strip := func(b []byte) string {
		var v []map[string]any
		json.Unmarshal(b, &v)
		for _, s := range v {
			delete(s, "seconds")
		}
		return string(must(json.Marshal(v)))
	}
	if strip(out1.Bytes()) != strip(out2.Bytes()) {
		t.Errorf("resumed summary differs")
	}
	data, _ = os.ReadFile(recs)
	if n := len(segmentEnds(t, data)); n != 3 {
		t.Errorf("records file has %d segments after resume, want 3", n)
	}
	// Run again, in text: nothing is left to sign, and it says so
	// rather than timing a run that signed nothing.
	errb.Reset()
	var text bytes.Buffer
	if code := run(context.Background(), compareArgs("--out", dir), nil, &text, &errb); code != 0 ||
		!strings.Contains(errb.String(), "compare: native Falcon-512: all 2 signatures read from "+dir+" (finished earlier; nothing to sign)") {
		t.Errorf("finished directory: exit %d, stderr:\n%s", code, errb.String())
	}
	// Tear the last signature off again: one is read, one signed.
	if err := os.WriteFile(recs, torn, 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run(context.Background(), compareArgs("--out", dir), nil, &text, &errb); code != 0 ||
		!strings.Contains(errb.String(), "compare: native Falcon-512: 2 signatures, 1 read from "+dir+" (finished earlier) and 1 signed in ") {
		t.Errorf("partly finished directory: exit %d, stderr:\n%s", code, errb.String())
	}
	errb.Reset()
	if code := run(context.Background(), []string{"compare", "--backend", "native", "--params", "512", "--signatures", "3", "--out", dir}, nil, &out2, &errb); code != 2 || !strings.Contains(errb.String(), "another run") {
		t.Errorf("other run's directory: exit %d, %s", code, errb.String())
	}
}

// oneUnitSegments makes every unit a segment of its own for one test.
func oneUnitSegments(t *testing.T) {
	old := segmentUnits
	segmentUnits = 1
	t.Cleanup(func() { segmentUnits = old })
}

// segmentEnds returns the end offsets of the frames of a records file
// (the layout of analysis/shadow/segment.go), checking them with
// shadow.ReadSegments.
func segmentEnds(t *testing.T, data []byte) []int {
	t.Helper()
	n := 0
	if err := shadow.ReadSegments(bytes.NewReader(data), func(*shadow.Segment) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	var ends []int
	for off := 0; off < len(data); {
		length, k := binary.Uvarint(data[off+4:])
		off += 4 + k + int(length) + 32
		ends = append(ends, off)
	}
	if len(ends) != n {
		t.Fatalf("%d frames, ReadSegments read %d", len(ends), n)
	}
	return ends
}

func TestCompareBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"compare", "--params", "512", "--signatures", "1"},
		{"compare", "--backend", "nope", "--params", "512", "--signatures", "1"},
		{"compare", "--backend", "native", "--params", "256", "--signatures", "1"},
		{"compare", "--backend", "native", "--params", "512"},
		{"compare", "--backend", "native", "--params", "512", "--kat-records", "5:2"},
		{"compare", "--backend", "native", "--params", "512", "--kat-records", "0:101"},
		{"compare", "--backend", "native,native", "--params", "512", "--signatures", "1"},
		{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--exact-sigma", "x"},
		{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--keys", "2"},
		{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--acceptance", "coin"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, nil, &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestCompareAcceptance runs compare with the pipelined SamplerZ's
// acceptance in place of BerExp: the summary names it, the sampler's
// trials are the "acceptance" decisions (no BerExp trial and no trunc of
// its reduction remain), one or more per sampler call, and the text output
// shows the row; backends lists the acceptance tests.
func TestCompareAcceptance(t *testing.T) {
	code, out, errs := runCLI(t, "compare", "--backend", "native", "--params", "512", "--signatures", "2", "--acceptance", "two-bernoulli", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var sums []struct {
		Acceptance   string `json:"acceptance"`
		SamplerCalls int64  `json:"sampler_calls"`
		Flips        struct {
			Decisions map[string]int64 `json:"decisions"`
		} `json:"flips"`
	}
	if err := json.Unmarshal([]byte(out), &sums); err != nil || len(sums) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	s := sums[0]
	d := s.Flips.Decisions
	if s.Acceptance != "two-bernoulli" || d["acceptance"] < s.SamplerCalls || s.SamplerCalls != 2*1024 || d["berexp"] != 0 || d["trunc"] != 0 {
		t.Errorf("acceptance %q, %d sampler calls, decisions %v", s.Acceptance, s.SamplerCalls, d)
	}
	code, out, _ = runCLI(t, "compare", "--backend", "native", "--params", "512", "--signatures", "1", "--acceptance", "two-bernoulli")
	if code != 0 || !strings.Contains(out, "sampler acceptance: two-bernoulli") || !strings.Contains(out, "\nacceptance ") {
		t.Errorf("exit %d, text output:\n%s", code, out)
	}
	code, out, _ = runCLI(t, "backends")
	if code != 0 || !strings.Contains(out, "berexp ") || !strings.Contains(out, "two-bernoulli ") {
		t.Errorf("backends: exit %d:\n%s", code, out)
	}
}

// TestKatFirstDivergence: a backend whose signature differs from the
// published one gets the place where it first decided differently from
// emu64 (here signing over 20-bit virtual precision on the reference key).
func TestKatFirstDivergence(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"kat", "--params", "512", "--backend", "vprec:20", "--keygen-backend", "emu64", "--records", "1", "--json"}, nil, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (mismatch): %s", code, errb.String())
	}
	var got struct {
		FirstMismatch   *struct{ Field string } `json:"first_mismatch"`
		FirstDivergence *struct {
			Phase, Where, Kind string
		} `json:"first_divergence"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.FirstMismatch == nil || got.FirstMismatch.Field != "sm" || got.FirstDivergence == nil ||
		got.FirstDivergence.Phase != "sign" || !strings.Contains(got.FirstDivergence.Where, "sampler call") {
		t.Errorf("got %s", out.String())
	}
}

// TestSweepOutResume runs a two-format sweep into a directory, then again:
// the second run measures nothing new and prints the same points.
func TestSweepOutResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	args := []string{"sweep", "--format", "vprec:{40..41}", "--reference", "native", "--params", "512", "--signatures", "2", "--kat", "0", "--out", dir, "--json"}
	var out1, out2, errb bytes.Buffer
	if code := run(context.Background(), args, nil, &out1, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var doc struct {
		Formats []map[string]any `json:"formats"`
		PStar   []map[string]any `json:"pstar"`
	}
	if err := json.Unmarshal(out1.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	pts := doc.Formats
	// Two swept formats of one curve, three criteria; the reference
	// native is no point of a curve.
	if len(doc.PStar) != 3 || doc.PStar[0]["curve"] != "Falcon-512 rn" || doc.PStar[0]["min_bits"].(float64) != 40 || doc.PStar[0]["max_bits"].(float64) != 41 {
		t.Errorf("pstar: %v", doc.PStar)
	}
	if len(pts) != 3 || pts[0]["format"] != "native" || pts[1]["format"] != "vprec:40" || pts[2]["bits"].(float64) != 41 {
		t.Fatalf("points: %s", out1.String()[:300])
	}
	for _, k := range []string{"per_signature", "per_leaf", "flips", "renyi", "attempts", "rounding"} {
		if _, ok := pts[1][k]; !ok {
			t.Errorf("point lacks %q", k)
		}
	}
	t0 := time.Now()
	if code := run(context.Background(), args, nil, &out2, &errb); code != 0 {
		t.Fatalf("rerun exit %d: %s", code, errb.String())
	}
	if out1.String() != out2.String() {
		t.Errorf("rerun printed other points")
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("rerun took %v: finished formats were measured again", d)
	}
}

// TestCampaignDirsRefuseForeignData: an edited record line, another
// backend's line, and a sweep directory rerun with other flags are refused.
func TestCampaignDirsRefuseForeignData(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	args := []string{"compare", "--backend", "native,emu64", "--params", "512", "--signatures", "1", "--out", dir}
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	native := filepath.Join(dir, "records-native.seg")
	emu := filepath.Join(dir, "records-emu64.seg")
	good, _ := os.ReadFile(native)
	edited := []byte(string(good))
	edited[len(edited)/2] ^= 1
	for _, tc := range []struct {
		file, data, want string
	}{
		{native, string(edited), "checksum"},
		{emu, string(good), "a segment of backend"},
	} {
		orig, _ := os.ReadFile(tc.file)
		os.WriteFile(tc.file, []byte(tc.data), 0o644)
		errb.Reset()
		if code := run(context.Background(), args, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%s: exit %d, %q; want exit 2 naming %q", filepath.Base(tc.file), code, errb.String(), tc.want)
		}
		os.WriteFile(tc.file, orig, 0o644)
	}
	sw := filepath.Join(t.TempDir(), "s")
	sargs := []string{"sweep", "--format", "vprec:40", "--reference", "", "--params", "512", "--signatures", "1", "--kat", "0", "--out", sw}
	if code := run(context.Background(), sargs, nil, &out, &errb); code != 0 {
		t.Fatalf("sweep exit %d: %s", code, errb.String())
	}
	errb.Reset()
	sargs[8] = "2" // --signatures 2
	if code := run(context.Background(), sargs, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "another run") {
		t.Errorf("sweep rerun with other flags: exit %d, %q", code, errb.String())
	}
	for _, bad := range [][]string{
		{"compare", "--backend", "dd", "--params", "512", "--signatures", "1"},
		{"compare", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--seed", "x"},
		{"sweep", "--format", "vprec:{30..31},vprec:31", "--params", "512", "--signatures", "1"},
	} {
		errb.Reset()
		if code := run(context.Background(), bad, nil, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, %q", bad, code, errb.String())
		}
	}
}

// TestShardsMergeToSingleRun: three shards of a campaign, merged, give the
// single process's summary field for field (apart from the measured
// seconds); a missing or repeated shard and another run's shard are refused.
func TestShardsMergeToSingleRun(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"compare", "--backend", "native,emu64", "--params", "512", "--signatures", "5", "--keys", "2", "--seed", "shards", "--json"}
	var whole, errb bytes.Buffer
	if code := run(context.Background(), base, nil, &whole, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var dirs []string
	for i := range 3 {
		d := filepath.Join(tmp, fmt.Sprintf("s%d", i))
		dirs = append(dirs, d)
		var out bytes.Buffer
		args := append(append([]string{}, base...), "--shard", fmt.Sprintf("%d/3", i), "--out", d)
		if code := run(context.Background(), args, nil, &out, &errb); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errb.String())
		}
	}
	var merged bytes.Buffer
	margs := append(append([]string{"merge"}, dirs...), "--out", filepath.Join(tmp, "m"), "--json")
	if code := run(context.Background(), margs, nil, &merged, &errb); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errb.String())
	}
	if withoutSeconds(t, whole.Bytes()) != withoutSeconds(t, merged.Bytes()) {
		t.Errorf("merged summary differs from the single run's")
	}
	for _, bad := range [][]string{
		{"merge", dirs[0], dirs[1], "--out", filepath.Join(tmp, "m2")},
		{"merge", dirs[0], dirs[1], dirs[1], dirs[2], "--out", filepath.Join(tmp, "m3")},
		{"merge", dirs[0], dirs[1], dirs[2], "--out", filepath.Join(tmp, "m")},
	} {
		errb.Reset()
		if code := run(context.Background(), bad, nil, &merged, &errb); code != 2 {
			t.Errorf("%v: exit %d, %q", bad[1:len(bad)-2], code, errb.String())
		}
	}
}

// runTwoShardsMerged runs the command base (compare or sweep, with
// --json) as shards 0/2 and 1/2 into tmp/s0 and tmp/s1 and merges them into
// tmp/m; it returns the shard directories and the merge's --json output.
func runTwoShardsMerged(t *testing.T, base []string, tmp string) (dirs []string, merged *bytes.Buffer) {
	t.Helper()
	var errb bytes.Buffer
	for i := range 2 {
		d := filepath.Join(tmp, fmt.Sprintf("s%d", i))
		dirs = append(dirs, d)
		var out bytes.Buffer
		if code := run(context.Background(), append(append([]string{}, base...), "--shard", fmt.Sprintf("%d/2", i), "--out", d), nil, &out, &errb); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errb.String())
		}
	}
	merged = &bytes.Buffer{}
	if code := run(context.Background(), []string{"merge", dirs[0], dirs[1], "--out", filepath.Join(tmp, "m"), "--json"}, nil, merged, &errb); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errb.String())
	}
	return dirs, merged
}

// TestShardsMergeKeepCertificate: the certified bound of a sharded compare
// --certify (each shard certifies the campaign's keys) is in the merged
// summary as in the single run's; shards whose bounds differ are refused.
func TestShardsMergeKeepCertificate(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "4", "--keys", "2", "--seed", "shards", "--certify", "--json"}
	var whole, errb bytes.Buffer
	if code := run(context.Background(), base, nil, &whole, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(whole.String(), `"certified"`) {
		t.Fatalf("the single run has no certified bound: %s", whole.String())
	}
	dirs, merged := runTwoShardsMerged(t, base, tmp)
	if withoutSeconds(t, whole.Bytes()) != withoutSeconds(t, merged.Bytes()) {
		t.Errorf("merged summary differs from the single run's:\n%s\n%s", merged.String(), whole.String())
	}
	// A shard whose certificate says otherwise is not merged.
	sumPath := filepath.Join(dirs[1], "summary.json")
	data, err := os.ReadFile(sumPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sumPath, bytes.Replace(data, []byte(`"sum_bound_log2": -`), []byte(`"sum_bound_log2": -1`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	errb.Reset()
	if code := run(context.Background(), []string{"merge", dirs[0], dirs[1], "--out", filepath.Join(tmp, "m2")}, nil, merged, &errb); code != 2 || !strings.Contains(errb.String(), "differs from the other shards'") {
		t.Errorf("shards with other certificates: exit %d, %q", code, errb.String())
	}
}

// TestCampaignSlurmScripts runs the generated batch scripts as Slurm would
// run them -- each array task with its SLURM_ARRAY_TASK_ID and count, then
// the merge script -- with bash and a freshly built fprlab, and checks the
// merged summary against a single process's.
func TestCampaignSlurmScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "fprlab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dir := filepath.Join(tmp, "camp")
	cargs := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "4", "--keys", "1", "--seed", "slurm"}
	var out, errb bytes.Buffer
	args := append([]string{"campaign", "slurm", "--shards", "3", "--out", dir, "--binary", bin, "--"}, cargs...)
	if code := run(context.Background(), args, nil, &out, &errb); code != 0 {
		t.Fatalf("campaign: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "sbatch --dependency=afterok:") {
		t.Errorf("no submission commands printed: %s", out.String())
	}
	// The same command again leaves the scripts as they are; another
	// campaign's (here other shards) in the same directory is refused
	// before any script is replaced.
	script, err := os.ReadFile(filepath.Join(dir, "shards.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	if code := run(context.Background(), args, nil, &out, &errb); code != 0 {
		t.Fatalf("campaign again: exit %d: %s", code, errb.String())
	}
	errb.Reset()
	other := append([]string{"campaign", "slurm", "--shards", "2", "--out", dir, "--binary", bin, "--"}, cargs...)
	if code := run(context.Background(), other, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "holds the script of another campaign") {
		t.Errorf("another campaign in the directory: exit %d, %q", code, errb.String())
	}
	if again, err := os.ReadFile(filepath.Join(dir, "shards.sbatch")); err != nil || !bytes.Equal(again, script) {
		t.Errorf("shards.sbatch changed (%v)", err)
	}
	for i := range 3 {
		c := exec.Command("bash", filepath.Join(dir, "shards.sbatch"))
		c.Env = append(os.Environ(), fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", i), "SLURM_ARRAY_TASK_COUNT=3", "SLURM_CPUS_PER_TASK=1")
		if o, err := c.CombinedOutput(); err != nil {
			t.Fatalf("task %d: %v\n%s", i, err, o)
		}
	}
	if o, err := exec.Command("bash", filepath.Join(dir, "merge.sbatch")).CombinedOutput(); err != nil {
		t.Fatalf("merge: %v\n%s", err, o)
	}
	merged, err := os.ReadFile(filepath.Join(dir, "merged.json"))
	if err != nil {
		t.Fatal(err)
	}
	var whole bytes.Buffer
	if code := run(context.Background(), append(cargs, "--json"), nil, &whole, &errb); code != 0 {
		t.Fatalf("single run: exit %d", code)
	}
	if withoutSeconds(t, merged) != withoutSeconds(t, whole.Bytes()) {
		t.Errorf("merged campaign differs from the single run")
	}
}

// TestSweepShardsMerge: a sweep split in two shards by format merges to the
// single sweep's points.
func TestSweepShardsMerge(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"sweep", "--format", "vprec:{40..42}", "--reference", "native", "--params", "512", "--signatures", "2", "--kat", "0", "--json"}
	var whole, errb bytes.Buffer
	if code := run(context.Background(), base, nil, &whole, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	dirs, merged := runTwoShardsMerged(t, base, tmp)
	if stripSeconds(t, whole.Bytes()) != stripSeconds(t, merged.Bytes()) {
		t.Errorf("merged sweep differs from the single sweep")
	}
	errb.Reset()
	if code := run(context.Background(), []string{"merge", dirs[0], "--out", filepath.Join(tmp, "m2")}, nil, merged, &errb); code != 2 || !strings.Contains(errb.String(), "missing shards") {
		t.Errorf("one shard of two: exit %d, %q", code, errb.String())
	}
}
