package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/results"
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
		if code != exitUsage || !strings.Contains(errOut, "not 24 bits wider") || !strings.Contains(errOut, c.want) {
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
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
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
	want := []string{"fprlab", "compare", "--backend", "native", "--params", "512", "--signatures", "1", "--keys", "1", "--seed", seed, "--shadow", "dd", "--exact-sigma", "formula"}
	if !slices.Equal(run.Argv, want) {
		t.Errorf("argv %q, want %q", run.Argv, want)
	}
	c := exec.Command("bash", "-c", "printf '%s\\0' "+run.Command)
	c.Dir = dir
	b, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	words := strings.Split(string(b), "\x00")
	if got := words[:len(words)-1]; !slices.Equal(got, want) {
		t.Errorf("bash splits the command %q into %q", run.Command, got)
	}
	if p := pwned(dir); len(p) > 0 {
		t.Errorf("the command line ran %q", p)
	}
}
