package cabi

import (
	"fmt"
	"unsafe"

	"github.com/fprlab/fprlab/arith"
)

// The optional fprlab_run: a straight-line program of operations
// (arith.Program) in one call into the plugin, for the chains of
// dependent operations no batch covers (the rejection sampler's).

var (
	_ arith.Runner[Value]  = Arith{}
	_ arith.Runner[Value8] = Arith8{}
)

// opRun indexes fprlab_run in lib.fn, after the vector functions.
const opRun = numOps + numVec

// maxRegs is the most registers of each file a program can address
// (uint8 register numbers).
const maxRegs = 256

// rscratch is the memory of one fprlab_run call: the value registers at
// the plugin's stride, the integer registers, the index of a failed
// instruction, a copy of the program text (its Code is struct
// fprlab_insn's layout) and the arguments. From lib.rpool, like the other
// scratch blocks.
type rscratch struct {
	v      []uint64 // the registers, then a guard word
	i      [maxRegs]int64
	gi     uint64
	failed uintptr
	gf     uint64
	text   []uint64   // the program text at its end, then a guard word (textFor)
	args   [6]uintptr // ctx, prog, n, v, i, &failed
}

// textFor copies code, the instructions of one fprlab_run call, into the
// plugin memory s holds, ending right before a guard word and the
// inaccessible page after it, and returns the copy's address. The text
// is handed to the plugin read-only (const fprlab_insn *), but passed in
// place a write into it or past it would change the Program in the Go
// heap that every later signature runs, silently; checkRun compares the
// copy with code after the call instead.
func (s *rscratch) textFor(code []byte) uintptr {
	if words := (len(code)+7)/8 + 1; len(s.text) < words {
		s.text = pluginWords(s, max(words, 2*len(s.text)))
		s.text[len(s.text)-1] = canary
	}
	b := s.textBytes(len(code))
	copy(b, code)
	return uintptr(unsafe.Pointer(unsafe.SliceData(b)))
}

// textBytes is the copy of an n-byte program text in s.text: the n bytes
// before the guard word.
func (s *rscratch) textBytes(n int) []byte {
	all := unsafe.Slice((*byte)(unsafe.Pointer(&s.text[0])), 8*(len(s.text)-1))
	return all[len(all)-n:]
}

func (l *lib) rget() *rscratch {
	if s, ok := l.rpool.Get().(*rscratch); ok {
		return s
	}
	s := &rscratch{gi: canary, gf: canary}
	s.v = pluginWords(s, l.strideWords()*maxRegs+1)
	s.v[len(s.v)-1] = canary
	s.args = [6]uintptr{l.ctx, 0, 0, uintptr(unsafe.Pointer(&s.v[0])), uintptr(unsafe.Pointer(&s.i[0])), uintptr(unsafe.Pointer(&s.failed))}
	return s
}

// runs reports whether fprlab_run is given the instruction's operation:
// Of and ExpmP63 only when the plugin exports their scalar functions
// (fprlab computes them otherwise), the others always (Sqr as fprlab_mul
// of x and x where the plugin has no fprlab_sqr, which the header's
// FPRLAB_RUN_FROM_SCALAR does).
func (l *lib) runs(op arith.Op) bool {
	switch op {
	case arith.OpOf:
		return l.fn[opOfInt64] != 0
	case arith.OpExpmP63:
		return l.fn[opExpmP63] != 0
	}
	return true
}

// Run executes p with fprlab_run, or one operation at a time (RunScalar)
// where the plugin does not export it. An instruction fprlab_run is not
// given (see runs) is computed by fprlab between two calls.
func (a ArithOf[V]) Run(p *arith.Program, v []V, iv []int64) {
	if a.fn[opRun] == 0 {
		arith.RunScalar(a, p, v, iv)
		return
	}
	if !(p.Uses(arith.OpOf) && !a.runs(arith.OpOf) || p.Uses(arith.OpExpmP63) && !a.runs(arith.OpExpmP63)) {
		a.runAll(p, v, iv)
		return
	}
	nv, ni := p.Registers()
	v, iv = v[:nv], iv[:ni]
	insns := p.Insns()
	sw := a.strideWords()
	s := a.rget()
	pack(s.v, v, sw)
	copy(s.i[:], iv)
	start := 0
	for k, in := range insns {
		if a.runs(in.Op) {
			continue
		}
		if !runC(a.lib, s, p, start, k, v, iv) {
			return
		}
		unpack(v, s.v[:nv*sw], sw)
		copy(iv, s.i[:ni])
		arith.Step(a, in, v, iv)
		if in.WritesInt() {
			s.i[in.Dst] = iv[in.Dst]
		} else {
			pack(s.v[int(in.Dst)*sw:], v[in.Dst:in.Dst+1], sw)
		}
		start = k + 1
	}
	if runC(a.lib, s, p, start, len(insns), v, iv) {
		unpack(v, s.v[:nv*sw], sw)
		copy(iv, s.i[:ni])
		a.rpool.Put(s)
	}
}

// runAll is Run of a program that fprlab_run computes whole: only its
// inputs go in and only its results come out.
func (a ArithOf[V]) runAll(p *arith.Program, v []V, iv []int64) {
	nv, ni := p.Registers()
	v, iv = v[:nv], iv[:ni]
	sw := a.strideWords()
	s := a.rget()
	inV, inI := p.Inputs()
	for _, r := range inV {
		pack(s.v[int(r)*sw:], v[r:r+1], sw)
	}
	for _, r := range inI {
		s.i[r] = iv[r]
	}
	if !runC(a.lib, s, p, 0, len(p.Insns()), v, iv) {
		return
	}
	outV, outI := p.Outputs()
	for _, r := range outV {
		unpack(v[r:r+1], s.v[int(r)*sw:], sw)
	}
	for _, r := range outI {
		iv[r] = s.i[r]
	}
	a.rpool.Put(s)
}

// runC calls fprlab_run on insns[from:to] over s's registers. On a
// failure it reports the *OpError through Fail, sets the registers the
// program writes to zero and returns false.
func runC[V value](l *lib, s *rscratch, p *arith.Program, from, to int, v []V, iv []int64) bool {
	if from == to {
		return true
	}
	insns := p.Insns()
	code := p.Code()[4*from : 4*to]
	s.args[1] = s.textFor(code)
	s.failed = 0
	s.args[2] = uintptr(to - from)
	st := l.invoke(opRun, s.args[:])
	s.args[1] = 0
	err := l.checkRun(s, code)
	if st == statusOK && err == nil {
		return true
	}
	if err == nil {
		e := &OpError{Backend: l.label, Op: "run", Code: st, Insn: -1}
		if k := int(s.failed); k < to-from {
			e.Insn, e.InsnOp = from+k, insns[from+k].Op.String()
		}
		err = e
	}
	for _, in := range insns {
		if in.WritesInt() {
			iv[in.Dst] = 0
		} else {
			var zero V
			v[in.Dst] = zero
		}
	}
	Fail(err)
	return false
}

// runMessage is the part of an OpError's message about the instruction
// of fprlab_run that failed.
func (e *OpError) runMessage() string {
	switch {
	case e.Op != "run":
		return ""
	case e.Insn < 0:
		return " (it reported no valid failing instruction)"
	}
	return fmt.Sprintf(" at instruction %d (%s)", e.Insn, e.InsnOp)
}

// RunsPrograms reports whether the plugin exports fprlab_run.
func (a ArithOf[V]) RunsPrograms() bool { return a.fn[opRun] != 0 }
