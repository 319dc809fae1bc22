// Package rules exercises every rewriting rule of monogen (see
// ../../monogen_test.go); rules.golden is the expected output.
package rules

import (
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// box is a generic type with a field of each substituted kind.
type box[F any, A arith.Arith[F]] struct {
	a A
	v []F
	f fn[F]
}

// fn is a generic type with an unconstrained type parameter only.
type fn[F any] func(x F) F

// newBox instantiates generic types in a composite literal and in a
// conversion.
func newBox[F any, A arith.Arith[F]](a A, n int) *box[F, A] {
	return &box[F, A]{a: a, v: make([]F, n), f: fn[F](func(x F) F { return x })}
}

// sum is a method of a generic type; it calls a generic function with
// inferred type arguments.
func (b *box[F, A]) sum() F {
	var s F
	s = b.a.Of(0)
	for _, x := range b.v {
		s = add(b.a, s, x)
	}
	return b.f(s)
}

func add[F any, A arith.Arith[F]](a A, x, y F) F { return a.Add(x, y) }

// twice uses explicit instantiations, a method value, helpers generic over
// any (copied when instantiated with F, kept when instantiated with int),
// and a local variable that shadows a generic function's name.
func twice[F any, A arith.Arith[F]](a A, x F) F {
	var f fn[F] = func(x F) F { return add[F, A](a, x, x) }
	b := newBox[F](a, 1)
	sum := b.sum
	c := reverse(copySlice([]F{x, sum()}))
	n := count([]int{1, 2})
	add := n + 1
	_ = add
	return f(c[0])
}

func reverse[T any](x []T) []T {
	for i, j := 0, len(x)-1; i < j; i, j = i+1, j-1 {
		x[i], x[j] = x[j], x[i]
	}
	return x
}

func copySlice[T any](x []T) []T { return append([]T(nil), x...) }

// count is only instantiated with int: it is not copied.
func count[T any](x []T) int { return len(x) }

// Use refers to a copy, which the generator must tolerate while the copy
// is not part of its input.
func Use() float64 { return twiceNative(native.Arith{}, 1) }
