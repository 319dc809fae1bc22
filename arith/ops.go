package arith

// OpNames are the names of the measurable operations, in the order reports
// list them (the JSON contract of `fprlab arith errors`).
var OpNames = []string{"add", "sub", "mul", "sqr", "inv", "div", "sqrt", "of", "rint", "floor", "trunc", "expm_p63"}

// ErrorBounds is implemented by backends that have a proven bound on the
// relative error of some operations (triword: Fabiano-Muller-Picot, as
// machine-checked by Thery and Rideau). RelErrBound returns the bound for
// op (one of OpNames) as a relative error, or ok = false if none is known.
type ErrorBounds interface {
	RelErrBound(op string) (bound float64, ok bool)
}
