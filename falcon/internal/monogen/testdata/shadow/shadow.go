// Package shadow declares a local variable named native in generic code,
// which the substitution native.Arith would capture: monogen rejects it.
package shadow

import "github.com/fprlab/fprlab/arith"

func f[F any, A arith.Arith[F]](a A, x F) F {
	native := a.Add(x, x)
	return native
}
