// Package cputime reads the CPU time the process has used, for benchmarks
// on machines shared with other work: the CPU time of a computation does
// not include the time the process waited for a core, which wall-clock
// time does. It is also what the Falcon reference's speed.c measures (C
// clock()), so the two are comparable.
package cputime

import "time"

// Now returns the user plus system CPU time of the whole process (every
// thread, the garbage collector's included) and true, or the wall-clock
// time since an arbitrary origin and false where the system does not
// report CPU time.
func Now() (time.Duration, bool) { return now() }

var origin = time.Now()

// wall is the fallback clock.
func wall() (time.Duration, bool) { return time.Since(origin), false }
