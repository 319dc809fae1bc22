package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
)

// stubTools writes, into a new directory, an fprlab stand-in at a path
// made of shell metacharacters and sbatch and srun stand-ins, each
// recording its arguments (NUL-separated, one file per call) in logDir.
// It returns the stand-in's path and the directory of the tools.
func stubTools(t *testing.T, logDir string) (bin, tools string) {
	t.Helper()
	tools = filepath.Join(t.TempDir(), "tools")
	binDir := filepath.Join(t.TempDir(), "b$(touch PWNED-bin) 'x;touch PWNED-bin2`touch PWNED-bin3`")
	for _, d := range []string{tools, binDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	stub := func(path, name, extra string) {
		script := "#!/bin/bash\nprintf '%s\\0' \"$@\" > \"" + logDir + "/" + name + ".$$.$RANDOM\"\n" + extra
		if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	bin = filepath.Join(binDir, "fprlab")
	stub(bin, "fprlab", "")
	stub(filepath.Join(tools, "sbatch"), "sbatch", "echo 4242\n")
	stub(filepath.Join(tools, "srun"), "srun", "")
	return bin, tools
}

// calls returns the recorded argument lists of the stand-in name.
func calls(t *testing.T, logDir, name string) [][]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(logDir, name+".*"))
	var out [][]string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		args := strings.Split(string(b), "\x00")
		out = append(out, args[:len(args)-1])
		os.Remove(f)
	}
	return out
}

// pwned lists the files named PWNED* under root: commands injected
// through the scripts create them.
func pwned(root string) []string {
	var found []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.Contains(info.Name(), "PWNED") && !info.IsDir() {
			found = append(found, p)
		}
		return nil
	})
	return found
}

// runScripts runs every batch script under root with bash, as an array
// task 0 and as the merge job, from root (where an injected relative
// "touch PWNED" lands), with the stand-ins first on PATH.
func runScripts(t *testing.T, root, tools string) {
	t.Helper()
	var scripts []string
	filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".sbatch") {
			scripts = append(scripts, p)
		}
		return nil
	})
	for _, sc := range scripts {
		c := exec.Command("bash", sc)
		c.Dir = root
		c.Env = append(os.Environ(), "PATH="+tools+":"+os.Getenv("PATH"), "SLURM_ARRAY_TASK_ID=0", "SLURM_CPUS_PER_TASK=1")
		if out, err := c.CombinedOutput(); err != nil {
			t.Logf("%s: %v\n%s", sc, err, out)
		}
	}
}

