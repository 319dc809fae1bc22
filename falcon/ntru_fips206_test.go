package falcon

import (
	"strings"
	"testing"
)

// TestSolveNTRUFIPS206Args: arguments of the wrong size are errors, not
// panics. (The solver's results are tested against go-fn-dsa's keys and
// candidate verdicts by package fndsa, which draws the candidates.)
func TestSolveNTRUFIPS206Args(t *testing.T) {
	for _, c := range []struct {
		logn uint
		f, g []int8
		want string
	}{
		{1, make([]int8, 2), make([]int8, 2), "logn 1 outside 2..10"},
		{11, nil, nil, "logn 11 outside 2..10"},
		{4, make([]int8, 16), make([]int8, 15), "16, 15 coefficients, want 16"},
		{4, nil, make([]int8, 16), "0, 16 coefficients, want 16"},
	} {
		_, _, ok, err := solveNTRUFIPS206(c.logn, c.f, c.g)
		if ok || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("logn %d, %d/%d coefficients: ok %v, error %v; want %q", c.logn, len(c.f), len(c.g), ok, err, c.want)
		}
	}
	// A zero f (not invertible modulo the first prime) is a rejected
	// candidate, not an error.
	if _, _, ok, err := solveNTRUFIPS206(4, make([]int8, 16), make([]int8, 16)); ok || err != nil {
		t.Errorf("zero f: ok %v, error %v; want a rejection", ok, err)
	}
}
