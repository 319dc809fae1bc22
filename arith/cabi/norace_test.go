//go:build !race

package cabi_test

const raceEnabled = false
