package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
)

// recordsCampaign is a fresh compare campaign over native and emu64.
func recordsCampaign(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "c")
	if code, _, errOut := runArgs("compare", "--backend", "native,emu64", "--params", "512", "--signatures", "3", "--out", dir); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	return dir
}

// TestRecordsNotRegular: a records file that is /dev/zero, a FIFO or a
// directory is refused, naming it and what it is, by records dump and by
// a resume (they read /dev/zero forever, blocked on the FIFO, and read
// the directory as no records).
func TestRecordsNotRegular(t *testing.T) {
	for _, c := range []struct {
		kind string
		make func(path string) error
	}{
		{"a character device", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"a FIFO", func(p string) error { return syscall.Mkfifo(p, 0o644) }},
		{"a directory", func(p string) error { return os.Mkdir(p, 0o755) }},
	} {
		dir := recordsCampaign(t)
		f := filepath.Join(dir, "records-emu64.seg")
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
		if err := c.make(f); err != nil {
			t.Skipf("%s: %v", c.kind, err)
		}
		for _, args := range [][]string{
			{"records", "dump", dir},
			{"compare", "--backend", "native,emu64", "--params", "512", "--signatures", "3", "--out", dir},
		} {
			code, _, errOut := runArgs(args...)
			if code != cli.ExitUsage || !strings.Contains(errOut, f+" is not a regular file ("+c.kind+")") {
				t.Errorf("%s: %s: exit %d, want 2 naming the file: %s", c.kind, args[0], code, errOut)
			}
		}
	}
}

// TestRecordsDumpChecksAsResume: records dump refuses what a resume
// refuses -- a unit recorded twice (a segment duplicated) -- and a records
// file of a backend the run does not measure; --backend of another
// backend names the campaign's backends, not every backend fprlab knows.
func TestRecordsDumpChecksAsResume(t *testing.T) {
	dir := recordsCampaign(t)
	native := filepath.Join(dir, "records-native.seg")
	data, err := os.ReadFile(native)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(native, append(data, data...), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := runArgs("records", "dump", dir); code != cli.ExitUsage || !strings.Contains(errOut, "recorded twice") {
		t.Errorf("duplicated segment: exit %d, want 2 (recorded twice): %s\n%.300s", code, errOut, out)
	}
	if code, _, errOut := runArgs("compare", "--backend", "native,emu64", "--params", "512", "--signatures", "3", "--out", dir); code != cli.ExitUsage || !strings.Contains(errOut, "recorded twice") {
		t.Errorf("resume of a duplicated segment: exit %d: %s", code, errOut)
	}
	if err := os.WriteFile(native, data, 0o644); err != nil {
		t.Fatal(err)
	}
	stray := filepath.Join(dir, "records-triword.seg")
	if err := os.WriteFile(stray, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runArgs("records", "dump", dir); code != cli.ExitUsage || !strings.Contains(errOut, stray+" is the records file of no backend of the run") {
		t.Errorf("stray records file: exit %d: %s", code, errOut)
	}
	if err := os.Remove(stray); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runArgs("records", "dump", dir, "--backend", "nope")
	if code != cli.ExitUsage || out != "" || !strings.Contains(errOut, "no backend nope (its backends: native, emu64)") || strings.Contains(errOut, "triword") {
		t.Errorf("--backend nope: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runArgs("records", "dump", dir); code != 0 {
		t.Errorf("restored directory: exit %d: %s", code, errOut)
	}
}

// TestRecordsEditedRun: records of a directory whose run.json was edited
// after they were written are refused with that as the possible cause, not
// only a copy from another directory.
func TestRecordsEditedRun(t *testing.T) {
	dir := recordsCampaign(t)
	run := filepath.Join(dir, "run.json")
	data, err := os.ReadFile(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(run, []byte(strings.Replace(string(data), `"fprlab"`, `"edited"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runArgs("records", "dump", dir); code != cli.ExitUsage || !strings.Contains(errOut, "run.json was edited") {
		t.Errorf("edited run.json: exit %d: %s", code, errOut)
	}
}
