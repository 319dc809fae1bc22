package arith

// OpNames are the names of the measurable operations, in the order reports
// list them (the JSON contract of `fprlab arith errors`).
var OpNames = []string{"add", "sub", "mul", "sqr", "inv", "div", "sqrt", "of", "rint", "floor", "trunc", "expm_p63"}

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
