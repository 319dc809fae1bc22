package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/cli"
)

// TestArithErrorsJSON decodes the JSON contract of `arith errors`: an
// array with one object per operation, in arith.OpNames order, with the
// documented keys, nulls for exact operations and no bound for native.
func TestArithErrorsJSON(t *testing.T) {
	code, out, errs := runCLI(t, "arith", "errors", "--backend", "native", "--n", "2000", "--seed", "3", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("decoding: %v\n%s", err, out)
	}
	if len(rows) != len(arith.OpNames) {
		t.Fatalf("%d rows, want %d", len(rows), len(arith.OpNames))
	}
	keys := []string{"backend", "op", "samples", "max_rel_err_log2", "median_rel_err_log2", "bits", "bound_log2", "worst_over_bound"}
	for i, row := range rows {
		for _, k := range keys {
			if _, ok := row[k]; !ok {
				t.Errorf("row %d lacks %q: %v", i, k, row)
			}
		}
		op := row["op"]
		if op != arith.OpNames[i] || row["backend"] != "native" || row["samples"] != 2000.0 {
			t.Errorf("row %d: op %v, backend %v, samples %v", i, op, row["backend"], row["samples"])
		}
		if row["bound_log2"] != nil || row["worst_over_bound"] != nil {
			t.Errorf("%v: native reports a bound", op)
		}
		maxErr, _ := row["max_rel_err_log2"].(float64)
		bits, _ := row["bits"].(float64)
		switch op {
		case "rint", "floor", "trunc":
			if row["max_rel_err_log2"] != nil || row["median_rel_err_log2"] != nil || row["bits"] != nil {
				t.Errorf("%v: exact operation reported as %v", op, row)
			}
		case "add", "sub", "mul", "div", "sqrt":
			if maxErr > -53 || maxErr < -54 || bits != -maxErr {
				t.Errorf("%v: max %v, bits %v", op, maxErr, bits)
			}
		}
	}
	// The statistics depend only on the seed.
	_, again, _ := runCLI(t, "arith", "errors", "--backend", "native", "--n", "2000", "--seed", "3", "--json")
	if again != out {
		t.Error("same seed, different output")
	}
}

// opErrorDoc reads the fields of an arith errors --json object that the
// tests check, with null kept apart from a number (null: an exact zero
// error, or no bound or range), as a reader of the document sees them.
type opErrorDoc struct {
	Backend        string   `json:"backend"`
	Op             string   `json:"op"`
	Samples        int      `json:"samples"`
	Drawn          int      `json:"drawn"`
	RangeMinExp    *int     `json:"range_min_exp"`
	BelowRange     int      `json:"below_range"`
	AboveRange     int      `json:"above_range"`
	MaxRelErrLog2  *float64 `json:"max_rel_err_log2"`
	Bits           *float64 `json:"bits"`
	BoundLog2      *float64 `json:"bound_log2"`
	WorstOverBound *float64 `json:"worst_over_bound"`
}

// TestArithErrorsBound checks bound_log2 and worst_over_bound for a backend
// with proven bounds, in a range where binary32 limbs do not underflow.
func TestArithErrorsBound(t *testing.T) {
	code, out, errs := runCLI(t, "arith", "errors", "--backend", "triword", "--op", "mul,add", "--n", "500",
		"--emin", "-30", "--emax", "30", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []opErrorDoc
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[0].Op != "mul" || rows[1].Op != "add" {
		t.Fatalf("rows %+v", rows)
	}
	for _, r := range rows {
		if r.BoundLog2 == nil || r.WorstOverBound == nil || r.MaxRelErrLog2 == nil {
			t.Fatalf("%s: missing bound or error: %+v", r.Op, r)
		}
		if *r.WorstOverBound <= 0 || *r.WorstOverBound > 1 || *r.BoundLog2 > -66 {
			t.Errorf("%s: bound 2^%v, worst/bound %v", r.Op, *r.BoundLog2, *r.WorstOverBound)
		}
	}
}

// TestArithErrorsTriwordDefaultRange is the acceptance check of the
// triword backend: over Falcon's default range every operation with a
// bound stays within it where the format does not underflow, mul keeps at
// least 66 bits, and the samples below 2^-78 are reported apart.
func TestArithErrorsTriwordDefaultRange(t *testing.T) {
	code, out, errs := runCLI(t, "arith", "errors", "--backend", "triword", "--n", "5000", "--seed", "11", "--json")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []opErrorDoc
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.RangeMinExp == nil || *r.RangeMinExp != -78 || r.Drawn != 5000 || r.Samples+r.BelowRange != r.Drawn {
			t.Errorf("%s: range %v, samples %d + below %d, drawn %d", r.Op, r.RangeMinExp, r.Samples, r.BelowRange, r.Drawn)
		}
		if r.WorstOverBound != nil && *r.WorstOverBound > 1 {
			t.Errorf("%s: worst/bound %v", r.Op, *r.WorstOverBound)
		}
		if r.Op == "mul" && (r.Bits == nil || *r.Bits < 66) {
			t.Errorf("mul: bits %v, want >= 66", r.Bits)
		}
	}
}

