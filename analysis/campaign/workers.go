package campaign

import (
	"fmt"
	"runtime"
)

// A campaign runs its units (signatures) on --workers goroutines, each
// holding a shadowed signer. The limit and the flag's help text that
// states it are kept together here so that they cannot drift apart; every
// command that signs in parallel (compare, sweep, tune, diverge) takes
// both.

// WorkersHelp is the help text of --workers.
const WorkersHelp = "parallel signatures, 1 to 4 per CPU (at least 256 allowed); 0, the default, is the number of CPUs"

// CheckWorkers refuses a --workers count outside 0..max(256, 4 NumCPU):
// more workers than that only add memory (each holds a shadowed signer)
// and is more likely a typo than a plan.
func CheckWorkers(n int) error {
	limit := max(256, 4*runtime.NumCPU())
	if n < 0 || n > limit {
		return fmt.Errorf("--workers %d: want 1 to %d parallel signatures (0 for the number of CPUs, %d)", n, limit, runtime.NumCPU())
	}
	return nil
}
