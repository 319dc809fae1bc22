package falcon

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestPrimesUpToDate runs gen_primes.go in a scratch directory and
// compares what it writes with ntru_primes.go: a change to the generator
// without `go generate` fails here.
func TestPrimesUpToDate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs gen_primes.go")
	}
	gen, err := os.ReadFile("gen_primes.go")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "gen_primes.go"), gen, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "gen_primes.go")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_primes.go: %v\n%s", err, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "ntru_primes.go"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("ntru_primes.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("ntru_primes.go is out of date: run go generate ./falcon")
	}
}
