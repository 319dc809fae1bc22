package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/dirlock"
)

// runArgs runs the CLI and returns its exit code, stdout and stderr.
func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, nil, &out, &errb)
	return code, out.String(), errb.String()
}

// TestCampaignDirLocked: while a process holds a campaign directory, a
// second compare (or sweep, or merge into it) exits 2 naming the holder
// instead of writing every record twice.
func TestCampaignDirLocked(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	args := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--out", dir}
	if code, _, errOut := runArgs(args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	l, err := dirlock.Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range [][]string{args, {"records", "dump", dir}} {
		code, _, errOut := runArgs(a...)
		if code != 2 || !strings.Contains(errOut, "in use by another process") || !strings.Contains(errOut, "pid "+strconv.Itoa(os.Getpid())) {
			t.Errorf("%v while locked: exit %d, %q", a[:2], code, errOut)
		}
	}
	l.Unlock()
	if code, _, errOut := runArgs(args...); code != 0 {
		t.Errorf("after the holder ended: exit %d: %s", code, errOut)
	}
}

// TestRecordsBoundToRun: records of a --seed A run pasted into a --seed B
// directory are refused, by compare's resume and by merge; a directory
// whose run.json was removed is damaged, not new.
func TestRecordsBoundToRun(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "2", "--json"}
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b")
	for _, d := range []struct{ dir, seed string }{{a, "A"}, {b, "B"}} {
		if code, _, errOut := runArgs(append(append([]string{}, base...), "--seed", d.seed, "--out", d.dir)...); code != 0 {
			t.Fatalf("exit %d: %s", code, errOut)
		}
	}
	foreign, _ := os.ReadFile(filepath.Join(a, "records-native.seg"))
	own, _ := os.ReadFile(filepath.Join(b, "records-native.seg"))
	os.WriteFile(filepath.Join(b, "records-native.seg"), append(append([]byte{}, own...), foreign...), 0o644)
	code, _, errOut := runArgs(append(append([]string{}, base...), "--seed", "B", "--out", b)...)
	if code != 2 || !strings.Contains(errOut, "another run") {
		t.Errorf("seed A's records in seed B's directory: exit %d, %q", code, errOut)
	}
	os.WriteFile(filepath.Join(b, "records-native.seg"), own, 0o644)

	// Merge: shard 1 of a seed-B campaign holding one segment of seed A's.
	var shards []string
	for i := range 2 {
		d := filepath.Join(tmp, fmt.Sprintf("s%d", i))
		shards = append(shards, d)
		if code, _, errOut := runArgs(append(append([]string{}, base...), "--seed", "B", "--shard", fmt.Sprintf("%d/2", i), "--out", d)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
	}
	if code, _, errOut := runArgs("merge", shards[0], shards[1], "--out", filepath.Join(tmp, "m0")); code != 0 {
		t.Fatalf("merge of the intact shards: exit %d: %s", code, errOut)
	}
	s1 := filepath.Join(shards[1], "records-native.seg")
	good, _ := os.ReadFile(s1)
	os.WriteFile(s1, append(append([]byte{}, good...), foreign...), 0o644)
	code, _, errOut = runArgs("merge", shards[0], shards[1], "--out", filepath.Join(tmp, "m1"))
	if code != 2 || !strings.Contains(errOut, "another run") {
		t.Errorf("merge of a shard holding another seed's segment: exit %d, %q", code, errOut)
	}

	os.Remove(filepath.Join(a, "run.json"))
	code, _, errOut = runArgs(append(append([]string{}, base...), "--seed", "other", "--out", a)...)
	if code != 2 || !strings.Contains(errOut, "no run.json") || !strings.Contains(errOut, "damaged") {
		t.Errorf("directory without run.json, rerun with another seed: exit %d, %q", code, errOut)
	}
}

// TestAnotherRunNamesFlags: a directory of another run is refused with the
// flags that differ and both values; a truncated run.json is damaged.
func TestAnotherRunNamesFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "c")
	args := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--seed", "one", "--out", dir}
	if code, _, errOut := runArgs(args...); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	other := append(append([]string{}, args[:7]...), "--seed", "two", "--exact-sigma", "reference", "--out", dir)
	code, _, errOut := runArgs(other...)
	for _, want := range []string{"another run", `it has --seed "one", this run --seed "two"`, `it has --exact-sigma "formula", this run --exact-sigma "reference"`} {
		if code != 2 || !strings.Contains(errOut, want) {
			t.Errorf("other seed and sigma: exit %d, %q lacks %q", code, errOut, want)
		}
	}
	id := filepath.Join(dir, "run.json")
	data, _ := os.ReadFile(id)
	os.WriteFile(id, data[:len(data)/2], 0o644)
	code, _, errOut = runArgs(args...)
	if code != 2 || !strings.Contains(errOut, "damaged") || strings.Contains(errOut, "another run") {
		t.Errorf("truncated run.json: exit %d, %q", code, errOut)
	}
}

