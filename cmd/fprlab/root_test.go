package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/cli"
)

// runCLI runs the command line in-process and returns the exit code and
// what was written to stdout and stderr.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestBackendsJSON(t *testing.T) {
	code, out, errs := runCLI(t, "backends", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []arith.CatalogEntry
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("decoding --json output: %v\n%s", err, out)
	}
	seen := map[string]arith.CatalogEntry{}
	for _, r := range rows {
		seen[r.Name] = r
	}
	for want, bits := range map[string]int{"native": 53, "emu64": 53, "triword": 72, "triword-acc": 72, "oracle": 256} {
		r, ok := seen[want]
		if !ok {
			t.Errorf("backend %q not listed in %s", want, out)
			continue
		}
		if r.Bits == nil || *r.Bits != bits || r.Description == "" || r.Family {
			t.Errorf("backend %q: bits %v, description %q, family %v", want, r.Bits, r.Description, r.Family)
		}
	}
	for _, fam := range []string{"oracle:P", "vprec:P"} {
		if r, ok := seen[fam]; !ok || !r.Family || r.Bits != nil {
			t.Errorf("family %q: %+v (listed %v)", fam, r, ok)
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
	if code != cli.ExitUsage || !strings.Contains(errs, "unknown command") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "version")
	if code != 0 || !strings.HasPrefix(out, "fprlab ") {
		t.Fatalf("exit %d, output %q", code, out)
	}
}

// TestKatDegreeMessages checks that kat and accel counts, which accept 512
// and 1024 only, suggest only those.
func TestKatDegreeMessages(t *testing.T) {
	for _, args := range [][]string{{"kat"}, {"accel", "counts"}, {"kat", "--params", "256"}, {"accel", "counts", "--params", "x"}} {
		code, _, errs := runCLI(t, args...)
		if code != cli.ExitUsage || !strings.Contains(errs, "512 or 1024") || strings.Contains(errs, "power of two") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
}

// TestCompletion checks that cobra's completion command is available.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errs := runCLI(t, "completion", sh)
		if code != 0 || !strings.Contains(out, "fprlab") {
			t.Errorf("%s: exit %d, stderr %q, %d bytes", sh, code, errs, len(out))
		}
	}
}

// TestRunFunctionsDirectly calls run functions with options built in Go,
// as a command's unit tests do, without the flag layer.
func TestRunFunctionsDirectly(t *testing.T) {
	var out, errb bytes.Buffer
	s := cli.NewStreams(nil, &out, &errb)
	if err := runBackends(context.Background(), &backendsOptions{JSON: true}, s); err != nil {
		t.Fatal(err)
	}
	var rows []arith.CatalogEntry
	if err := json.Unmarshal(out.Bytes(), &rows); err != nil || len(rows) < 7 {
		t.Fatalf("%v: %s", err, out.String())
	}
	out.Reset()
	err := runArithErrors(context.Background(), &arithErrorsOptions{Backend: "native", Ops: "mul", N: 50, Seed: 1, Emin: -20, Emax: 20, JSON: true}, s)
	if err != nil || !strings.Contains(out.String(), `"op": "mul"`) {
		t.Fatalf("%v: %s", err, out.String())
	}
	// Options the flag layer would never produce are still checked.
	if err := runArithErrors(context.Background(), &arithErrorsOptions{Backend: "native", Ops: "mul", N: 50}, s); err == nil || !strings.Contains(err.Error(), "--emin 0") {
		t.Errorf("zero options: %v", err)
	}
}
