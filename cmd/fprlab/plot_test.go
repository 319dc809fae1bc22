package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/internal/cli"
)

// exampleCampaign is the hand-written campaign of package results.
const exampleCampaign = "../../analysis/results/testdata/campaign"

// TestPlotEveryKind draws every kind from the example campaign through
// the command line.
func TestPlotEveryKind(t *testing.T) {
	dir := t.TempDir()
	for _, kind := range []string{"histogram", "precision", "security", "stages", "kat", "expm"} {
		out := filepath.Join(dir, kind+".svg")
		code, _, errOut := runCLI(t, "plot", kind, "--in", exampleCampaign, "--out", out, "--points", "16")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", kind, code, errOut)
		}
		b, err := os.ReadFile(out)
		if err != nil || !strings.HasPrefix(string(b), "<?xml") {
			t.Fatalf("%s: %v, %.20q", kind, err, b)
		}
	}
	ops := filepath.Join(dir, "ops.png")
	if code, _, errOut := runCLI(t, "plot", "ops", "--in", "../../analysis/results/testdata/real/arith-errors.json", "--out", ops); code != 0 {
		t.Fatalf("ops: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "plot", "expm", "--backend", "native,vprec:30:e11:rz", "--points", "8", "--out", "-", "--format", "svg")
	if code != 0 || !strings.Contains(out, "vprec:30:e11:rz") {
		t.Fatalf("expm to stdout: exit %d, %s", code, errOut)
	}
}

// TestPlotErrors: bad command lines name the problem and exit 2.
func TestPlotErrors(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"plot", "pie", "--in", exampleCampaign, "--out", filepath.Join(dir, "x.png")}, "want one of"},
		{[]string{"plot", "histogram", "--in", exampleCampaign}, "--out is required"},
		{[]string{"plot", "histogram", "--in", exampleCampaign, "--out", filepath.Join(dir, "x.gif")}, ".png, .svg or .pdf"},
		{[]string{"plot", "histogram", "--in", exampleCampaign, "--out", "-"}, "--format"},
		{[]string{"plot", "histogram", "--out", filepath.Join(dir, "x.png")}, "--in is required"},
		{[]string{"plot", "histogram", "--in", filepath.Join(exampleCampaign, "sweep-512.json"), "--out", filepath.Join(dir, "x.png")}, "no compare object has per_leaf.sum.histogram"},
		{[]string{"plot", "histogram", "--in", filepath.Join(dir, "missing"), "--out", filepath.Join(dir, "x.png")}, "missing"},
		{[]string{"plot", "expm", "--backend", "nosuch", "--out", filepath.Join(dir, "x.png")}, "nosuch"},
	} {
		code, _, errOut := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errOut, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.png")); err == nil {
		t.Error("a failed plot left an output file")
	}
}

// TestReportCommand builds the example campaign's page, and refuses a
// directory without manifest unless asked.
func TestReportCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report.html")
	code, _, errOut := runCLI(t, "report", "--in", exampleCampaign, "--out", out, "--points", "16")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	b, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(b), `id="report-status"`) || !strings.Contains(string(b), "P*") {
		t.Fatalf("%v: %.200s", err, b)
	}
	bare := filepath.Join(dir, "bare")
	if err := os.Mkdir(bare, 0o755); err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(exampleCampaign, "compare-512.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bare, "c.json"), doc, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "report", "--in", bare, "--out", out)
	if code != 2 || !strings.Contains(errOut, "manifest.json") {
		t.Errorf("no manifest: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "report", "--in", bare, "--out", out, "--allow-no-manifest", "--points", "8")
	if code != 0 {
		t.Errorf("--allow-no-manifest: exit %d, %q", code, errOut)
	}
	code, _, errOut = runCLI(t, "report", "--in", bare)
	if code != 2 || !strings.Contains(errOut, "required") {
		t.Errorf("no --out: exit %d, %q", code, errOut)
	}
}

// copyDir copies the regular files of src into a new temporary directory.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// TestPlotReportRefuseOwnInput: an --out naming one of the files read --
// the --in file, a document or the manifest inside --in DIR, through
// another spelling or a link -- is refused with exit 2 and the file is
// left as it was.
func TestPlotReportRefuseOwnInput(t *testing.T) {
	dir := copyDir(t, exampleCampaign)
	doc := filepath.Join(dir, "compare-512.json")
	link := filepath.Join(t.TempDir(), "link.json")
	if err := os.Symlink(doc, link); err != nil {
		t.Fatal(err)
	}
	// A compare campaign's records and lock are not read by report, but
	// are the campaign's all the same.
	for f, b := range map[string]string{"records-native.seg": "FPRS records", "lock": ""} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string][]byte{}
	for _, f := range []string{"compare-512.json", "manifest.json", "notes.json", "sweep-512.json", "records-native.seg", "lock"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		want[f] = b
	}
	for _, args := range [][]string{
		{"report", "--in", dir, "--out", doc},
		{"report", "--in", dir, "--out", filepath.Join(dir, "manifest.json")},
		{"report", "--in", dir, "--out", filepath.Join(dir, "notes.json")},
		{"report", "--in", dir, "--out", link},
		{"report", "--in", dir, "--out", filepath.Join(dir, "records-native.seg")},
		{"report", "--in", dir, "--out", filepath.Join(dir, "lock")},
		{"report", "--in", exampleCampaign, "--baseline", dir, "--out", filepath.Join(dir, "records-native.seg")},
		{"plot", "histogram", "--in", doc, "--out", doc, "--format", "svg"},
		{"plot", "histogram", "--in", dir, "--out", filepath.Join(dir, ".", "compare-512.json"), "--format", "svg"},
		{"plot", "precision", "--in", dir, "--out", filepath.Join(dir, "sweep-512.json"), "--format", "png"},
		{"plot", "histogram", "--in", link, "--out", doc, "--format", "svg"},
	} {
		code, _, errOut := runCLI(t, append(args, "--points", "8")...)
		if code != cli.ExitUsage || !strings.Contains(errOut, "would replace its own input") {
			t.Errorf("%v: exit %d, stderr %q; want 2, refused", args, code, errOut)
		}
	}
	for f, b := range want {
		if got, _ := os.ReadFile(filepath.Join(dir, f)); string(got) != string(b) {
			t.Errorf("%s was replaced", f)
		}
	}
	// A new file in the directory is not an input, nor is an earlier
	// report there.
	for range 2 {
		if code, _, errOut := runCLI(t, "report", "--in", dir, "--out", filepath.Join(dir, "report.html"), "--points", "8"); code != 0 {
			t.Errorf("report into its directory: exit %d, %s", code, errOut)
		}
	}
}

// TestPlotFormatContradictsOut: --format and an --out extension naming
// another format are refused rather than writing PNG into x.svg.
func TestPlotFormatContradictsOut(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.svg")
	code, _, errOut := runCLI(t, "plot", "histogram", "--in", exampleCampaign, "--out", out, "--format", "png")
	if code != cli.ExitUsage || !strings.Contains(errOut, "contradicts") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("x.svg was written")
	}
	if code, _, errOut := runCLI(t, "plot", "histogram", "--in", exampleCampaign, "--out", out, "--format", "svg"); code != 0 {
		t.Errorf("agreeing --format: exit %d, %s", code, errOut)
	}
}

