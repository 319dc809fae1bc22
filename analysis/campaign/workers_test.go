package campaign

import (
	"fmt"
	"runtime"
	"testing"
)

// TestCheckWorkers: 0 (the number of CPUs) to max(256, 4 per CPU)
// workers are accepted; the refusal names the range.
func TestCheckWorkers(t *testing.T) {
	limit := max(256, 4*runtime.NumCPU())
	for _, n := range []int{0, 1, 256, limit} {
		if err := CheckWorkers(n); err != nil {
			t.Errorf("%d workers refused: %v", n, err)
		}
	}
	for _, n := range []int{-1, limit + 1} {
		want := fmt.Sprintf("--workers %d: want 1 to %d parallel signatures (0 for the number of CPUs, %d)", n, limit, runtime.NumCPU())
		if err := CheckWorkers(n); err == nil || err.Error() != want {
			t.Errorf("%d workers: %v, want %q", n, err, want)
		}
	}
}
