package falcon

import (
	"errors"
	"math/big"
	"sync"

	"github.com/fprlab/fprlab/arith"
)

// The small nodes of ffSampling as programs (arith.Program), for
// arithmetics that run them (arith.Runner: a plugin called through the C
// ABI, and the shadow's pair over one).
//
// Below the batched LDL tree (ffsampling_batch.go), each inner node still
// splits its target, updates it between its children and merges the
// samples: a dozen batched operations a node, each a call into the
// plugin, on one to eight values at the lowest levels, where three
// quarters of the tree's nodes are. Each of these steps is a fixed
// sequence of operations for a given level, so it is traced once: the
// step's generic code runs over a tracer, an arithmetic whose values are
// registers and whose operations append instructions, and the program it
// records replaces the step's batches by one Run. The observer's events
// of the step are recorded too and replayed, after the run, in their
// order with the registers' values -- the step holds no decision, so no
// event moves relative to one. Every value is the same operation on the
// same operands as in the step (the tracer runs the step's own code), so
// the results are the step's bit for bit.

// maxTracedLevel is the highest level whose steps are traced, if their
// programs fit the 256 registers (traceOf is nil for a step that does
// not): the update step does up to level 4 (252 registers), the split and
// the merge up to level 5 (168 and 128).
const maxTracedLevel = 5

// reg is a traced value: a program register, or (regSlot set) the
// initial value of a memory cell of the step, which becomes an input
// register when first read.
type reg uint32

const regSlot reg = 1 << 31

// traceStep is a step of an inner node of level L over memory m (its
// slices), as ffsLevelsNode runs it.
type traceStep int

const (
	stepSplitTarget traceStep = iota // split t1 (m[0]) into the right child's target (m[1])
	stepBetween                      // ffsBetween: t0, t1, tmp
	stepAfterLeft                    // ffsAfterLeft: t0, tmp
	numTraceSteps
)

// stepSizes are the lengths of a step's memory slices, in units of the
// node's n.
var stepSizes = [numTraceSteps][]int{{1, 1}, {1, 1, 3}, {1, 1}}

// runStep runs step st of level L over a with memory m.
func runStep[F any, A arith.Arith[F]](a A, s *sampler[F, A], st traceStep, L uint, m [][]F) {
	n := 1 << L
	switch st {
	case stepSplitTarget:
		z1 := m[1]
		polySplitFFT(a, z1[:n>>1], z1[n>>1:], m[0], L)
		if s.obs != nil {
			s.obs.Stage(StageSplit, int(L), 1, z1[:n])
		}
	case stepBetween:
		ffsBetween(a, s, m[0], m[1], L, m[2])
	case stepAfterLeft:
		ffsAfterLeft(a, s, m[0], L, m[1])
	}
}

// tracedStep is a step's program: where its inputs come from, where its
// results go and the observer events to replay.
type tracedStep struct {
	prog   *arith.Program
	nregs  int // registers, including inputs only stored or observed
	loads  []traceLoad
	stores []traceStore
	events []traceEvent
}

// traceLoad fills input register r: with memory cell (slice, index), or
// (slice < 0) with the table entry gm (twiddle GM(gm)) or constant c.
type traceLoad struct {
	r            uint8
	slice, index int
	gm           int
	c            arith.Constant
}

// traceStore writes register r to memory cell (slice, index).
type traceStore struct {
	r            uint8
	slice, index int
}

// traceEvent is an observer Stage event with the registers of its values.
type traceEvent struct {
	st          Stage
	level, iter int
	values      [][]uint8
}

var errTraceRegisters = errors.New("step needs more than 256 registers")

// tracer is an arith.Arith and arith.Vector over registers that records
// the operations it is asked for.
type tracer struct {
	sizes  []int // the memory slices' lengths
	insns  []arith.Insn
	next   int
	loaded map[reg]uint8 // memory cells and table entries already loaded
	loads  []traceLoad
	events []traceEvent
	err    error
}

func (t *tracer) alloc() uint8 {
	if t.next > 255 {
		t.err = errTraceRegisters
		return 0
	}
	t.next++
	return uint8(t.next - 1)
}

// slotReg is the handle of memory cell (slice, index).
func (t *tracer) slotReg(slice, index int) reg {
	off := 0
	for _, n := range t.sizes[:slice] {
		off += n
	}
	return regSlot | reg(off+index)
}

