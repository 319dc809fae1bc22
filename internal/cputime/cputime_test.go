package cputime

import (
	"testing"
	"time"
)

// TestNowAdvances checks that a busy loop of at least 20 ms of wall-clock
// time advances the clock, by at least a few milliseconds (the process
// may share its core) and monotonically.
func TestNowAdvances(t *testing.T) {
	t0, cpu := Now()
	start := time.Now()
	x := uint64(1)
	for time.Since(start) < 20*time.Millisecond {
		for range 1000 {
			x = x*6364136223846793005 + 1442695040888963407
		}
	}
	t1, _ := Now()
	if x == 0 {
		t.Log(x) // keep the loop
	}
	if d := t1 - t0; d < time.Millisecond || d > time.Since(start)*2+10*time.Millisecond {
		t.Errorf("clock advanced %v over a busy loop of %v (CPU time: %v)", d, time.Since(start), cpu)
	}
}
