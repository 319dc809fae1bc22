// Package otherargs instantiates a generic function with a type built from
// a type parameter ([]F), which no substitution rule covers: monogen
// rejects it.
package otherargs

import "github.com/fprlab/fprlab/arith"

func first[T any](x []T) T { return x[0] }

func f[F any, A arith.Arith[F]](a A, x []F) F {
	return first(first([][]F{x}))
}