// slotOf returns the memory cell of a slot handle.
func (t *tracer) slotOf(x reg) (slice, index int) {
	off := int(x &^ regSlot)
	for k, n := range t.sizes {
		if off < n {
			return k, off
		}
		off -= n
	}
	panic("falcon: trace slot out of range")
}

// use returns x's register, loading a memory cell on its first use.
func (t *tracer) use(x reg) uint8 {
	if x&regSlot == 0 {
		return uint8(x)
	}
	if r, ok := t.loaded[x]; ok {
		return r
	}
	r := t.alloc()
	slice, index := t.slotOf(x)
	t.loads = append(t.loads, traceLoad{r: r, slice: slice, index: index})
	t.loaded[x] = r
	return r
}

// table returns the register of a table entry (key: a handle outside the
// memory's range), loading it on first use.
func (t *tracer) table(key reg, l traceLoad) reg {
	if r, ok := t.loaded[key]; ok {
		return reg(r)
	}
	l.r = t.alloc()
	l.slice = -1
	t.loads = append(t.loads, l)
	t.loaded[key] = l.r
	return reg(l.r)
}

func (t *tracer) emit(op arith.Op, x, y reg) reg {
	a, b := t.use(x), t.use(y)
	d := t.alloc()
	t.insns = append(t.insns, arith.Insn{Op: op, Dst: d, A: a, B: b})
	return reg(d)
}

// Table handles: GM entries and constants, above every memory slot.
const (
	regGM    reg = regSlot | 1<<30
	regConst reg = regSlot | 1<<29
)

func (t *tracer) GM(k int) reg { return t.table(regGM|reg(k), traceLoad{gm: k}) }
func (t *tracer) Const(c arith.Constant) reg {
	return t.table(regConst|reg(c), traceLoad{gm: -1, c: c})
}

func (t *tracer) Add(x, y reg) reg { return t.emit(arith.OpAdd, x, y) }
func (t *tracer) Sub(x, y reg) reg { return t.emit(arith.OpSub, x, y) }
func (t *tracer) Mul(x, y reg) reg { return t.emit(arith.OpMul, x, y) }
func (t *tracer) Neg(x reg) reg    { return t.emit(arith.OpNeg, x, x) }
func (t *tracer) Half(x reg) reg   { return t.emit(arith.OpHalf, x, x) }
func (t *tracer) Sqr(x reg) reg    { return t.emit(arith.OpSqr, x, x) }
func (t *tracer) Inv(x reg) reg    { return t.emit(arith.OpInv, x, x) }

func each2(dst, x, y []reg, f func(x, y reg) reg) {
	for i := range dst {
		dst[i] = f(x[i], y[i])
	}
}

func each1(dst, x []reg, f func(x reg) reg) {
	for i := range dst {
		dst[i] = f(x[i])
	}
}

func (t *tracer) AddN(dst, x, y []reg) { each2(dst, x, y, t.Add) }
func (t *tracer) SubN(dst, x, y []reg) { each2(dst, x, y, t.Sub) }
func (t *tracer) MulN(dst, x, y []reg) { each2(dst, x, y, t.Mul) }
func (t *tracer) NegN(dst, x []reg)    { each1(dst, x, t.Neg) }
func (t *tracer) HalfN(dst, x []reg)   { each1(dst, x, t.Half) }
func (t *tracer) SqrN(dst, x []reg)    { each1(dst, x, t.Sqr) }
func (t *tracer) InvN(dst, x []reg)    { each1(dst, x, t.Inv) }

// The operations the traced steps do not perform.
var errUntraceable = errors.New("falcon: operation outside the traced steps")

func (t *tracer) Of(int64) reg            { panic(errUntraceable) }
func (t *tracer) OfN([]reg, []int64)      { panic(errUntraceable) }
func (t *tracer) Scaled(int64, int) reg   { panic(errUntraceable) }
func (t *tracer) FromFloat64(float64) reg { panic(errUntraceable) }
func (t *tracer) Double(reg) reg          { panic(errUntraceable) }
func (t *tracer) Div(reg, reg) reg        { panic(errUntraceable) }
func (t *tracer) Sqrt(reg) reg            { panic(errUntraceable) }
func (t *tracer) Rint(reg) int64          { panic(errUntraceable) }
func (t *tracer) Floor(reg) int64         { panic(errUntraceable) }
func (t *tracer) Trunc(reg) int64         { panic(errUntraceable) }
func (t *tracer) Lt(reg, reg) bool        { panic(errUntraceable) }
func (t *tracer) ExpmP63(reg, reg) uint64 { panic(errUntraceable) }
func (t *tracer) Float64(reg) float64     { panic(errUntraceable) }
func (t *tracer) Big(reg) *big.Float      { panic(errUntraceable) }
func (t *tracer) Stage(st Stage, level, iter int, values ...[]reg) {
	ev := traceEvent{st: st, level: level, iter: iter}
	for _, vs := range values {
		rs := make([]uint8, len(vs))
		for i, v := range vs {
			rs[i] = t.use(v)
		}
		ev.values = append(ev.values, rs)
	}
	t.events = append(t.events, ev)
}

