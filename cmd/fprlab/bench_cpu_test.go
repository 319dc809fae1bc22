package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/bench"
)

// TestBenchNamesCPU checks that bench names the CPU: the first line of
// the table output, and on stderr with --json (whose stdout must stay a
// JSON array).
func TestBenchNamesCPU(t *testing.T) {
	args := []string{"bench", "--backend", "native", "--params", "512", "--op", "verify", "--count", "1", "--min-time", "0"}
	code, out, errs := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if first, _, _ := strings.Cut(out, "\n"); !strings.HasPrefix(first, "CPU: ") || !strings.Contains(first, "logical CPU") {
		t.Errorf("first line %q, want the CPU", first)
	}
	code, out, errs = runCLI(t, append(args, "--json")...)
	if code != 0 {
		t.Fatalf("--json: exit %d, stderr %q", code, errs)
	}
	var rows []bench.Result
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
		t.Errorf("--json output is not the array of rows (%v):\n%s", err, out)
	}
	if !strings.Contains(errs, "CPU: ") {
		t.Errorf("--json: stderr %q does not name the CPU", errs)
	}
}
