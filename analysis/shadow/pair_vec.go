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
// It is a type of its own, chosen by instantiateDD only for a backend that
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
	run arith.Runner[F] // nil when the backend does not run programs
	buf []F             // scratch for the backend's sides of a batch
}

var (
	_ arith.Vector[Pair[float64, ddouble.DD]] = (*ddPairVec[float64, arith.Arith[float64]])(nil)
	_ arith.Runner[Pair[float64, ddouble.DD]] = (*ddPairVec[float64, arith.Arith[float64]])(nil)
)

// newDDPairVec returns p's dd pair with batches, or nil when p's backend
// does not implement arith.Vector.
func newDDPairVec[F any, A arith.Arith[F]](p *PairArith[F, ddouble.DD, A, ddouble.Arith]) *ddPairVec[F, A] {
	v, ok := any(p.b).(arith.Vector[F])
	if !ok {
		return nil
	}
	r, _ := any(p.b).(arith.Runner[F])
	return &ddPairVec[F, A]{ddPair: ddPair[F, A]{p}, v: v, run: r}
}

// RunsPrograms reports whether the backend runs programs: when it does
// not, Run would replay a program operation by operation through the
// pair, slower than Falcon's own calls of the same operations, and
// arith.RunnerOf tells Falcon not to use it.
func (p *ddPairVec[F, A]) RunsPrograms() bool { return p.run != nil }

// scratch returns 3n backend values.
func (p *ddPairVec[F, A]) scratch(n int) []F {
	if cap(p.buf) < 3*n {
		p.buf = make([]F, 3*n)
	}
	return p.buf[:3*n]
}

// vecOp names the element-wise operations of the batches: the pair
// dispatches on it once per batch, so that each element's dd operation
// is a direct call (a func value per element cost a third of a batched
// plugin signature's time in the pair).
type vecOp int

const (
	vAdd vecOp = iota
	vSub
	vMul
	vNeg
	vHalf
	vSqr
	vInv
)

// batch2 computes the backend's side of dst = op(x, y) with one Vector
// call and the exact side element by element.
func (p *ddPairVec[F, A]) batch2(op vecOp, dst, x, y []ddPairValue[F]) {
	n := len(dst)
	x, y = x[:n], y[:n]
	s := p.scratch(n)
	xb, yb, ob := s[:n], s[n:2*n], s[2*n:]
	for i := range n {
		xb[i], yb[i] = x[i].B, y[i].B
	}
	switch op {
	case vAdd:
		p.v.AddN(ob, xb, yb)
		for i := range n {
			dst[i] = ddPairValue[F]{ob[i], dd.Add(x[i].X, y[i].X)}
		}
	case vSub:
		p.v.SubN(ob, xb, yb)
		for i := range n {
			dst[i] = ddPairValue[F]{ob[i], dd.Sub(x[i].X, y[i].X)}
		}
	case vMul:
		p.v.MulN(ob, xb, yb)
		for i := range n {
			dst[i] = ddPairValue[F]{ob[i], dd.Mul(x[i].X, y[i].X)}
		}
	}
}

// batch1 is batch2 for operations of one operand.
func (p *ddPairVec[F, A]) batch1(op vecOp, dst, x []ddPairValue[F]) {
	n := len(dst)
	x = x[:n]
	s := p.scratch(n)
	xb, ob := s[:n], s[2*n:]
	for i := range n {
		xb[i] = x[i].B
	}
	switch op {
	case vNeg:
		p.v.NegN(ob, xb)
		for i := range n {
			dst[i] = ddPairValue[F]{ob[i], dd.Neg(x[i].X)}
		}
	case vHalf:
		p.v.HalfN(ob, xb)
		for i := range n {
			dst[i] = ddPairValue[F]{ob[i], dd.Half(x[i].X)}
		}
	case vSqr:
		p.v.SqrN(ob, xb)
		for i := range n {
			dst[i] = ddPairValue[F]{ob[i], dd.Sqr(x[i].X)}
		}
	case vInv:
		p.v.InvN(ob, xb)
		for i := range n {
			dst[i] = ddPairValue[F]{ob[i], dd.Inv(x[i].X)}
		}
	}
}

