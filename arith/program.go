package arith

import (
	"errors"
	"fmt"
)

// Programs: a short straight-line sequence of operations run as one step.
//
// Some of Falcon's arithmetic is a chain of dependent scalar operations
// that no batch of independent elements (Vector) covers: the rejection
// sampler computes about a dozen operations per candidate, each on the
// result of the one before. Over a backend that pays a fixed cost per call
// (a plugin called through the C ABI, package cabi: about 100 ns a call),
// that chain costs a dozen calls per candidate -- most of the calls of a
// shadowed signature once the polynomial loops are batched. A backend that
// implements Runner executes a whole Program in one call instead.
//
// A program works on two register files: value registers (v, of the
// arithmetic's type) and integer registers (i, int64). Registers not
// written by the program are its inputs; every register is written at
// most once (NewProgram checks it), so after a run the registers hold
// every intermediate result, which is what the shadow's pair arithmetic
// needs to replay the program on its exact side.

// programOps are the operations a program may hold, and what each reads
// and writes: value operands (0-2), whether A is an integer register,
// and whether Dst is one. The numbers of the C ABI's enum fprlab_opcode
// (plugin/fprlab_arith.h) are these Op values.
var programOps = map[Op]struct {
	values       int
	intA, intDst bool
}{
	OpAdd: {values: 2}, OpSub: {values: 2}, OpMul: {values: 2},
	OpSqr: {values: 1}, OpNeg: {values: 1}, OpHalf: {values: 1}, OpInv: {values: 1}, OpSqrt: {values: 1},
	OpOf:      {intA: true},
	OpRint:    {values: 1, intDst: true},
	OpFloor:   {values: 1, intDst: true},
	OpTrunc:   {values: 1, intDst: true},
	OpExpmP63: {values: 2, intDst: true},
}

// Insn is one instruction of a Program (struct fprlab_insn):
//
//	Add, Sub, Mul:       v[Dst] = Op(v[A], v[B])
//	Sqr, Neg, Half, Inv, Sqrt: v[Dst] = Op(v[A])
//	Of:                  v[Dst] = Of(int64(int32(i[A])))
//	Rint, Floor, Trunc:  i[Dst] = Op(v[A])
//	ExpmP63:             i[Dst] = int64(ExpmP63(v[A], v[B]))
//
// Of converts the low 32 bits of its register as a signed integer: the
// reference converts the results of fpr_floor and fpr_trunc to C's int
// before it calls fpr_of on them, and so does Falcon's code here.
type Insn struct {
	Op        Op
	Dst, A, B uint8
}

// Program is a validated straight-line program; its zero value is empty.
type Program struct {
	insns  []Insn
	nv, ni int
	// The registers the program reads without writing them (its inputs)
	// and those it writes, per file; and the operations it holds.
	inV, inI, outV, outI []uint8
	uses                 uint64 // bit op
	code                 []byte
}

// NewProgram checks insns and returns them as a program: known opcodes,
// and every register written at most once and not read by an earlier
// instruction (an input is read, never written).
func NewProgram(insns []Insn) (*Program, error) {
	p := &Program{insns: append([]Insn(nil), insns...)}
	var vw, iw, vr, ir [256]bool
	for k, in := range insns {
		ops, ok := programOps[in.Op]
		if !ok {
			return nil, fmt.Errorf("instruction %d: %v is not an operation of programs", k, in.Op)
		}
		values, intA, intDst := ops.values, ops.intA, ops.intDst
		read := func(reg uint8, isInt bool) {
			if isInt {
				ir[reg] = true
				p.ni = max(p.ni, int(reg)+1)
			} else {
				vr[reg] = true
				p.nv = max(p.nv, int(reg)+1)
			}
		}
		if intA {
			read(in.A, true)
		}
		if values >= 1 {
			read(in.A, false)
		}
		if values == 2 {
			read(in.B, false)
		}
		w, r := &vw, &vr
		if intDst {
			w, r = &iw, &ir
			p.ni = max(p.ni, int(in.Dst)+1)
		} else {
			p.nv = max(p.nv, int(in.Dst)+1)
		}
		if w[in.Dst] {
			return nil, fmt.Errorf("instruction %d (%v): register %d written twice", k, in.Op, in.Dst)
		}
		if r[in.Dst] {
			return nil, fmt.Errorf("instruction %d (%v): register %d written after it is read", k, in.Op, in.Dst)
		}
		w[in.Dst] = true
	}
	for _, in := range insns {
		p.uses |= 1 << uint(in.Op)
		p.code = append(p.code, byte(in.Op), in.Dst, in.A, in.B)
	}
	for r := range 256 {
		switch {
		case vr[r] && !vw[r]:
			p.inV = append(p.inV, uint8(r))
		case vw[r]:
			p.outV = append(p.outV, uint8(r))
		}
		switch {
		case ir[r] && !iw[r]:
			p.inI = append(p.inI, uint8(r))
		case iw[r]:
			p.outI = append(p.outI, uint8(r))
		}
	}
	return p, nil
}

