package cabi

import (
	"bytes"
	"fmt"
	"runtime"
)

// Guard regions. Every block of memory fprlab hands a plugin -- operands,
// results, decodes, arrays of a batch, a program's registers, what
// fprlab_init fills -- is followed by a guard word holding canary, and
// the guards of a call are checked when it returns. A plugin writing past
// a block (a wrong value_size, an off-by-one in a vector loop, a wild
// memcpy) then stops the run naming the function, before any value it
// computed reaches a record: without the check such a write lands in the
// Go heap next to the block and corrupts results silently or crashes the
// runtime far from the cause (issue 33, item 2). A scalar result must
// also leave the bytes of its 32-byte block beyond the value's stride
// zero, so an 8-byte value written 8 bytes too far is caught although it
// stays inside the block.
//
// The check is a few compares per call, next to the ~90 ns of the call
// itself.

// canary is the pattern of a guard word: no small integer, no binary64
// value a computation produces by accident, odd in both halves.
const canary uint64 = 0x9e3779b97f4a7c15

// OverrunError is a plugin function that wrote past a block fprlab handed
// it. The memory beyond the block may be damaged, so the run must stop.
type OverrunError struct {
	Backend string // "so:PATH[@CONFIG]"
	Op      string // the function, without "fprlab_"
	Block   string // "output", "operand x", ...
	// Into is a write into the block, which the function is given
	// read-only (a program's text), rather than past it.
	Into bool
}

func (e *OverrunError) Error() string {
	if e.Into {
		return fmt.Sprintf("backend %s: fprlab_%s wrote into its %s, which it is given read-only (the run stops before any of its values is used)", e.Backend, e.Op, e.Block)
	}
	return fmt.Sprintf("backend %s: fprlab_%s wrote past its %s (the memory after it may be damaged; the run stops before any of its values is used)", e.Backend, e.Op, e.Block)
}

// overrun is the *OverrunError of op on block.
func (l *lib) overrun(op int, block string) error {
	return &OverrunError{Backend: l.label, Op: opName(op), Block: block}
}

// setGuards arms s's guard words (once, when s is made: a scratch whose
// guards were hit is never returned to the pool).
func (s *scratch) setGuards() { s.gx, s.gy, s.gout, s.gp = canary, canary, canary, canary }

// checkGuards reports the first block of s that op wrote past, or a
// result with a nonzero word beyond the plugin's stride.
func (l *lib) checkGuards(op int, s *scratch) error {
	switch {
	case s.gx != canary:
		return l.overrun(op, "operand x")
	case s.gy != canary:
		return l.overrun(op, "operand y")
	case s.gout != canary:
		return l.overrun(op, "output")
	case s.gp != canary:
		if op == opFromParts {
			return l.overrun(op, "operand (struct fprlab_parts)")
		}
		return l.overrun(op, "output (struct fprlab_parts)")
	}
	for _, w := range s.out.w[l.strideWords():] {
		if w != 0 {
			return l.overrun(op, fmt.Sprintf("output of value_size %d bytes", l.info.valueSize))
		}
	}
	return nil
}

// armVec sets the guard words of a vector call of n values, after the
// n values of x (and of y, and out, when the call has them).
func (s *vscratch) armVec(n int, y bool) {
	s.x[n] = canary
	s.out[n] = canary
	if y {
		s.y[n] = canary
	}
}

// checkVec reports the first array of a vector call of n words per array
// that op wrote past.
func (l *lib) checkVec(op int, s *vscratch, n int, y bool) error {
	switch {
	case s.out[n] != canary:
		return l.overrun(op, "output array")
	case s.x[n] != canary:
		return l.overrun(op, "operand array x")
	case y && s.y[n] != canary:
		return l.overrun(op, "operand array y")
	}
	return nil
}

// checkRun reports a write of fprlab_run past its register files or its
// failed-instruction index, or into or past its program text (code, the
// instructions it was given, of which s holds the copy it read).
func (l *lib) checkRun(s *rscratch, code []byte) error {
	switch {
	case s.v[len(s.v)-1] != canary:
		return l.overrun(opRun, "value registers")
	case s.gi != canary:
		return l.overrun(opRun, "integer registers")
	case s.gf != canary:
		return l.overrun(opRun, "failed-instruction index")
	case s.text[len(s.text)-1] != canary:
		return l.overrun(opRun, "program text")
	case !bytes.Equal(s.textBytes(len(code)), code):
		return &OverrunError{Backend: l.label, Op: opName(opRun), Block: "program text", Into: true}
	}
	return nil
}

// pluginWords returns n words for an array handed to a plugin, followed by an
// inaccessible page where the system allows (guardedWords), unmapped when
// owner is collected.
func pluginWords[T any](owner *T, n int) []uint64 {
	w, unmap := guardedWords(n)
	if w == nil {
		return make([]uint64, n)
	}
	runtime.AddCleanup(owner, func(f func()) { f() }, unmap)
	return w
}
