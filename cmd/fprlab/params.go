package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/fprlab/fprlab/falcon"
)

// Parsing of --params, shared by the commands.

// degreeLogn parses a --params value: the degree n, a power of two from 2
// to 1024 (512 and 1024 are the standard parameter sets).
func degreeLogn(s string) (uint, error) {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err == nil {
		for logn := uint(1); logn <= 10; logn++ {
			if n == 1<<logn {
				return logn, nil
			}
		}
		if n > 0 && n&(n-1) != 0 {
			return 0, errNotPowerOfTwo(s, n)
		}
	}
	return 0, fmt.Errorf("--params %q: want the degree, 512 or 1024 (or a power of two from 2 to 1024)", s)
}

// errNotPowerOfTwo is the error of a --params that is no power of two:
// that, not a range, is what the user has to change.
func errNotPowerOfTwo(s string, n int) error {
	return fmt.Errorf("--params %q: %d is %w (the degree is 512 or 1024, or a power of two from 2 to 1024)", s, n, errParamsPower)
}

var errParamsPower = errors.New("not a power of two")

// katDegreeLogn parses --params for the commands that replay the NIST KAT
// files, which exist for Falcon-512 and Falcon-1024 only.
func katDegreeLogn(params string) (uint, error) {
	if params == "" {
		return 0, errors.New("missing --params: 512 or 1024 (the degrees of the NIST KAT files)")
	}
	logn, err := degreeLogn(params)
	if err == nil {
		if _, err = falcon.KATName(logn); err == nil {
			return logn, nil
		}
	}
	return 0, fmt.Errorf("--params %s: want 512 or 1024 (the NIST KAT exists for these degrees only)", params)
}

// paramSetLogn parses --params for the campaign commands (compare, tune),
// which measure the standard parameter sets: Falcon-512 and -1024 of
// round 3, FN-DSA-512 and -1024.
func paramSetLogn(params string) (uint, error) {
	if params == "" {
		return 0, errors.New("missing --params: 512 or 1024")
	}
	logn, err := degreeLogn(params)
	if err == nil && (logn == 9 || logn == 10) {
		return logn, nil
	}
	return 0, fmt.Errorf("--params %s: want 512 or 1024 (the parameter sets of Falcon and FN-DSA, the degrees campaigns measure)", params)
}
