package analysis_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/results"
)

// TestOpErrorCheckpoint: what Add saves, the next Load of the same
// configuration has, per backend; a checkpoint of another seed or
// version, or a file that is not one, is refused and left as it was.
func TestOpErrorCheckpoint(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ck.json")
	cfg := analysis.OpErrorConfig{N: 100, Seed: 7, MinExp: -20, MaxExp: 20}
	c, err := analysis.LoadOpErrorCheckpoint(path, cfg, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if c.Len() != 0 {
		t.Errorf("a new checkpoint holds %d", c.Len())
	}
	if err := c.Add(results.OpError{Backend: "native", Op: "mul", Samples: 100}); err != nil {
		t.Fatal(err)
	}
	c, err = analysis.LoadOpErrorCheckpoint(path, cfg, "v1")
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := c.Have("native")("mul"); c.Len() != 1 || !ok || r.Samples != 100 {
		t.Errorf("reloaded: %d records, mul %+v %v", c.Len(), r, ok)
	}
	if _, ok := c.Have("emu64")("mul"); ok {
		t.Error("another backend's record was taken")
	}
	before, _ := os.ReadFile(path)
	other := cfg
	other.Seed = 8
	if _, err := analysis.LoadOpErrorCheckpoint(path, other, "v1"); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Errorf("another seed: %v", err)
	}
	if _, err := analysis.LoadOpErrorCheckpoint(path, cfg, "v2"); err == nil {
		t.Error("another version's checkpoint was taken")
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused load changed the file")
	}
	if err := os.WriteFile(path, []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := analysis.LoadOpErrorCheckpoint(path, cfg, "v1"); err == nil {
		t.Error("a file that is not a checkpoint was taken")
	}
}
