package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// runCLI runs the command line in-process and returns the exit code and
// what was written to stdout and stderr.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestBackendsJSON(t *testing.T) {
	code, out, errs := runCLI(t, "backends", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []backendJSON
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("decoding --json output: %v\n%s", err, out)
	}
	seen := map[string]backendJSON{}
	for _, r := range rows {
		seen[r.Name] = r
	}
	for _, want := range []string{"native"} {
		r, ok := seen[want]
		if !ok {
			t.Errorf("backend %q not listed in %s", want, out)
			continue
		}
		if r.Bits != 53 || r.Description == "" {
			t.Errorf("backend %q: bits %d, description %q", want, r.Bits, r.Description)
		}
	}
}

func TestBackendsTable(t *testing.T) {
	code, out, _ := runCLI(t, "backends")
	if code != 0 || !strings.HasPrefix(out, "NAME") || !strings.Contains(out, "native") {
		t.Fatalf("exit %d, output:\n%s", code, out)
	}
}

func TestUnknownCommandIsUsageError(t *testing.T) {
	code, _, errs := runCLI(t, "no-such-command")
	if code != exitUsage || !strings.Contains(errs, "unknown command") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	if code != 0 || !strings.HasPrefix(out, "fprlab ") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}