// TestCampaignScriptsHostileValues runs the generated scripts (bash, with
// fprlab, sbatch and srun replaced by stand-ins that record their
// arguments) for hostile values: those the scripts may carry -- a seed
// and a binary path full of $(...), backquotes, quotes and semicolons --
// reach the commands as exactly the words given and run nothing; those
// they may not -- a newline in --out, --partition, --time or a command
// argument, blanks or options in --partition and --time, a directory
// sbatch would misread -- are refused with exit 2 before anything is
// written, and any script that was written anyway is run to show that
// nothing was injected.
func TestCampaignScriptsHostileValues(t *testing.T) {
	root := t.TempDir()
	logDir := t.TempDir()
	bin, tools := stubTools(t, logDir)
	t.Setenv("PATH", tools+":"+os.Getenv("PATH"))
	seed := "$(touch PWNED-seed)`touch PWNED-seed2`;touch PWNED-seed3 #'\"x"

	dir := filepath.Join(root, "camp")
	inner := []string{"compare", "--backend", "native", "--params", "512", "--signatures", "4", "--seed", seed}
	args := append([]string{"campaign", "slurm", "--shards", "2", "--out", dir, "--binary", bin, "--partition", "batch,debug",
		"--time", "1-02:03:04", "--submit", "--"}, inner...)
	var out, errb bytes.Buffer
	if code := run(context.Background(), args, nil, &out, &errb); code != 0 {
		t.Fatalf("campaign slurm: exit %d: %s", code, errb.String())
	}
	submitted := calls(t, logDir, "sbatch")
	if len(submitted) != 2 {
		t.Fatalf("sbatch called %d times, want 2: %q", len(submitted), submitted)
	}
	runScripts(t, root, tools)
	if p := pwned(root); len(p) > 0 {
		t.Fatalf("the scripts ran injected commands: %q", p)
	}
	got := calls(t, logDir, "fprlab")
	wantTask := append(append([]string{}, inner...), "--shard", "0/2", "--workers", "1", "--out", filepath.Join(dir, "shard-0"), "--json")
	wantMerge := []string{"merge", filepath.Join(dir, "shard-0"), filepath.Join(dir, "shard-1"), "--out", filepath.Join(dir, "merged"), "--json"}
	if len(got) != 2 {
		t.Fatalf("fprlab ran %d times, want 2 (a task and the merge): %q", len(got), got)
	}
	for _, w := range [][]string{wantTask, wantMerge} {
		if !slices.ContainsFunc(got, func(g []string) bool { return slices.Equal(g, w) }) {
			t.Errorf("no run with exactly the arguments %q; runs: %q", w, got)
		}
	}
	shards, err := os.ReadFile(filepath.Join(dir, "shards.sbatch"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"#SBATCH --partition=batch,debug\n", "#SBATCH --time=1-02:03:04\n", "#SBATCH --output=" + dir + "/slurm-%A_%a.out\n"} {
		if !strings.Contains(string(shards), line) {
			t.Errorf("shards.sbatch lacks %q", line)
		}
	}

	// Refused values: exit 2, nothing written, nothing run.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		args []string
		want string
	}{
		{"newline in --out", []string{"--out", filepath.Join(root, "camp2\ntouch PWNED-out #")}, "control character"},
		{"newline in --partition", []string{"--partition", "batch\ntouch PWNED-part"}, "control character"},
		{"option in --partition", []string{"--partition", "batch --wrap=touch"}, "Slurm partition name"},
		{"newline in --time", []string{"--time", "1:00:00\ntouch PWNED-time"}, "control character"},
		{"option in --time", []string{"--time", "1:00 --wrap=touch"}, "Slurm time limit"},
		{"blank in --out", []string{"--out", filepath.Join(root, "camp 3 --wrap=x")}, "#SBATCH --output"},
		{"percent in --out", []string{"--out", filepath.Join(root, "camp%x")}, "#SBATCH --output"},
		{"root as --out", []string{"--out", "/"}, "not the file system's root"},
		{"root as --out, spelled otherwise", []string{"--out", "/.."}, "not the file system's root"},
		{"newline in --binary", []string{"--binary", bin + "\ntouch PWNED-binary"}, "control character"},
		{"newline in an argument", []string{"--", "compare", "--backend", "native", "--params", "512", "--signatures", "4", "--seed", "a\ntouch PWNED-arg"}, "control character"},
		{"carriage return in an argument", []string{"--", "compare", "--backend", "native", "--params", "512", "--signatures", "4", "--seed", "a\rb"}, "control character"},
	} {
		a := map[string]string{"--out": filepath.Join(root, "refused"), "--binary": bin, "--partition": "", "--time": ""}
		var rest []string
		for i := 0; i < len(c.args); i++ {
			if c.args[i] == "--" {
				rest = c.args[i:]
				break
			}
			a[c.args[i]] = c.args[i+1]
			i++
		}
		if rest == nil {
			rest = append([]string{"--"}, inner...)
		}
		args := []string{"campaign", "slurm", "--shards", "2"}
		for _, k := range []string{"--out", "--binary", "--partition", "--time"} {
			if a[k] != "" {
				args = append(args, k, a[k])
			}
		}
		args = append(args, rest...)
		code, _, errOut := runCLI(t, args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.name, code, errOut, c.want)
		}
	}
	runScripts(t, root, tools)
	if p := pwned(root); len(p) > 0 {
		t.Errorf("refused values still produced scripts that ran injected commands: %q", p)
	}
	if _, err := os.Stat(filepath.Join(root, "refused")); err == nil {
		t.Errorf("a refused campaign created its directory")
	}
	if got := calls(t, logDir, "fprlab"); len(got) != 0 {
		t.Errorf("scripts of refused campaigns ran fprlab: %q", got)
	}
}

// TestCampaignChecksInnerCommand: a command every array task would refuse
// (unknown backend, degree, missing count, a shadow too weak) is refused
// before any script is written, and so is a campaign flag given twice,
// such as an inner --out that would replace the campaign's.
func TestCampaignChecksInnerCommand(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "camp")
	for _, c := range []struct {
		inner []string
		want  string
	}{
		{[]string{"compare", "--backend", "nosuch", "--params", "512", "--signatures", "4"}, "nosuch"},
		{[]string{"compare", "--backend", "native", "--params", "513", "--signatures", "4"}, "513"},
		{[]string{"compare", "--backend", "native", "--params", "512"}, "--signatures"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "4", "--nosuch"}, "nosuch"},
		{[]string{"sweep", "--format", "vprec:{30..20}", "--params", "512", "--signatures", "4"}, "must increase"},
		{[]string{"sweep", "--format", "nosuch:3", "--params", "512", "--signatures", "4"}, "nosuch"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "4", "--out", filepath.Join(root, "other")}, "--out is given both"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "4", "--shards", "3"}, "--shards is given both"},
	} {
		args := append([]string{"campaign", "slurm", "--shards", "2", "--out", dir, "--binary", "/bin/true", "--"}, c.inner...)
		code, _, errOut := runCLI(t, args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.inner, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(dir); err == nil {
		t.Error("a refused campaign created its directory")
	}
	code, _, errOut := runCLI(t, "campaign", "slurm", "--shards", "2", "--binary", "/bin/true", "--", "compare", "--backend", "native", "--params", "512", "--signatures", "4", "--out", dir)
	if code != 0 {
		t.Errorf("--out after the command alone (the campaign's): exit %d, %s", code, errOut)
	}
}
