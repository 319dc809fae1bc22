package cabi

// CountCalls makes every later call into a plugin increment
// counts[name of its function], until the returned function is called.
func CountCalls(counts map[string]int) (stop func()) {
	countCall = func(op int) { counts[opName(op)]++ }
	return func() { countCall = nil }
}
