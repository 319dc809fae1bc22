package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/internal/cli"
)

// TestWeakShadowRefused: a shadow not shadowMargin bits wider than a
// measured backend or swept format is refused, saying why and what to use
// instead (vprec:100 against the 64-bit oracle used to report 2^-50.83,
// the shadow's own error, where the truth is 2^-86.91).
func TestWeakShadowRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--backend", "vprec:100", "--shadow", "oracle", "--oracle-bits", "64", "--params", "512", "--signatures", "1"}, "--oracle-bits 124 or more"},
		{[]string{"compare", "--backend", "oracle", "--shadow", "dd", "--params", "512", "--signatures", "1"}, "--oracle-bits 280 or more"},
		{[]string{"compare", "--backend", "native,vprec:90", "--params", "512", "--signatures", "1"}, "vprec:90 (90 bits)"},
		{[]string{"sweep", "--format", "vprec:{80..84}", "--reference", "", "--params", "512", "--signatures", "1", "--kat", "0"}, "vprec:83 (83 bits)"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, "not 24 bits wider") || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 naming %q", c.args, code, errOut, c.want)
		}
	}
}

// TestWeakShadowForced: --allow-weak-shadow measures, and the figures
// carry the shadow's resolution and a warning.
func TestWeakShadowForced(t *testing.T) {
	if testing.Short() {
		t.Skip("a shadowed signature")
	}
	code, out, errOut := runCLI(t, "compare", "--backend", "vprec:41", "--shadow", "oracle", "--oracle-bits", "64", "--allow-weak-shadow", "--params", "512", "--signatures", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "shadow oracle (64 bits)") || !strings.Contains(out, "WEAK SHADOW") || !strings.Contains(out, "at least 65 measure it") {
		t.Errorf("no warning beside the figures:\n%s", out)
	}
	code, out, errOut = runCLI(t, "compare", "--backend", "vprec:40", "--shadow", "oracle", "--oracle-bits", "64", "--params", "512", "--signatures", "1")
	if code != 0 || strings.Contains(out, "WEAK SHADOW") {
		t.Errorf("a shadow exactly 24 bits wider: exit %d, %s\n%s", code, errOut, out)
	}
}

// TestContradictoryMeasureFlags: flags that used to be ignored or
// misreported are refused by name.
func TestContradictoryMeasureFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--oracle-bits", "300"}, "--oracle-bits 300 applies to --shadow oracle only"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--shadow", "dd", "--oracle-bits", "256"}, "applies to --shadow oracle only"},
		{[]string{"sweep", "--format", "vprec:30", "--params", "512", "--signatures", "1", "--oracle-bits", "300"}, "applies to --shadow oracle only"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "0"}, "--signatures 0: want 1 or more"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--signatures", "-3"}, "--signatures -3: want 1 or more"},
		{[]string{"sweep", "--format", "vprec:30", "--params", "512", "--signatures", "0"}, "--signatures 0: want 1 or more"},
		{[]string{"compare", "--backend", "native", "--params", "512"}, "missing --signatures"},
		{[]string{"compare", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--signatures", "0"}, "excludes --signatures (given as 0)"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// TestManifestCommandIsShellSafe: the manifest keeps the command's words
// ("argv") and a line ("command") that bash splits back into exactly those
// words without running anything, for a seed full of shell syntax (it
// used to be Go-quoted: "$(...)" in it ran when pasted into bash).
func TestManifestCommandIsShellSafe(t *testing.T) {
	if testing.Short() {
		t.Skip("a shadowed signature")
	}
	dir := t.TempDir()
	seed := "$(touch PWNED)`touch PWNED2`'\"; touch PWNED3"
	out := filepath.Join(dir, "camp")
	if code, _, errOut := runCLI(t, "compare", "--backend", "native", "--params", "512", "--signatures", "1", "--seed", seed, "--out", out); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var m results.Manifest
	if err := json.Unmarshal(readFile(t, filepath.Join(out, results.ManifestName)), &m); err != nil || len(m.Runs) != 1 {
		t.Fatalf("manifest: %v %+v", err, m)
	}
	run := m.Runs[0]
	want := []string{"fprlab", "compare", "--backend", "native", "--params", "512", "--signatures", "1", "--seed", seed, "--out", out}
	if !slices.Equal(run.Argv, want) {
		t.Errorf("argv %q, want %q", run.Argv, want)
	}
	if got := bashWords(t, dir, run.Command); !slices.Equal(got, want) {
		t.Errorf("bash splits the command %q into %q", run.Command, got)
	}
	if p := pwned(dir); len(p) > 0 {
		t.Errorf("the command line ran %q", p)
	}
}

// TestRepeatedFlagsRefused: a flag given twice is an error naming both
// values (pflag kept the last one silently), in a command line and in the
// command of a campaign; flags that collect values may repeat.
func TestRepeatedFlagsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"compare", "--backend", "native", "--backend", "emu64", "--params", "512", "--signatures", "1"}, `--backend is given twice ("native" and "emu64")`},
		{[]string{"compare", "--backend=native", "--params", "512", "--seed", "a", "--signatures", "1", "--seed=b"}, `--seed is given twice ("a" and "b")`},
		{[]string{"keygen", "--params", "512", "--pk", "a", "--pk", "b", "--sk", "c"}, "--pk is given twice"},
		{[]string{"verify", "--hex", "--hex", "--pk", "a", "--msg", "b", "--sig", "c"}, "--hex is given twice: give it once"},
		{[]string{"campaign", "slurm", "--shards", "2", "--out", filepath.Join(t.TempDir(), "c"), "--", "compare", "--backend", "native", "--params", "512", "--signatures", "1", "--seed", "a", "--seed", "b"}, `compare arguments: --seed is given twice`},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	// plot --backend collects its values.
	code, _, errOut := runCLI(t, "plot", "histogram", "--in", exampleCampaign, "--backend", "native", "--backend", "triword", "--out", filepath.Join(t.TempDir(), "h.svg"))
	if code != 0 {
		t.Errorf("plot --backend twice: exit %d, %s", code, errOut)
	}
}

