package arith

import (
	"fmt"
	"slices"
	"strings"
)

// Op names one method of Arith. It is the one list of operations that the
// tools share: the operation counter (package accel), the per-operation error
// measurement (package analysis) and the shadow execution all index by it.
type Op int

// The methods of Arith, in the order of the interface.
const (
	OpOf Op = iota
	OpScaled
	OpFromFloat64
	OpConst
	OpGM
	OpAdd
	OpSub
	OpNeg
	OpHalf
	OpDouble
	OpMul
	OpSqr
	OpInv
	OpDiv
	OpSqrt
	OpRint
	OpFloor
	OpTrunc
	OpLt
	OpExpmP63
	OpFloat64
	OpBig
	NumOps // the number of operations
)

// opNames are the names of the operations as reports and flags spell them
// (the reference's fpr_* names without the prefix).
var opNames = [NumOps]string{
	"of", "scaled", "from_float64", "const", "gm",
	"add", "sub", "neg", "half", "double",
	"mul", "sqr", "inv", "div", "sqrt",
	"rint", "floor", "trunc", "lt", "expm_p63",
	"float64", "big",
}

// String returns the operation's name, e.g. "expm_p63".
func (o Op) String() string {
	if o < 0 || o >= NumOps {
		return fmt.Sprintf("Op(%d)", int(o))
	}
	return opNames[o]
}

// MeasuredOps are the operations whose error against the oracle is
// measured operation by operation (`fprlab arith errors`), in the order
// reports list them. The others are exact by contract (Neg, Half, Double,
// Lt, FromFloat64 for binary64 backends), tables (Const, GM) or conversions
// out of the backend (Float64, Big).
var MeasuredOps = []Op{OpAdd, OpSub, OpMul, OpSqr, OpInv, OpDiv, OpSqrt, OpOf, OpRint, OpFloor, OpTrunc, OpExpmP63}

// OpNames are the names of MeasuredOps, in the same order (the JSON contract
// of `fprlab arith errors`).
var OpNames = func() []string {
	out := make([]string, len(MeasuredOps))
	for i, o := range MeasuredOps {
		out[i] = o.String()
	}
	return out
}()

// ParseOps reads a list of measured operations: "all" (OpNames), one
// name, or a comma-separated list of distinct names.
func ParseOps(list string) ([]string, error) {
	if list == "all" {
		return OpNames, nil
	}
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(OpNames, name) {
			return nil, fmt.Errorf("unknown --op %q (known: all, %s)", name, strings.Join(OpNames, ", "))
		}
		if slices.Contains(out, name) {
			return nil, fmt.Errorf("--op %s names %s twice", list, name)
		}
		out = append(out, name)
	}
	return out, nil
}

// ErrorBounds is implemented by backends that have a proven bound on the
// relative error of some operations (triword: Fabiano-Muller-Picot, as
// machine-checked by Thery and Rideau). RelErrBound returns the bound for
// op (one of OpNames) as a relative error, or ok = false if none is known.
//
// Such bounds are theorems about a format with an unbounded exponent range.
// BoundMinExp is the smallest binary exponent e for which the backend's
// format holds its full precision: operands and results of magnitude at
// least 2^e never underflow inside an operation, so the bounds apply.
// Below it (triword: the lowest limb leaves binary32's normal range) the
// relative error can exceed the bound while the absolute error stays tiny;
// error reports count such samples separately.
type ErrorBounds interface {
	RelErrBound(op string) (bound float64, ok bool)
	BoundMinExp() int
}
