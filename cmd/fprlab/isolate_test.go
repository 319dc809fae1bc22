//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/plugintest"
)

// runIsolated runs the command line args as main does, through supervise
// and a worker (this test binary, see TestMain), with the environment
// env added, and returns the exit status, stdout and stderr.
func runIsolated(t *testing.T, env []string, args ...string) (int, []byte, []byte) {
	t.Helper()
	for _, e := range env {
		k, v, _ := strings.Cut(e, "=")
		t.Setenv(k, v)
	}
	dir := t.TempDir()
	out, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	errf, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	code := supervise(args, nil, out, errf)
	out.Close()
	errf.Close()
	stdout, _ := os.ReadFile(out.Name())
	stderr, _ := os.ReadFile(errf.Name())
	return code, stdout, stderr
}

// TestHostilePlugins: a plugin that calls exit(0) or exit(7), aborts,
// segfaults, loops forever, writes past its output array (by a value or
// by 64 KiB) or prints to stdout in the middle of a compare --out
// campaign cannot end it silently, garble its output or pass its own
// status off as fprlab's: the run exits with cli.ExitPlugin and one line
// naming the backend, what happened and the function; stdout holds no
// partial or foreign text (valid --json or nothing); the finished
// signatures are on disk, and the same command resumes to the summary of
// an undisturbed run. (Before isolation, exit(0) gave status 0 and no
// output, a crash a 297-line runtime dump with status 2, and an overrun
// changed figures.)
func TestHostilePlugins(t *testing.T) {
	lib := plugintest.Build(t, "testdata/hostile.c")
	args := []string{"compare", "--backend", "native,so:" + lib, "--params", "512", "--signatures", "6", "--workers", "1", "--json"}
	segEnv := "FPRLAB_TEST_SEGMENT_UNITS=1"
	code, want, stderr := runIsolated(t, []string{segEnv}, args...)
	if code != 0 {
		t.Fatalf("undisturbed run: exit %d\n%s", code, stderr)
	}
	// About 650 square roots per signature (key generation takes none):
	// the 2000th comes in the fourth signature.
	cases := []struct{ mode, at, want string }{
		{"exit0", "2000", "ended the process with exit status 0 (exit() inside the plugin) in fprlab_run"},
		{"exit7", "2000", "ended the process with exit status 7 (exit() inside the plugin) in fprlab_run"},
		{"abort", "2000", "crashed (SIGABRT: abort) in fprlab_run"},
		{"segv", "2000", "crashed (SIGSEGV: segmentation violation) in fprlab_run"},
		{"loop", "2000", "hung in fprlab_run: no call returned for 2s"},
		{"over8", "300", "fprlab_mul_n wrote past its output array"},
		{"over64k", "300", "crashed (SIGSEGV: segmentation violation) in fprlab_mul_n"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "campaign")
			env := []string{segEnv, "FPRLAB_TEST_HOSTILE=" + c.mode, "FPRLAB_TEST_HOSTILE_AT=" + c.at, "FPRLAB_PLUGIN_TIMEOUT=2s"}
			code, stdout, stderr := runIsolated(t, env, append(args, "--out", dir)...)
			lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
			if code != cli.ExitPlugin || len(lines) != 1 || !strings.Contains(lines[0], "so:"+lib) || !strings.Contains(lines[0], c.want) {
				t.Fatalf("exit %d, stderr:\n%.2000s\nwant exit %d and one line naming so:%s with %q", code, stderr, cli.ExitPlugin, lib, c.want)
			}
			if !unitNamed.MatchString(lines[0]) {
				t.Errorf("the line does not name the unit that was lost: %s", lines[0])
			}
			if len(bytes.TrimSpace(stdout)) != 0 && !json.Valid(stdout) {
				t.Errorf("stdout is not JSON:\n%.500s", stdout)
			}
			segs, _ := filepath.Glob(filepath.Join(dir, "*.seg"))
			var size int64
			for _, s := range segs {
				if fi, err := os.Stat(s); err == nil {
					size += fi.Size()
				}
			}
			if size == 0 {
				t.Errorf("no records on disk after the failure (segments %v)", segs)
			}
			code, got, stderr := runIsolated(t, []string{"FPRLAB_TEST_HOSTILE="}, append(args, "--out", dir)...)
			if code != 0 {
				t.Fatalf("resumed run: exit %d\n%s", code, stderr)
			}
			if a, b := summaryWithoutTimes(t, string(want)), summaryWithoutTimes(t, string(got)); a != b {
				t.Errorf("resumed summary differs from the undisturbed one\n got %.600s\nwant %.600s", b, a)
			}
		})
	}
	t.Run("print", func(t *testing.T) {
		code, stdout, stderr := runIsolated(t, []string{segEnv, "FPRLAB_TEST_HOSTILE=print", "FPRLAB_TEST_HOSTILE_AT=10"}, args...)
		if code != 0 || !json.Valid(stdout) || summaryWithoutTimes(t, string(stdout)) != summaryWithoutTimes(t, string(want)) {
			t.Fatalf("exit %d, stdout:\n%.500s\nstderr:\n%s", code, stdout, stderr)
		}
		if got := strings.TrimSpace(string(stderr)); got != "fprlab: so:"+lib+": hostile plugin says hello" {
			t.Errorf("stderr %q, want the plugin's line prefixed with its backend", got)
		}
	})
}

