// Package stubs has a hook whose generic body takes a batched path
// through an optional interface and a helper: monogen writes the stub
// instance's copy of the hook as "return false", without copying the body
// or the helper it reaches.
package stubs

import "github.com/fprlab/fprlab/arith"

func hook[F any, A arith.Arith[F]](a A, x []F) bool {
	v, ok := any(a).(arith.Vector[F])
	if ok {
		batched(v, x)
	}
	return ok
}

func batched[F any](v arith.Vector[F], x []F) { v.NegN(x, x) }

func use[F any, A arith.Arith[F]](a A, x []F) {
	if hook(a, x) {
		return
	}
	x[0] = a.Neg(x[0])
}

func notBool[F any, A arith.Arith[F]](a A, x []F) int { return len(x) }
