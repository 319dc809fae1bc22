package shadow

import (
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
)

// The dd pair over a backend with batched operations.
//
// A plugin backend (package cabi) pays a call into C per operation, far
// more than the operation; it implements arith.Vector so that Falcon's
// polynomial loops make one call per batch. ddPairVec passes the batches
// on: the backend's side of a batch is one Vector call on the backend's
// values, the exact side is the dd operation per element, as ddPair
// computes both for one pair. Each element is thus the same operation on
// the same operands as through ddPair, and the records are identical bit
// for bit (TestPairVectorRecords in package cabi compares them over the C
// double plugin, with and without the vector path).
//
// It is a type of its own, chosen by instantiate only for a backend that
// implements arith.Vector, so that the pairs over other backends (above
// all nativeDDPair, the reference point of the plugin benchmark) do not
// implement arith.Vector and Falcon keeps their scalar loops.

// ddPairVec is ddPair with the element-wise batches of arith.Vector.
//
// Like PairArith (whose decisions it records), it serves one goroutine:
// its scratch is a field, not a pool.
type ddPairVec[F any, A arith.Arith[F]] struct {
	ddPair[F, A]
	v   arith.Vector[F]
	buf []F // scratch for the backend's sides of a batch
}

var _ arith.Vector[Pair[float64, ddouble.DD]] = (*ddPairVec[float64, arith.Arith[float64]])(nil)

// newDDPairVec returns p's dd pair with batches, or nil when p's backend
// does not implement arith.Vector.
func newDDPairVec[F any, A arith.Arith[F]](p *PairArith[F, ddouble.DD, A, ddouble.Arith]) *ddPairVec[F, A] {
	v, ok := any(p.b).(arith.Vector[F])
	if !ok {
		return nil
	}
	return &ddPairVec[F, A]{ddPair: ddPair[F, A]{p}, v: v}
}

// scratch returns 3n backend values.
func (p *ddPairVec[F, A]) scratch(n int) []F {
	if cap(p.buf) < 3*n {
		p.buf = make([]F, 3*n)
	}
	return p.buf[:3*n]
}

// backend2 computes the backend's side of a batch of two operands with
// one Vector call (bop) and returns its results; the caller computes the
// exact side element by element (with the dd operation called directly,
// which a function value would not allow to inline) and assembles the
// pairs. dst may be x or y: they are read before dst is written.
func (p *ddPairVec[F, A]) backend2(x, y []ddPairValue[F], n int, bop func(dst, x, y []F)) []F {
	s := p.scratch(n)
	xb, yb, ob := s[:n], s[n:2*n], s[2*n:]
	for i := range n {
		xb[i], yb[i] = x[i].B, y[i].B
	}
	bop(ob, xb, yb)
	return ob
}

// backend1 is backend2 for operations of one operand.
func (p *ddPairVec[F, A]) backend1(x []ddPairValue[F], n int, bop func(dst, x []F)) []F {
	s := p.scratch(n)
	xb, ob := s[:n], s[2*n:]
	for i := range n {
		xb[i] = x[i].B
	}
	bop(ob, xb)
	return ob
}

func (p *ddPairVec[F, A]) AddN(dst, x, y []ddPairValue[F]) {
	for i, b := range p.backend2(x, y, len(dst), p.v.AddN) {
		dst[i] = ddPairValue[F]{b, dd.Add(x[i].X, y[i].X)}
	}
}

func (p *ddPairVec[F, A]) SubN(dst, x, y []ddPairValue[F]) {
	for i, b := range p.backend2(x, y, len(dst), p.v.SubN) {
		dst[i] = ddPairValue[F]{b, dd.Sub(x[i].X, y[i].X)}
	}
}

func (p *ddPairVec[F, A]) MulN(dst, x, y []ddPairValue[F]) {
	for i, b := range p.backend2(x, y, len(dst), p.v.MulN) {
		dst[i] = ddPairValue[F]{b, dd.Mul(x[i].X, y[i].X)}
	}
}

func (p *ddPairVec[F, A]) NegN(dst, x []ddPairValue[F]) {
	for i, b := range p.backend1(x, len(dst), p.v.NegN) {
		dst[i] = ddPairValue[F]{b, dd.Neg(x[i].X)}
	}
}

func (p *ddPairVec[F, A]) HalfN(dst, x []ddPairValue[F]) {
	for i, b := range p.backend1(x, len(dst), p.v.HalfN) {
		dst[i] = ddPairValue[F]{b, dd.Half(x[i].X)}
	}
}

func (p *ddPairVec[F, A]) SqrN(dst, x []ddPairValue[F]) {
	for i, b := range p.backend1(x, len(dst), p.v.SqrN) {
		dst[i] = ddPairValue[F]{b, dd.Sqr(x[i].X)}
	}
}

func (p *ddPairVec[F, A]) InvN(dst, x []ddPairValue[F]) {
	for i, b := range p.backend1(x, len(dst), p.v.InvN) {
		dst[i] = ddPairValue[F]{b, dd.Inv(x[i].X)}
	}
}

func (p *ddPairVec[F, A]) OfN(dst []ddPairValue[F], src []int64) {
	n := len(dst)
	ob := p.scratch(n)[:n]
	p.v.OfN(ob, src[:n])
	for i, b := range ob {
		dst[i] = ddPairValue[F]{b, dd.Of(src[i])}
	}
}