// MustProgram is NewProgram for programs written in the source.
func MustProgram(insns ...Insn) *Program {
	p, err := NewProgram(insns)
	if err != nil {
		panic(err)
	}
	return p
}

// Insns returns the program's instructions (not to be modified).
func (p *Program) Insns() []Insn { return p.insns }

// Registers returns the number of value and integer registers the program
// uses: the lengths Run needs.
func (p *Program) Registers() (values, ints int) { return p.nv, p.ni }

// Inputs returns the value and integer registers the program reads
// without writing them, in increasing order; Outputs those it writes. A
// Runner that copies registers needs to copy only these (not to be
// modified).
func (p *Program) Inputs() (values, ints []uint8)  { return p.inV, p.inI }
func (p *Program) Outputs() (values, ints []uint8) { return p.outV, p.outI }

// Uses reports whether the program holds operation op.
func (p *Program) Uses(op Op) bool { return op >= 0 && op < 64 && p.uses&(1<<uint(op)) != 0 }

// Code returns the instructions encoded as 4 bytes each -- the operation
// (its Op number), Dst, A, B -- the layout of struct fprlab_insn of the
// plugin ABI (not to be modified).
func (p *Program) Code() []byte { return p.code }

// errShort is the panic of a run given too few registers: a bug of the
// caller.
var errShort = errors.New("arith: program run with too few registers")

// Runner is an optional interface of an arithmetic: Run executes p over
// the registers v and i (at least p.Registers() long) in one step. The
// contract is RunScalar's: every register is written, bit for bit, as
// RunScalar writes it over the same arithmetic, the operations evaluated
// in the program's order.
type Runner[F any] interface {
	Run(p *Program, v []F, i []int64)
}

// RunnerOf returns a's Runner when a runs programs. A wrapper that
// implements Run for every arithmetic it wraps but gains from it only
// over some (the shadow's pair: over a plugin one call runs a program,
// over an arithmetic without Run the program would be replayed one
// operation at a time, slower than the caller's own operations) declines
// with a method RunsPrograms returning false; RunnerOf then reports
// false, and callers keep their direct operations. The results are the
// same either way (Runner's contract).
func RunnerOf[F any](a any) (Runner[F], bool) {
	r, ok := a.(Runner[F])
	if !ok {
		return nil, false
	}
	if d, ok := a.(interface{ RunsPrograms() bool }); ok && !d.RunsPrograms() {
		return nil, false
	}
	return r, true
}

// RunScalar executes p one operation of a at a time: the definition of a
// program's results.
func RunScalar[F any, A Arith[F]](a A, p *Program, v []F, i []int64) {
	if len(v) < p.nv || len(i) < p.ni {
		panic(errShort)
	}
	for _, in := range p.insns {
		Step(a, in, v, i)
	}
}

// Step executes one instruction of a program by a's scalar operation: a
// Runner's fallback for an instruction it cannot run itself.
func Step[F any, A Arith[F]](a A, in Insn, v []F, i []int64) {
	switch in.Op {
	case OpAdd:
		v[in.Dst] = a.Add(v[in.A], v[in.B])
	case OpSub:
		v[in.Dst] = a.Sub(v[in.A], v[in.B])
	case OpMul:
		v[in.Dst] = a.Mul(v[in.A], v[in.B])
	case OpSqr:
		v[in.Dst] = a.Sqr(v[in.A])
	case OpNeg:
		v[in.Dst] = a.Neg(v[in.A])
	case OpHalf:
		v[in.Dst] = a.Half(v[in.A])
	case OpInv:
		v[in.Dst] = a.Inv(v[in.A])
	case OpSqrt:
		v[in.Dst] = a.Sqrt(v[in.A])
	case OpOf:
		v[in.Dst] = a.Of(int64(int32(i[in.A])))
	case OpRint:
		i[in.Dst] = a.Rint(v[in.A])
	case OpFloor:
		i[in.Dst] = a.Floor(v[in.A])
	case OpTrunc:
		i[in.Dst] = a.Trunc(v[in.A])
	case OpExpmP63:
		i[in.Dst] = int64(a.ExpmP63(v[in.A], v[in.B]))
	}
}

// WritesInt reports whether in writes an integer register (Floor, Trunc,
// ExpmP63) rather than a value register.
func (in Insn) WritesInt() bool { return programOps[in.Op].intDst }
