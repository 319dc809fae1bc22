package cabi

import "sync"

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