// TestCraftedDocumentRefused: the compare document whose histogram spans
// 2^-1e308..2^1e308 (plot and report used to spin on it forever) is
// refused by both with exit 2, naming the field.
func TestCraftedDocumentRefused(t *testing.T) {
	dir := t.TempDir()
	doc := filepath.Join(dir, "c.json")
	body := `[{"backend":"native","params":512,"signatures":1,"per_leaf":{"sum":{"histogram":[{"log2":1e308,"count":1},{"log2":-1e308,"count":1}]}}}]`
	if err := os.WriteFile(doc, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"plot", "histogram", "--in", doc, "--out", filepath.Join(dir, "h.svg")},
		{"report", "--in", dir, "--out", filepath.Join(dir, "r.html"), "--allow-no-manifest"},
	} {
		code, _, errOut := runCLI(t, args...)
		if code != cli.ExitUsage || !strings.Contains(errOut, "per_leaf.sum.histogram[0].log2") {
			t.Errorf("%v: exit %d, stderr %q", args, code, errOut)
		}
	}
}

// TestHelpNamesEveryPlotKind: fprlab --help and plot --help name every
// kind of figure (pareto was missing), and campaign slurm's help says it
// runs sweeps too.
func TestHelpNamesEveryPlotKind(t *testing.T) {
	_, top, _ := runCLI(t, "--help")
	_, long, _ := runCLI(t, "plot", "--help")
	for _, k := range plot.Kinds {
		if !strings.Contains(top, string(k.Kind)) {
			t.Errorf("fprlab --help does not name the plot kind %s", k.Kind)
		}
		if !strings.Contains(long, string(k.Kind)+":") {
			t.Errorf("plot --help does not describe %s", k.Kind)
		}
	}
	_, camp, _ := runCLI(t, "campaign", "slurm", "--help")
	if !strings.Contains(camp, "compare or sweep\ncampaign") || !strings.Contains(camp, "fprlab sweep ARGS") {
		t.Errorf("campaign slurm --help does not mention sweep:\n%s", camp)
	}
}

// plot cost takes each backend's cost as BACKEND=N and refuses what is not
// one; the other kinds refuse --cost.
func TestPlotCost(t *testing.T) {
	in := "../../analysis/results/testdata/real"
	out := filepath.Join(t.TempDir(), "cost.svg")
	if code, _, errs := runCLI(t, "plot", "cost", "--in", in, "--cost", "native=24873", "--cost-unit", "cells", "--out", out); code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if svg, err := os.ReadFile(out); err != nil || !strings.Contains(string(svg), "cells") {
		t.Fatalf("figure: %v", err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cost"}, "needs --cost BACKEND=N"},
		{[]string{"cost", "--cost", "native"}, "want BACKEND=N"},
		{[]string{"cost", "--cost", "native=NaN"}, "not a finite cost"},
		{[]string{"cost", "--cost", "native=1", "--cost", "native=2"}, "given twice"},
		{[]string{"cost", "--cost", "so:/nowhere.so=1"}, "no compare document of backend so:/nowhere.so"},
		{[]string{"histogram", "--cost", "native=1"}, "--cost is for plot cost"},
	} {
		code, _, errs := runCLI(t, append(append([]string{"plot"}, c.args...), "--in", in, "--out", filepath.Join(t.TempDir(), "x.svg"))...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want %q", c.args, code, errs, c.want)
		}
	}
}