// TestUnknownSubcommandsExit2: a group command run without a subcommand
// or with an unknown one is a usage error, like any other.
func TestUnknownSubcommandsExit2(t *testing.T) {
	for _, args := range [][]string{{}, {"accel"}, {"accel", "nosuch"}, {"arith"}, {"arith", "nosuch"}, {"campaign"}, {"campaign", "nosuch"}, {"nosuch"}} {
		code, out, errOut := runCLI(t, args...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "command") {
			t.Errorf("%q: exit %d, stdout %d bytes, stderr %q", args, code, len(out), errOut)
		}
	}
	if code, _, errOut := runCLI(t, "comapre"); !strings.Contains(errOut, "did you mean compare") {
		t.Errorf("comapre: exit %d, %q", code, errOut)
	}
	if code, out, _ := runCLI(t, "accel", "--help"); code != 0 || !strings.Contains(out, "ffsampling") {
		t.Errorf("accel --help: exit %d", code)
	}
}

// TestDuplicateListItemsRefused: bench lists naming an item twice are
// refused instead of measured once.
func TestDuplicateListItemsRefused(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"bench", "--op", "verify,verify"}, `names verify twice`},
		{[]string{"bench", "--backend", "native,native"}, `names native twice`},
		{[]string{"bench", "--params", "512,512"}, `names Falcon-512 twice`},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("%q: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// TestTuneOutRefusesForeignDirectory: tune --out into a directory holding
// other files (a compare campaign) is refused and leaves it as it was
// (analysis/tune's TestResumeDirectory checks the directories it takes).
func TestTuneOutRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := runCLI(t, "tune", "--params", "512", "--signatures", "1", "--out", dir)
	if code != cli.ExitUsage || !strings.Contains(errOut, "holds run.json") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("the directory now holds %v", ents)
	}
}

// TestPlotPrefixRefused: accel --plot PREFIX naming a device, pipe or
// directory (--plot /dev/full created /dev/full.png), or ending in the
// extension, is refused before anything runs.
func TestPlotPrefixRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ prefix, want string }{
		{fifo, "existing pipe"},
		{dir, "existing directory"},
		{filepath.Join(dir, "x.png"), "without the extension"},
		{"-", "not standard output"},
	} {
		for _, cmd := range [][]string{{"accel", "fpru", "--params", "512"}, {"accel", "ripst"}} {
			code, _, errOut := runCLI(t, append(cmd, "--plot", c.prefix)...)
			if code != cli.ExitUsage || !strings.Contains(errOut, c.want) {
				t.Errorf("%q --plot %s: exit %d, stderr %q; want 2 and %q", cmd, c.prefix, code, errOut, c.want)
			}
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%s now holds %v", dir, ents)
	}
}

// TestCheckpointDashRefused: "--checkpoint -" names no file to read back
// and rewrite: every command with a checkpoint refuses it (exit 2, a
// message), none reads a missing standard input.
func TestCheckpointDashRefused(t *testing.T) {
	for _, args := range [][]string{
		{"kat", "--params", "512", "--backend", "native", "--records", "1", "--checkpoint", "-"},
		{"arith", "errors", "--backend", "native", "--n", "10", "--checkpoint", "-"},
		{"certify", "--backend", "native", "--params", "512", "--kat-records", "0:1", "--checkpoint", "-"},
	} {
		if code, _, errs := runCLI(t, args...); code != cli.ExitUsage || !strings.Contains(errs, "a checkpoint is a file") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestCheckpointInUseRefused: a --checkpoint file another run holds is
// refused at once (both would save their progress over the other's); once
// it is released the same command runs, and leaves no lock file behind.
func TestCheckpointInUseRefused(t *testing.T) {
	dir := t.TempDir()
	for i, args := range [][]string{
		{"kat", "--params", "512", "--backend", "native", "--records", "1"},
		{"arith", "errors", "--backend", "native", "--n", "10", "--op", "add"},
		{"certify", "--backend", "native", "--params", "512", "--kat-records", "0:1"},
	} {
		path := filepath.Join(dir, fmt.Sprintf("c%d.ckpt", i))
		args = append(args, "--checkpoint", path)
		held, err := checkpoint.Lock(path)
		if err != nil {
			t.Fatal(err)
		}
		code, _, errs := runCLI(t, args...)
		if code == 0 || !strings.Contains(errs, "checkpoint "+path+" is in use by another process") {
			t.Errorf("%v while held: exit %d, stderr %q", args, code, errs)
		}
		held.Unlock()
		if code, _, errs := runCLI(t, args...); code != 0 {
			t.Errorf("%v once released: exit %d, stderr %q", args, code, errs)
		}
		if _, err := os.Stat(path + ".lock"); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%v: lock file after the run: %v", args, err)
		}
	}
}
