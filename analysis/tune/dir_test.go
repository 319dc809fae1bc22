package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
