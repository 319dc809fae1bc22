//go:build unix

package cputime

import (
	"syscall"
	"time"
)

func now() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return wall()
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
