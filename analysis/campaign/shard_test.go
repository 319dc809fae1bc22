package campaign

import (
	"strings"
	"testing"
)

// TestParseShard: --shard I/N wants 0 <= I < N; "slurm" takes the job
// array's task id and count from the environment, and is refused outside
// an array; "" is no sharding.
func TestParseShard(t *testing.T) {
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	inArray := env(map[string]string{"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8"})
	noEnv := env(nil)
	for _, c := range []struct {
		v       string
		getenv  func(string) string
		i, n    int
		refusal string // "" when accepted
	}{
		{"", noEnv, 0, 0, ""},
		{"2/4", noEnv, 2, 4, ""},
		{"0/1", noEnv, 0, 1, ""},
		{"3/4", inArray, 3, 4, ""}, // the environment is read for "slurm" only
		{"slurm", inArray, 3, 8, ""},
		{"4/4", noEnv, 0, 0, `--shard "4/4": want I/N with 0 <= I < N`},
		{"-1/4", noEnv, 0, 0, `--shard "-1/4": want I/N with 0 <= I < N`},
		{"0/0", noEnv, 0, 0, `--shard "0/0": want I/N with 0 <= I < N`},
		{"3", noEnv, 0, 0, `--shard "3": want I/N with 0 <= I < N`},
		{"a/4", noEnv, 0, 0, `--shard "a/4": want I/N with 0 <= I < N`},
		{"1/2/3", noEnv, 0, 0, `--shard "1/2/3": want I/N with 0 <= I < N`},
		{"SLURM", inArray, 0, 0, `--shard "SLURM": want I/N with 0 <= I < N`},
		{"slurm", noEnv, 0, 0, "--shard slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set (not in a Slurm job array?)"},
		{"slurm", env(map[string]string{"SLURM_ARRAY_TASK_ID": "0"}), 0, 0, "--shard slurm: SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not set (not in a Slurm job array?)"},
		// The value refused is the one the environment made.
		{"slurm", env(map[string]string{"SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_COUNT": "8"}), 0, 0, `--shard "8/8": want I/N with 0 <= I < N`},
	} {
		i, n, err := ParseShard(c.v, c.getenv)
		switch {
		case c.refusal == "" && (err != nil || i != c.i || n != c.n):
			t.Errorf("ParseShard(%q) = %d, %d, %v; want %d, %d", c.v, i, n, err, c.i, c.n)
		case c.refusal != "" && (err == nil || err.Error() != c.refusal):
			t.Errorf("ParseShard(%q) = %d, %d, %v; want the refusal %q", c.v, i, n, err, c.refusal)
		}
	}
}

// TestParseKATRecords: FROM:TO with 0 <= FROM < TO <= 100; anything else
// refused with the flag's form.
func TestParseKATRecords(t *testing.T) {
	if from, to, err := ParseKATRecords("0:3"); from != 0 || to != 3 || err != nil {
		t.Errorf("0:3: %d, %d, %v", from, to, err)
	}
	if from, to, err := ParseKATRecords("99:100"); from != 99 || to != 100 || err != nil {
		t.Errorf("99:100: %d, %d, %v", from, to, err)
	}
	for _, bad := range []string{"3:3", "4:3", "-1:2", "0:101", "a:2", "5", ""} {
		if _, _, err := ParseKATRecords(bad); err == nil || !strings.Contains(err.Error(), "want FROM:TO with 0 <= FROM < TO <= 100") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
