package tune

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/results"
)

// TestResumeDirectory: Resume takes a new directory, an empty one or one
// holding only a search's files and temporaries; an evaluation Done
// records is what Have returns after the next Resume of the same search;
// a directory of other files, or of a search with another seed, is
// refused by name and left as it was.
func TestResumeDirectory(t *testing.T) {
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "new")
	cfg := Config{LogN: 9, TargetLog2: -40, MarginBits: 0.5, Statistic: "per-signature-worst", Seed: "s", Keys: 1, Format: "vprec:%d"}
	c := cfg
	path, err := Resume(dir, &c, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, CheckpointName) {
		t.Errorf("checkpoint %s", path)
	}
	e := &Evaluation{Plan: "fft=30", Seed: "s", Signatures: 4, Cost: 1.5}
	if _, ok := c.Have(e.Key()); ok {
		t.Error("a new directory has an evaluation")
	}
	if err := c.Done(e); err != nil {
		t.Fatal(err)
	}
	// A temporary of an interrupted save is the search's own.
	if err := os.WriteFile(filepath.Join(dir, ".evaluations.json.tmp42"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c = cfg
	if _, err := Resume(dir, &c, "v1"); err != nil {
		t.Fatal(err)
	}
	if got, ok := c.Have(e.Key()); !ok || got.Cost != 1.5 || got.Plan != "fft=30" {
		t.Errorf("resumed: %+v, %v", got, ok)
	}

	c = cfg
	c.Seed = "other"
	if _, err := Resume(dir, &c, "v1"); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("another seed resumed: %v", err)
	}

	foreign := filepath.Join(tmp, "foreign")
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "run.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c = cfg
	if _, err := Resume(foreign, &c, "v1"); err == nil || !strings.Contains(err.Error(), "holds run.json") {
		t.Errorf("a compare directory: %v", err)
	}
	if ents, _ := os.ReadDir(foreign); len(ents) != 1 {
		t.Errorf("the refused directory now holds %v", ents)
	}
}

// TestSave: without a directory Save only returns the document; with one
// it writes that document as result.json and a manifest naming the
// command, the output, the seed, the sample size and the plans measured.
func TestSave(t *testing.T) {
	res := &Result{Scheme: "falcon", Params: 512, Signatures: 20, Confirm: 40, Seed: "s", Confirmations: 3,
		Evaluations: []*Evaluation{{Plan: "a"}, {Plan: "b"}}, MeasuredSeconds: 1.5}
	cfg := Config{LogN: 9, Seed: "s", Signatures: 20}
	argv := []string{"fprlab", "tune", "--params", "512", "--seed", "s"}
	data, err := Save("", res, cfg, argv, "v1")
	if err != nil || !strings.HasPrefix(string(data), "{\n  \"scheme\": \"falcon\",") || !strings.HasSuffix(string(data), "}\n") {
		t.Fatalf("no directory: %v, %q", err, data)
	}
	dir := t.TempDir()
	if data, err = Save(dir, res, cfg, argv, "v1"); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, ResultName)); err != nil || string(got) != string(data) {
		t.Errorf("%s: %v; not the document returned", ResultName, err)
	}
	raw, err := os.ReadFile(filepath.Join(dir, results.ManifestName))
	if err != nil {
		t.Fatal(err)
	}
	var m results.Manifest
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	r := m.Runs[0]
	if m.Title != "fprlab tune, Falcon-512" || r.Command != "fprlab tune --params 512 --seed s" || r.Output != ResultName ||
		r.Seed != "s" || r.Signatures != 20 || r.Seconds != 1.5 || r.Version != "v1" || r.Scheme != "" ||
		r.Note != "2 plans on 20 signatures each, 3 confirmations on 40 fresh signatures" {
		t.Errorf("manifest %+v, run %+v", m, r)
	}
}

// TestFormatTemplate: an unbounded exponent with round to nearest is bare
// vprec:%d; rz and sr take an exponent (11 by default); an exponent
// width outside the oracle's and an unknown rounding are refused.
func TestFormatTemplate(t *testing.T) {
	for _, c := range []struct {
		exp      int
		rounding string
		want     string
	}{{0, "rn", "vprec:%d"}, {8, "rn", "vprec:%d:e8"}, {0, "rz", "vprec:%d:e11:rz"}, {5, "sr=7", "vprec:%d:e5:sr=7"}} {
		if got, err := FormatTemplate(c.exp, c.rounding); err != nil || got != c.want {
			t.Errorf("%d, %s: %q, %v; want %q", c.exp, c.rounding, got, err, c.want)
		}
	}
	if _, err := FormatTemplate(99, "rn"); err == nil || !strings.HasPrefix(err.Error(), "--exp 99: want ") {
		t.Errorf("--exp 99: %v", err)
	}
	if _, err := FormatTemplate(0, "up"); err == nil || !strings.HasPrefix(err.Error(), "--rounding: ") {
		t.Errorf("--rounding up: %v", err)
	}
}