func TestArithErrorsTable(t *testing.T) {
	code, out, errs := runCLI(t, "arith", "errors", "--backend", "vprec:24", "--n", "300")
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range append([]string{"OP", "MAX", "MEDIAN", "BITS", "exponent range is unbounded"}, arith.OpNames...) {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if errs != "" {
		t.Errorf("progress printed for a small run: %q", errs)
	}
	// dd over a range where nothing underflows: the below-range section
	// says so instead of printing a heading without rows.
	code, out, errs = runCLI(t, "arith", "errors", "--backend", "dd", "--n", "200")
	if code != 0 || !strings.Contains(out, "are left out of the table above; none was drawn here.") || strings.Contains(out, "BELOW RANGE") {
		t.Errorf("dd: exit %d, stderr %q, output:\n%s", code, errs, out)
	}
}

func TestArithErrorsBadInput(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"arith", "errors"}, "missing --backend"},
		{[]string{"arith", "errors", "--backend", "nope"}, "unknown backend"},
		{[]string{"arith", "errors", "--backend", "vprec:300"}, "11 <= P <= 256"},
		{[]string{"arith", "errors", "--backend", "native", "--op", "fma"}, "unknown --op"},
		{[]string{"arith", "errors", "--backend", "native", "--op", "add,"}, "unknown --op"},
		{[]string{"arith", "errors", "--backend", "native", "--n", "0"}, "--n 0"},
		{[]string{"arith", "errors", "--backend", "native", "--n", "x"}, "invalid argument"},
		{[]string{"arith", "errors", "--backend", "native", "--emin", "5"}, "exponent range"},
		{[]string{"arith", "bogus"}, "unknown command"},
	}
	for _, c := range cases {
		code, _, errs := runCLI(t, c.args...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q (want exit 2 and %q)", c.args, code, errs, c.want)
		}
	}
}

func TestArithErrorsProgress(t *testing.T) {
	code, out, errs := runCLI(t, "arith", "errors", "--backend", "native", "--op", "trunc", "--n", "100000", "--json")
	if code != 0 || !strings.Contains(errs, "trunc done: 100000 samples") || !strings.HasPrefix(out, "[") {
		t.Fatalf("exit %d, stderr %q, stdout %q", code, errs, out)
	}
}

