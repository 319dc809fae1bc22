// Package handmissing names a hand-written hook (in TestHandWritten's
// instance) without declaring its copy: monogen rejects it.
package handmissing

import "github.com/fprlab/fprlab/arith"

func hook[F any, A arith.Arith[F]](a A, x []F) bool { return false }

func use[F any, A arith.Arith[F]](a A, x []F) {
	if hook(a, x) {
		return
	}
	x[0] = a.Neg(x[0])
}