// unitNamed matches the unit a failure line names: the signature the
// campaign was computing (or a key, should the plugin fail in one).
var unitNamed = regexp.MustCompile(`(running "compare" at|\(at) (signature|key) \d+(;|\)$)`)

// TestHostilePluginKAT: kat over a plugin that calls exit(0) does not
// exit 0 ("every record matches") but with cli.ExitPlugin and the message.
func TestHostilePluginKAT(t *testing.T) {
	lib := plugintest.Build(t, "testdata/hostile.c")
	code, stdout, stderr := runIsolated(t, []string{"FPRLAB_TEST_HOSTILE=exit0", "FPRLAB_TEST_HOSTILE_AT=100"}, "kat", "--params", "512", "--backend", "so:"+lib)
	if code != cli.ExitPlugin || !bytes.Contains(stderr, []byte("so:"+lib+" ended the process with exit status 0")) || !bytes.Contains(stderr, []byte(`running "kat" at record 0;`)) || len(stdout) != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}

// TestHostilePluginCampaignSlurm: campaign slurm checks the task's
// command, which loads and initialises the plugin; an fprlab_init that
// crashes there ends the worker, not fprlab: exit cli.ExitPlugin, one
// line naming the plugin and fprlab_init, and no script written.
func TestHostilePluginCampaignSlurm(t *testing.T) {
	lib := plugintest.Build(t, "testdata/hostile.c")
	dir := filepath.Join(t.TempDir(), "camp")
	code, stdout, stderr := runIsolated(t, []string{"FPRLAB_TEST_HOSTILE=initsegv", "FPRLAB_TEST_HOSTILE_AT=1"},
		"campaign", "slurm", "--shards", "2", "--out", dir, "--", "compare", "--backend", "so:"+lib, "--params", "512", "--signatures", "4")
	lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
	if code != cli.ExitPlugin || len(lines) != 1 || !strings.Contains(lines[0], "so:"+lib) || !strings.Contains(lines[0], "crashed (SIGSEGV: segmentation violation) in fprlab_init") || len(stdout) != 0 {
		t.Fatalf("exit %d, stdout %q, stderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "shards.sbatch")); err == nil {
		t.Error("shards.sbatch was written although the task's command could not be checked")
	}
	code, stdout, stderr = runIsolated(t, []string{"FPRLAB_TEST_HOSTILE="},
		"campaign", "slurm", "--shards", "2", "--out", dir, "--", "compare", "--backend", "so:"+lib, "--params", "512", "--signatures", "4")
	if code != 0 || !bytes.Contains(stdout, []byte("shards.sbatch")) {
		t.Errorf("the same plugin without the crash: exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
}
