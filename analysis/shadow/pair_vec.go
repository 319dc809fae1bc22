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

// batch2 computes the backend's side of dst = op(x, y) with one Vector
// call (bop) and the exact side element by element (xop).
func (p *ddPairVec[F, A]) batch2(dst, x, y []ddPairValue[F], bop func(dst, x, y []F), xop func(x, y ddouble.DD) ddouble.DD) {
	n := len(dst)
	x, y = x[:n], y[:n]
	s := p.scratch(n)
	xb, yb, ob := s[:n], s[n:2*n], s[2*n:]
	for i := range n {
		xb[i], yb[i] = x[i].B, y[i].B
	}
	bop(ob, xb, yb)
	for i := range n {
		dst[i] = ddPairValue[F]{ob[i], xop(x[i].X, y[i].X)}
	}
}

// batch1 is batch2 for operations of one operand.
func (p *ddPairVec[F, A]) batch1(dst, x []ddPairValue[F], bop func(dst, x []F), xop func(x ddouble.DD) ddouble.DD) {
	n := len(dst)
	x = x[:n]
	s := p.scratch(n)
	xb, ob := s[:n], s[2*n:]
	for i := range n {
		xb[i] = x[i].B
	}
	bop(ob, xb)
	for i := range n {
		dst[i] = ddPairValue[F]{ob[i], xop(x[i].X)}
	}
}

func (p *ddPairVec[F, A]) AddN(dst, x, y []ddPairValue[F]) { p.batch2(dst, x, y, p.v.AddN, dd.Add) }
func (p *ddPairVec[F, A]) SubN(dst, x, y []ddPairValue[F]) { p.batch2(dst, x, y, p.v.SubN, dd.Sub) }
func (p *ddPairVec[F, A]) MulN(dst, x, y []ddPairValue[F]) { p.batch2(dst, x, y, p.v.MulN, dd.Mul) }
func (p *ddPairVec[F, A]) NegN(dst, x []ddPairValue[F])    { p.batch1(dst, x, p.v.NegN, dd.Neg) }
func (p *ddPairVec[F, A]) HalfN(dst, x []ddPairValue[F])   { p.batch1(dst, x, p.v.HalfN, dd.Half) }
func (p *ddPairVec[F, A]) SqrN(dst, x []ddPairValue[F])    { p.batch1(dst, x, p.v.SqrN, dd.Sqr) }
func (p *ddPairVec[F, A]) InvN(dst, x []ddPairValue[F])    { p.batch1(dst, x, p.v.InvN, dd.Inv) }

func (p *ddPairVec[F, A]) OfN(dst []ddPairValue[F], src []int64) {
	n := len(dst)
	ob := p.scratch(n)[:n]
	p.v.OfN(ob, src[:n])
	for i := range n {
		dst[i] = ddPairValue[F]{ob[i], dd.Of(src[i])}
	}
}
