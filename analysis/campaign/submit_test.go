package campaign

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSbatch writes a stand-in sbatch that logs its arguments, one call
// per line, to log and runs body (bash) to answer.
func fakeSbatch(t *testing.T, body string) (path, log string) {
	t.Helper()
	dir := t.TempDir()
	path, log = filepath.Join(dir, "sbatch"), filepath.Join(dir, "calls")
	script := "#!/bin/bash\necho \"$*\" >> " + log + "\n" + body + "\n"
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path, log
}

// TestSubmit: the array is submitted first, the merge after it with a
// dependency on the array's id as sbatch printed it (a cluster suffix
// dropped); output that is no job id, and a failing sbatch, are errors
// that say what sbatch printed, and no merge is submitted after a bad
// array id.
func TestSubmit(t *testing.T) {
	ctx := context.Background()
	sb, log := fakeSbatch(t, `case "$*" in *merge*) echo 78;; *) echo "77;cl1";; esac`)
	a, m, err := Submit(ctx, sb, "/c/shards.sbatch", "/c/merge.sbatch")
	if err != nil || a != "77" || m != "78" {
		t.Fatalf("Submit: %q, %q, %v", a, m, err)
	}
	got, _ := os.ReadFile(log)
	if want := "--parsable /c/shards.sbatch\n--parsable --dependency=afterok:77 /c/merge.sbatch\n"; string(got) != want {
		t.Errorf("sbatch calls:\n%s\nwant:\n%s", got, want)
	}

	for _, c := range []struct{ body, want string }{
		{`echo "sbatch: warning: partition busy"`, `printed "sbatch: warning: partition busy", not a job id`},
		{`echo`, `printed "", not a job id`},
		{`echo "1 2"`, `printed "1 2", not a job id`},
		{`echo "12;x y"`, `printed "12;x y", not a job id`},
		{`echo "sbatch: error: invalid partition" >&2; exit 1`, "sbatch /c/shards.sbatch: exit status 1: sbatch: error: invalid partition"},
	} {
		sb, log := fakeSbatch(t, c.body)
		if _, _, err := Submit(ctx, sb, "/c/shards.sbatch", "/c/merge.sbatch"); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("sbatch answering %s: error %v, want %q", c.body, err, c.want)
		}
		if got, _ := os.ReadFile(log); strings.Count(string(got), "\n") != 1 {
			t.Errorf("sbatch answering %s: called %q, want once", c.body, got)
		}
	}

	// The merge refused after the array was submitted: the error names the
	// array job to cancel.
	sb, _ = fakeSbatch(t, `case "$*" in *merge*) echo "sbatch: error: bad dependency" >&2; exit 1;; *) echo 91;; esac`)
	if _, _, err := Submit(ctx, sb, "/c/shards.sbatch", "/c/merge.sbatch"); err == nil || !strings.Contains(err.Error(), "bad dependency") || !strings.Contains(err.Error(), "scancel 91") {
		t.Errorf("merge refused: %v", err)
	}
}