func (p *ddPairVec[F, A]) AddN(dst, x, y []ddPairValue[F]) { p.batch2(vAdd, dst, x, y) }
func (p *ddPairVec[F, A]) SubN(dst, x, y []ddPairValue[F]) { p.batch2(vSub, dst, x, y) }
func (p *ddPairVec[F, A]) MulN(dst, x, y []ddPairValue[F]) { p.batch2(vMul, dst, x, y) }
func (p *ddPairVec[F, A]) NegN(dst, x []ddPairValue[F])    { p.batch1(vNeg, dst, x) }
func (p *ddPairVec[F, A]) HalfN(dst, x []ddPairValue[F])   { p.batch1(vHalf, dst, x) }
func (p *ddPairVec[F, A]) SqrN(dst, x []ddPairValue[F])    { p.batch1(vSqr, dst, x) }
func (p *ddPairVec[F, A]) InvN(dst, x []ddPairValue[F])    { p.batch1(vInv, dst, x) }

func (p *ddPairVec[F, A]) OfN(dst []ddPairValue[F], src []int64) {
	n := len(dst)
	ob := p.scratch(n)[:n]
	p.v.OfN(ob, src[:n])
	for i := range n {
		dst[i] = ddPairValue[F]{ob[i], dd.Of(src[i])}
	}
}

// Run runs a program (the sampler's) as the scalar operations of the pair
// would: the backend's side with one Run of the backend, then the exact
// side replayed instruction by instruction from the backend's registers
// (every register is written once, so they hold every intermediate
// result): the dd operation of each value, the decisions of Floor and
// Trunc noted against the backend's integers, and ExpmP63 measured, in
// the program's order, as ddPair notes them operation by operation.
func (p *ddPairVec[F, A]) Run(prog *arith.Program, v []ddPairValue[F], iv []int64) {
	if p.run == nil {
		arith.RunScalar(p, prog, v, iv)
		return
	}
	nv, _ := prog.Registers()
	vb := p.scratch(nv)[:nv]
	inV, _ := prog.Inputs()
	for _, r := range inV {
		vb[r] = v[r].B
	}
	p.run.Run(prog, vb, iv)
	for _, in := range prog.Insns() {
		d := in.Dst
		switch in.Op {
		case arith.OpAdd:
			v[d] = ddPairValue[F]{vb[d], dd.Add(v[in.A].X, v[in.B].X)}
		case arith.OpSub:
			v[d] = ddPairValue[F]{vb[d], dd.Sub(v[in.A].X, v[in.B].X)}
		case arith.OpMul:
			v[d] = ddPairValue[F]{vb[d], dd.Mul(v[in.A].X, v[in.B].X)}
		case arith.OpSqr:
			v[d] = ddPairValue[F]{vb[d], dd.Sqr(v[in.A].X)}
		case arith.OpNeg:
			v[d] = ddPairValue[F]{vb[d], dd.Neg(v[in.A].X)}
		case arith.OpHalf:
			v[d] = ddPairValue[F]{vb[d], dd.Half(v[in.A].X)}
		case arith.OpInv:
			v[d] = ddPairValue[F]{vb[d], dd.Inv(v[in.A].X)}
		case arith.OpSqrt:
			v[d] = ddPairValue[F]{vb[d], dd.Sqrt(v[in.A].X)}
		case arith.OpOf:
			v[d] = ddPairValue[F]{vb[d], dd.Of(int64(int32(iv[in.A])))}
		case arith.OpRint:
			p.noteRint(iv[d], v[in.A])
		case arith.OpFloor:
			p.noteFloor(iv[d], v[in.A])
		case arith.OpTrunc:
			p.noteTrunc(iv[d], v[in.A])
		case arith.OpExpmP63:
			p.noteExpm(uint64(iv[d]), v[in.A], v[in.B])
		}
	}
}
