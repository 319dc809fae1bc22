// Package handwritten has a hook whose native copy is written by hand
// (hookNative below): monogen rewrites the call in useNative to it and
// neither copies the hook's generic body nor complains that the package
// declares the name.
package handwritten

import (
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

func hook[F any, A arith.Arith[F]](a A, x []F) bool { return false }

func use[F any, A arith.Arith[F]](a A, x []F) {
	if hook(a, x) {
		return
	}
	x[0] = a.Neg(x[0])
}

func hookNative(_ native.Arith, x []float64) bool { return len(x) > 1 }
