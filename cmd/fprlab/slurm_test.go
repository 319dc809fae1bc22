package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/plugintest"
)

// TestSlurmCluster submits sharded compare campaigns to a real Slurm
// cluster (the one-node cluster .ci/slurm.sh starts; FPRLAB_SLURM=1): the
// merged result of a 4-task array equals a single process's, and a second
// campaign with one task cancelled mid-way (scancel) and resubmitted loses
// nothing and counts nothing twice.
func TestSlurmCluster(t *testing.T) {
	if os.Getenv("FPRLAB_SLURM") != "1" {
		t.Skip("no Slurm cluster (.ci/slurm.sh starts one and sets FPRLAB_SLURM=1)")
	}
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "fprlab")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	single := func(cargs []string) string {
		var out, errb bytes.Buffer
		if code := run(context.Background(), append(cargs, "--json"), nil, &out, &errb); code != 0 {
			t.Fatalf("single run: exit %d: %s", code, errb.String())
		}
		return stripSeconds(t, out.Bytes())
	}
	submitted := regexp.MustCompile(`array job (\d+), merge job (\d+)`)
	submit := func(dir string, cargs []string) (array, merge string) {
		var out, errb bytes.Buffer
		args := append([]string{"campaign", "slurm", "--shards", "4", "--out", dir, "--binary", bin, "--submit", "--"}, cargs...)
		if code := run(context.Background(), args, nil, &out, &errb); code != 0 {
			t.Fatalf("campaign slurm: exit %d: %s", code, errb.String())
		}
		m := submitted.FindStringSubmatch(out.String())
		if m == nil {
			t.Fatalf("no job ids in %q", out.String())
		}
		return m[1], m[2]
	}
	waitFor := func(what string, ok func() bool) {
		deadline := time.Now().Add(5 * time.Minute)
		for !ok() {
			if time.Now().After(deadline) {
				q, _ := exec.Command("squeue").CombinedOutput()
				t.Fatalf("timed out waiting for %s; squeue:\n%s", what, q)
			}
			time.Sleep(time.Second)
		}
	}
	mergedOf := func(dir string) string {
		data, err := os.ReadFile(filepath.Join(dir, "merged.json"))
		if err != nil {
			t.Fatal(err)
		}
		return stripSeconds(t, data)
	}
	exists := func(p string) func() bool {
		return func() bool { st, err := os.Stat(p); return err == nil && st.Size() > 0 }
	}

	// 1. A campaign as submitted.
	c1 := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "8", "--keys", "2", "--seed", "slurm"}
	d1 := filepath.Join(tmp, "c1")
	submit(d1, c1)
	waitFor("the merged result", exists(filepath.Join(d1, "merged.json")))
	if mergedOf(d1) != single(c1) {
		t.Errorf("merged campaign differs from the single run")
	}

	// 2. One task cancelled while it runs (scancel sends SIGTERM: the
	// task writes its finished units and stops), then resubmitted. If
	// the task finished first, the array's merge job may already have
	// started: it is cancelled, waited for and its output removed, so
	// that the merge submitted again starts from nothing either way.
	c2 := []string{"compare", "--backend", "triword", "--params", "512", "--signatures", "200", "--keys", "1", "--seed", "slurm2"}
	d2 := filepath.Join(tmp, "c2")
	array, merge := submit(d2, c2)
	recs := filepath.Join(d2, "shard-2", "records-triword.seg")
	waitFor("task 2 to start", exists(filepath.Join(d2, "shard-2", "run.json")))
	time.Sleep(time.Second)
	if out, err := exec.Command("scancel", array+"_2").CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v %s", err, out)
	}
	gone := func(job string) func() bool {
		return func() bool {
			q, _ := exec.Command("squeue", "-h", "-j", job).Output()
			return strings.TrimSpace(string(q)) == ""
		}
	}
	waitFor("the array job to end", gone(array))
	exec.Command("scancel", merge).Run()
	waitFor("the first merge job to end", gone(merge))
	os.RemoveAll(filepath.Join(d2, "merged"))
	os.Remove(filepath.Join(d2, "merged.json"))
	before, _ := os.Stat(recs)
	if out, err := exec.Command("sbatch", "--wait", "--array=2", filepath.Join(d2, "shards.sbatch")).CombinedOutput(); err != nil {
		logs, _ := filepath.Glob(filepath.Join(d2, "slurm-*_2.out"))
		var text []string
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			text = append(text, l+":\n"+string(b))
		}
		t.Fatalf("resubmitting task 2: %v %s\n%s", err, out, strings.Join(text, "\n"))
	}
	if out, err := exec.Command("sbatch", "--wait", filepath.Join(d2, "merge.sbatch")).CombinedOutput(); err != nil {
		logs, _ := filepath.Glob(filepath.Join(d2, "slurm-merge-*.out"))
		var text []string
		for _, l := range logs {
			b, _ := os.ReadFile(l)
			text = append(text, l+":\n"+string(b))
		}
		t.Fatalf("merge: %v %s\n%s", err, out, strings.Join(text, "\n"))
	}
	if mergedOf(d2) != single(c2) {
		t.Errorf("campaign with a cancelled and resubmitted task differs from the single run")
	}
	after, _ := os.Stat(recs)
	sizeOf := func(fi os.FileInfo) int64 {
		if fi == nil {
			return 0
		}
		return fi.Size()
	}
	t.Logf("slurm_test: task 2's records: %d bytes when cancelled, %d after its resubmission", sizeOf(before), sizeOf(after))
}

// stripSeconds removes the measured times from compare summaries.
func stripSeconds(t *testing.T, b []byte) string {
	t.Helper()
	var v []map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		// A sweep's document: {"formats": [...], "pstar": [...]}.
		var doc map[string]any
		if json.Unmarshal(b, &doc) != nil || doc["formats"] == nil {
			t.Fatalf("%v: %s", err, b)
		}
		for _, f := range doc["formats"].([]any) {
			delete(f.(map[string]any), "seconds")
		}
		out, _ := json.Marshal(doc)
		return string(out)
	}
	for _, s := range v {
		delete(s, "seconds")
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// TestSlurmPluginPathAbsolute: a relative plugin path (so:./lib.so, and a
// plan's so: stage) is written into the scripts absolute, so that a task
// started in another directory loads the same library; a missing library
// is refused naming it.
func TestSlurmPluginPathAbsolute(t *testing.T) {
	lib := plugintest.Build(t, "../../examples/double.c")
	src, err := os.ReadFile(lib)
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "lib.so"), src, 0o755); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	t.Chdir(work)
	code, _, errOut := runCLI(t, "campaign", "slurm", "--shards", "2", "--out", out, "--", "compare",
		"--backend", "so:./lib.so,plan:sampler=so:lib.so+all=binary64", "--params", "512", "--signatures", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	script, err := os.ReadFile(filepath.Join(out, "shards.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(work, "lib.so")
	if want := "so:" + abs + ",plan:sampler=so:" + abs + "+all=binary64"; !strings.Contains(string(script), want) {
		t.Errorf("script lacks %q:\n%s", want, script)
	}
	code, _, errOut = runCLI(t, "campaign", "slurm", "--shards", "2", "--out", t.TempDir(), "--", "compare",
		"--backend=so:./nosuch.so", "--params", "512", "--signatures", "2")
	if code != cli.ExitUsage || !strings.Contains(errOut, "so:./nosuch.so") {
		t.Errorf("missing library: exit %d: %s", code, errOut)
	}
}
