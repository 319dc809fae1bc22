package cabi

import (
	"os"
	"sync"
	"sync/atomic"
)

// CountCalls makes every later call into a plugin increment
// counts[name of its function], until the returned function is called
// (calls from several goroutines are counted under a lock).
func CountCalls(counts map[string]int) (stop func()) {
	var mu sync.Mutex
	countCall = func(op int) {
		mu.Lock()
		counts[opName(op)]++
		mu.Unlock()
	}
	return func() { countCall = nil }
}

// Words and Words8 are a value's 64-bit words, for bit-for-bit
// comparisons.
func Words(v Value) []uint64   { return v.w[:] }
func Words8(v Value8) []uint64 { return v.w[:] }

// Decode is fprlab_decode of x, checked (the double plugins' values are
// read from their layout, without it).
func Decode(a Arith8, x Value8) error {
	_, err := a.decodeCall(wide(x))
	return err
}

// SwitchMonitor attaches a monitor page (a temporary file's) the first
// time it is called with on, and afterwards switches that page on and
// off, so that a benchmark can interleave calls counted on the page, as a
// worker's are, with calls that are not. It returns a function that
// detaches the page.
func SwitchMonitor(on bool) (detach func(), err error) {
	if on && switched == nil {
		f, err := os.CreateTemp("", "fprlab-monitor-bench-")
		if err != nil {
			return nil, err
		}
		os.Remove(f.Name())
		defer f.Close()
		if err := AttachMonitor(f); err != nil {
			return nil, err
		}
		switched = monitor
	}
	if on {
		monitor = switched
	} else {
		monitor = nil
	}
	return func() { monitor, switched = nil, nil }, nil
}

var switched *[MonitorSize / 8]uint64

// MonitorCompleted is the number of calls the page of SwitchMonitor
// counted.
func MonitorCompleted() uint64 {
	if switched == nil {
		return 0
	}
	return atomic.LoadUint64(&switched[monCompleted])
}
