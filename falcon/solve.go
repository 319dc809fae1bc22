package falcon

import (
	"errors"
	"fmt"

	"github.com/fprlab/fprlab/arith"
)

// ErrNTRUSolve is returned by SolveNTRU when (f, g) has no solution the
// reference's NTRUSolve accepts.
var ErrNTRUSolve = errors.New("falcon: NTRUSolve found no F, G for (f, g)")

// SolveNTRU completes (f, g) of degree 2^logn into a private key: F, G with
// f G - g F = q, found by key generation's NTRUSolve over backend b, as
// Keygen completes its candidates. A tool that has found a short (f, g)
// some other way -- a key recovered from two signatures, see analysis/diverge
// -- gets from it a key that signs.
func SolveNTRU(b arith.Backend, logn uint, f, g []int8) (*PrivateKey, error) {
	if _, err := ParamsFor(logn); err != nil {
		return nil, err
	}
	n := 1 << logn
	if len(f) != n || len(g) != n {
		return nil, fmt.Errorf("falcon: SolveNTRU: f and g need %d coefficients, have %d and %d", n, len(f), len(g))
	}
	e, err := newEngine(b)
	if err != nil {
		return nil, err
	}
	if err := e.checkRange(); err != nil {
		return nil, err
	}
	bigF, bigG, ok := e.solveNTRU(logn, f, g)
	if !ok {
		return nil, ErrNTRUSolve
	}
	return &PrivateKey{LogN: logn, SmallF: append([]int8(nil), f...), SmallG: append([]int8(nil), g...), BigF: bigF, BigG: bigG}, nil
}
