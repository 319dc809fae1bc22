//go:build race

package cabi_test

// raceEnabled: the race detector's sync.Pool drops items at random, so
// allocation budgets do not hold.
const raceEnabled = true