// TestArithErrorsCheckpoint interrupts nothing but resumes: a run over two
// operations leaves a checkpoint; a second run with the same parameters
// and a third operation reuses the two (same numbers, said on stderr) and
// measures only the third; a run with other parameters refuses the file,
// and a corrupt file is named in the error.
func TestArithErrorsCheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ckpt")
	args := []string{"arith", "errors", "--backend", "native", "--n", "3000", "--seed", "4", "--json", "--checkpoint", path}
	code, first, errs := runCLI(t, append(args, "--op", "mul,add")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	code, second, errs := runCLI(t, append(args, "--op", "mul,add,sqrt")...)
	if code != 0 || !strings.Contains(errs, "2 operations already measured") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var a, b []opErrorDoc
	if err := json.Unmarshal([]byte(first), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(second), &b); err != nil {
		t.Fatal(err)
	}
	if len(b) != 3 || b[2].Op != "sqrt" || *a[0].MaxRelErrLog2 != *b[0].MaxRelErrLog2 || a[1].Samples != b[1].Samples {
		t.Fatalf("resumed results differ: %+v vs %+v", a, b)
	}
	// The same parameters without a checkpoint give the same numbers.
	_, fresh, _ := runCLI(t, "arith", "errors", "--backend", "native", "--n", "3000", "--seed", "4", "--json", "--op", "mul,add,sqrt")
	if fresh != second {
		t.Errorf("resumed output differs from a fresh run")
	}
	code, _, errs = runCLI(t, "arith", "errors", "--backend", "native", "--n", "3001", "--seed", "4", "--checkpoint", path)
	if code != cli.ExitUsage || !strings.Contains(errs, "belongs to another run") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if err := os.WriteFile(path, []byte("not a checkpoint"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = runCLI(t, append(args, "--op", "mul")...)
	if code != cli.ExitUsage || !strings.Contains(errs, "is not an fprlab checkpoint file") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// TestArithErrorsFlagFixes covers the flag handling of `arith errors`:
// --emin 0 and --emax 0 are refused (they used to select the defaults
// silently), an operation named twice is refused, and the --backend
// placeholder in the help is NAME.
func TestArithErrorsFlagFixes(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--emin", "0"}, "--emin 0"},
		{[]string{"--emax", "0"}, "--emax 0"},
		{[]string{"--emax", "501"}, "--emax 501"},
		{[]string{"--op", "add,add"}, "names add twice"},
		{[]string{"--op", "mul,add,mul"}, "names mul twice"},
	} {
		code, out, errs := runCLI(t, append([]string{"arith", "errors", "--backend", "native", "--n", "100"}, c.args...)...)
		if code != cli.ExitUsage || out != "" || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", c.args, code, out, errs)
		}
	}
	_, help, _ := runCLI(t, "arith", "errors", "--help")
	if !strings.Contains(help, "--backend NAME") || strings.Contains(help, "--backend fprlab") {
		t.Errorf("help:\n%s", help)
	}
}

// TestArithErrorsOverflowCountedApart measures triword beyond binary32's
// range: the overflowing samples are counted in above_range, and the
// reported errors are measurements (not the 2^1024 stand-in).
func TestArithErrorsOverflowCountedApart(t *testing.T) {
	code, out, errs := runCLI(t, "arith", "errors", "--backend", "triword", "--op", "mul,sqr", "--n", "2000",
		"--seed", "3", "--emin", "-60", "--emax", "200", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []opErrorDoc
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if r.AboveRange == 0 || r.Samples+r.BelowRange+r.AboveRange != r.Drawn {
			t.Errorf("%s: %d + %d below + %d above != %d drawn", r.Op, r.Samples, r.BelowRange, r.AboveRange, r.Drawn)
		}
		if r.MaxRelErrLog2 == nil || *r.MaxRelErrLog2 > *r.BoundLog2 || r.Bits == nil || *r.Bits < 66 {
			t.Errorf("%s: max %v bits %v bound %v", r.Op, r.MaxRelErrLog2, r.Bits, r.BoundLog2)
		}
	}
	// Over -200..200, div also divides by operands flushed to zero on
	// import (below range): their NaN results are shown as such, not as
	// the number 1024.
	_, table, _ := runCLI(t, "arith", "errors", "--backend", "triword", "--op", "mul,div", "--n", "2000",
		"--seed", "3", "--emin", "-200", "--emax", "200")
	if !strings.Contains(table, "overflow of the format") || strings.Contains(table, "1024") || !strings.Contains(table, "NaN/Inf") {
		t.Errorf("table:\n%s", table)
	}
}

// TestArithErrorsBackendAll measures every registered backend.
func TestArithErrorsBackendAll(t *testing.T) {
	code, out, errs := runCLI(t, "arith", "errors", "--backend", "all", "--op", "add", "--n", "200", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rows []opErrorDoc
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Backend)
	}
	var want []string
	for _, b := range arith.List() {
		want = append(want, b.Name)
	}
	if !slices.Equal(got, want) || len(want) < 5 {
		t.Errorf("backends %v, want %v", got, want)
	}
}

// TestArithErrorsCheckpointBitFlips flips every bit of every third byte
// (every 17th with -short) of an arith errors checkpoint: the file is refused, or the output is a
// fresh run's. Before checksums most flips silently changed the results.
func TestArithErrorsCheckpointBitFlips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck")
	args := []string{"arith", "errors", "--backend", "native", "--op", "mul,expm_p63", "--n", "300", "--json"}
	_, fresh, _ := runCLI(t, args...)
	ckArgs := append(slices.Clone(args), "--checkpoint", path)
	if code, out, errs := runCLI(t, ckArgs...); code != 0 || out != fresh {
		t.Fatalf("exit %d: %s", code, errs)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	stride := 3 // every bit of every stride-th byte
	if testing.Short() {
		stride = 17
	}
	for i := 0; i < len(orig)*8; i += 8 * stride {
		for bit := range 8 {
			data := slices.Clone(orig)
			data[i/8] ^= 1 << bit
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := runCLI(t, ckArgs...)
			if code == cli.ExitUsage && strings.Contains(errs, "checkpoint "+path) {
				refused++
				if strings.Contains(errs, "main.") || strings.Contains(errs, "analysis.") {
					t.Errorf("message names Go types: %s", errs)
				}
				continue
			}
			if code != 0 || out != fresh {
				t.Fatalf("flip of bit %d of byte %d (%q) accepted: exit %d, stderr %q", bit, i/8, orig[i/8], code, errs)
			}
		}
	}
	if refused == 0 {
		t.Error("no flip was refused")
	}
}