func (t *tracer) Sample(reg, reg, int64, int)            { panic(errUntraceable) }
func (t *tracer) BerExp(uint64, uint, uint64, int, bool) { panic(errUntraceable) }
func (t *tracer) Attempt(*Attempt)                       { panic(errUntraceable) }

// traceKey identifies a traced step.
type traceKey struct {
	st traceStep
	L  uint
}

// traces caches the steps' programs (a *tracedStep, nil for a step that
// cannot be one): they depend on the step and the level only.
var traces sync.Map

// traceOf returns the program of step st at level L, or nil.
func traceOf(st traceStep, L uint) *tracedStep {
	key := traceKey{st, L}
	if v, ok := traces.Load(key); ok {
		return v.(*tracedStep)
	}
	v, _ := traces.LoadOrStore(key, buildTrace(st, L))
	return v.(*tracedStep)
}

// buildTrace runs step st of level L over a tracer and returns its
// program, or nil when it needs too many registers.
func buildTrace(st traceStep, L uint) *tracedStep {
	n := 1 << L
	t := &tracer{loaded: map[reg]uint8{}}
	m := make([][]reg, len(stepSizes[st]))
	for _, size := range stepSizes[st] {
		t.sizes = append(t.sizes, size*n)
	}
	for k := range m {
		m[k] = make([]reg, t.sizes[k])
		for i := range m[k] {
			m[k][i] = t.slotReg(k, i)
		}
	}
	runStep(t, &sampler[reg, *tracer]{a: t, obs: t}, st, L, m)
	ts := &tracedStep{events: t.events}
	for k := range m {
		for i, x := range m[k] {
			if x != t.slotReg(k, i) {
				ts.stores = append(ts.stores, traceStore{r: t.use(x), slice: k, index: i})
			}
		}
	}
	if t.err != nil {
		return nil
	}
	prog, err := arith.NewProgram(t.insns)
	if err != nil {
		panic("falcon: traced step: " + err.Error())
	}
	ts.prog, ts.loads, ts.nregs = prog, t.loads, t.next
	return ts
}

// traceScratch is the memory of the traced steps of one signature: the
// registers, an event's values and the slices of the step's memory.
type traceScratch[F any] struct {
	regs, vals []F
	mem, args  [3][]F
}

// runTraced runs step st of level L over memory m with its program and
// reports true, or reports false when the step has none.
func runTraced[F any, A arith.Arith[F]](a A, run arith.Runner[F], s *sampler[F, A], sc *traceScratch[F], st traceStep, L uint, m [][]F) bool {
	ts := traceOf(st, L)
	if ts == nil {
		return false
	}
	enterStage(s.st, PlanFFSampling)
	if len(ts.prog.Insns()) == 0 {
		// A split or merge at level 1 only moves values.
		run = nil
	}
	nv := ts.nregs
	if cap(sc.regs) < nv {
		sc.regs = make([]F, nv)
	}
	regs := sc.regs[:nv]
	for _, l := range ts.loads {
		switch {
		case l.slice >= 0:
			regs[l.r] = m[l.slice][l.index]
		case l.gm >= 0:
			regs[l.r] = a.GM(l.gm)
		default:
			regs[l.r] = a.Const(l.c)
		}
	}
	if run != nil {
		run.Run(ts.prog, regs, nil)
	}
	for _, w := range ts.stores {
		m[w.slice][w.index] = regs[w.r]
	}
	if s.obs == nil {
		return true
	}
	for _, ev := range ts.events {
		total := 0
		for _, rs := range ev.values {
			total += len(rs)
		}
		if cap(sc.vals) < total {
			sc.vals = make([]F, total)
		}
		vals, buf := sc.args[:0], sc.vals[:total]
		for _, rs := range ev.values {
			vs := buf[:len(rs)]
			buf = buf[len(rs):]
			for i, r := range rs {
				vs[i] = regs[r]
			}
			vals = append(vals, vs)
		}
		s.obs.Stage(ev.st, ev.level, ev.iter, vals...)
	}
	return true
}