// TestSweepPointChecksum: a digit changed in a finished format's cached
// point.json is refused on the next run instead of reported.
func TestSweepPointChecksum(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	args := []string{"sweep", "--format", "vprec:40", "--reference", "", "--params", "512", "--signatures", "1", "--kat", "0", "--out", dir, "--json"}
	code, first, errOut := runArgs(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if code, again, _ := runArgs(args...); code != 0 || again != first {
		t.Fatalf("rerun from the cached point: exit %d, same output %v", code, again == first)
	}
	p := filepath.Join(dir, "vprec_40", "point.json")
	data, _ := os.ReadFile(p)
	m := regexp.MustCompile(`"max_log2": ?-`).FindIndex(data)
	if m == nil {
		t.Fatalf("no max_log2 in %s", p)
	}
	j := m[1]
	edited := append([]byte{}, data...)
	edited[j] = "12345678901"[edited[j]-'0'+1]
	os.WriteFile(p, edited, 0o644)
	code, _, errOut = runArgs(args...)
	if code != 2 || !strings.Contains(errOut, "damaged") {
		t.Errorf("edited point.json: exit %d, %q", code, errOut)
	}
}

// TestEmptyShard: a shard that holds no unit says so instead of printing
// statistics of nothing; its directory merges.
func TestEmptyShard(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "2", "--seed", "empty"}
	code, out, errOut := runArgs(append(append([]string{}, base...), "--shard", "5/10", "--out", filepath.Join(tmp, "s5"))...)
	if code != 0 || !strings.Contains(errOut, "shard 5/10 holds no unit") || !strings.Contains(out, "no signature measured") {
		t.Errorf("empty shard: exit %d, %q, %q", code, out, errOut)
	}
	for _, bad := range []string{"exact", "NOT met", "2^inf", "inf"} {
		if strings.Contains(out, bad) {
			t.Errorf("empty shard prints %q: %s", bad, out)
		}
	}
	var dirs []string
	for i := range 3 {
		d := filepath.Join(tmp, fmt.Sprintf("t%d", i))
		dirs = append(dirs, d)
		if code, _, errOut := runArgs(append(append([]string{}, base...), "--shard", fmt.Sprintf("%d/3", i), "--out", d)...); code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
	}
	code, merged, errOut := runArgs(append(append([]string{"merge"}, dirs...), "--out", filepath.Join(tmp, "m"), "--json")...)
	_, whole, _ := runArgs(append(append([]string{}, base...), "--json")...)
	if code != 0 || stripSeconds(t, []byte(merged)) != stripSeconds(t, []byte(whole)) {
		t.Errorf("merge with an empty shard: exit %d, %s", code, errOut)
	}
	sw := []string{"sweep", "--format", "vprec:40,vprec:41", "--reference", "", "--params", "512", "--signatures", "1", "--kat", "0", "--shard", "3/4"}
	code, out, errOut = runArgs(sw...)
	if code != 0 || !strings.Contains(out, "holds no format") {
		t.Errorf("empty sweep shard: exit %d, %q, %q", code, out, errOut)
	}
}

// TestRecordsDump: records dump prints every segment of every backend as
// JSON whose unit lists cover the campaign.
func TestRecordsDump(t *testing.T) {
	oneUnitSegments(t)
	dir := filepath.Join(t.TempDir(), "c")
	if code, _, errOut := runArgs("compare", "--backend", "native,emu64", "--params", "512", "--signatures", "3", "--keys", "2", "--out", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	code, out, errOut := runArgs("records", "dump", dir)
	if code != 0 {
		t.Fatalf("dump: exit %d: %s", code, errOut)
	}
	var doc struct {
		Run   map[string]any `json:"run"`
		Files []struct {
			File     string `json:"file"`
			Segments []struct {
				Backend    string `json:"backend"`
				Signatures []int  `json:"signature_units"`
				Keygens    []int  `json:"keygen_units"`
				Aggregate  struct {
					Signatures int `json:"signatures"`
					DeltaC     struct {
						Bins [][2]int64 `json:"bins"`
					} `json:"delta_c"`
				} `json:"aggregate"`
			} `json:"segments"`
		} `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("dump is not JSON: %v\n%.500s", err, out)
	}
	if doc.Run["seed"] != "fprlab" || len(doc.Files) != 2 {
		t.Fatalf("run %v, %d files", doc.Run, len(doc.Files))
	}
	for _, f := range doc.Files {
		sigs, calls := 0, int64(0)
		for _, s := range f.Segments {
			sigs += len(s.Signatures)
			if s.Aggregate.Signatures != len(s.Signatures) {
				t.Errorf("%s: aggregate of %d signatures lists %v", f.File, s.Aggregate.Signatures, s.Signatures)
			}
			for _, b := range s.Aggregate.DeltaC.Bins {
				calls += b[1]
			}
		}
		if sigs != 3 || calls == 0 {
			t.Errorf("%s: %d signatures, %d delta_c values", f.File, sigs, calls)
		}
	}
	if code, _, errOut := runArgs("records", "dump", filepath.Join(dir, "nosuch")); code != 2 || errOut == "" {
		t.Errorf("dump of no directory: exit %d", code)
	}
}

// TestCLIChild runs the CLI with the arguments of FPRLAB_TEST_CLI
// (separated by U+001F) when set: the child process of tests that measure
// a whole run.
func TestCLIChild(t *testing.T) {
	args := os.Getenv("FPRLAB_TEST_CLI")
	if args == "" {
		t.Skip("only as a child process")
	}
	code := run(context.Background(), strings.Split(args, "\x1f"), nil, os.Stdout, os.Stderr)
	os.Exit(code)
}
