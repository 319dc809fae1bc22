// Package avxcheck finds AVX-SSE transitions in compiled amd64 code: the
// code paths through which a legacy-encoded (non-VEX) SSE instruction runs
// while the upper halves of the vector registers hold data, or a function
// that has written 256- or 512-bit registers returns or calls out without
// clearing them (VZEROUPPER).
//
// Why it matters: once an instruction has written the upper 128 bits of a
// YMM/ZMM register, the CPU must preserve them across legacy SSE
// instructions, which do not know of them. Intel cores either save and
// restore the upper state at every transition (before Skylake: tens of
// cycles each way) or give every legacy SSE instruction a dependency on,
// and a merge with, the dirty upper bits, until a VZEROUPPER clears them
// (Intel 64 and IA-32 Architectures Optimization Reference Manual,
// "Mixing AVX code with SSE code"). Go's scalar floating-point code and
// its memory moves are legacy SSE (MOVSD, ADDSD, MOVUPS, XORPS ...), and
// the compiler inserts no VZEROUPPER of its own (only
// archsimd.ClearAVXUpperBits emits one), so one vector kernel that
// returns dirty slows down all the scalar code that runs after it.
//
// The input is the compiler's own assembly listing (go build -gcflags=-S),
// which names every instruction exactly as the compiler emitted it,
// VEX-encoded ones with their V mnemonics; a disassembly of the linked
// binary by go tool objdump would be no better a source, since its x86
// decoder does not know many of the VEX instructions (it prints VPSUBQ as
// STI, for instance, and loses the instruction boundaries after it).
package avxcheck

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// A Finding is one instruction of a listing at which an AVX-SSE
// transition can happen.
type Finding struct {
	Func  string // the function's symbol, as the listing names it
	Pos   string // file:line of the instruction
	Instr string // the instruction, mnemonic and operands
	Why   string
}

func (f Finding) String() string {
	return fmt.Sprintf("%s: %s (%s): %s", f.Func, f.Instr, f.Pos, f.Why)
}

// Func summarizes one function of a listing.
type Func struct {
	Name string
	// Wide is whether the function writes or reads 256- or 512-bit
	// registers (Y or Z), VEX for short.
	Wide bool
	// VZeroUpper counts its VZEROUPPER (and VZEROALL) instructions.
	VZeroUpper int
}

// Report is the outcome of Check.
type Report struct {
	Funcs    []Func
	Findings []Finding
	// Calls counts the direct calls of each function (by symbol) in the
	// listing: a helper that takes or returns vectors returns dirty by the
	// ABI, so it must be inlined everywhere, that is never called.
	Calls map[string]int
}

var (
	// A function's header line: "pkg.name STEXT size=... ".
	headerRE = regexp.MustCompile(`^(\S+) STEXT`)
	// An instruction line: tab, pc in hex, pc in decimal, (file:line),
	// tab, mnemonic, then optionally tab and operands.
	instrRE = regexp.MustCompile(`^\t0x[0-9a-f]+ (\d+) \(([^)]*)\)\t([A-Z][A-Z0-9.]*)(?:\t(.*))?$`)
	xmmRE   = regexp.MustCompile(`\bX([0-9]|1[0-5])\b`)
	wideRE  = regexp.MustCompile(`\b[YZ]([0-9]|[12][0-9]|3[01])\b`)
	// Calls that need no clean state: they never return (panics) or run
	// before the function body (the stack-growth call of the prologue).
	exemptCallRE = regexp.MustCompile(`\bruntime\.(panic|gopanic|goPanic|morestack)`)
	// Calls that never return: no path goes on after them.
	noReturnRE = regexp.MustCompile(`\bruntime\.(panic|gopanic|goPanic)`)
)

// Check reads a compiler listing (the standard error of go build
// -gcflags=<pkg>=-S) and returns its functions and every transition it
// finds.
//
// Each function's instructions are a control-flow graph (an instruction
// is followed by the next one unless it is a RET, an unconditional JMP or
// a call to a panic, and by the target of its jump); a forward data-flow pass computes at
// every instruction whether the upper halves can be dirty on some path
// from the entry. The entry is clean (every function, the vector ones
// included, must be entered clean); an instruction naming a Y or Z
// register makes the state dirty, VZEROUPPER/VZEROALL clean. Where the
// state can be dirty, a legacy-SSE instruction (one naming an X register
// without a V mnemonic), a RET, a CALL (other than to a panic, which does
// not come back, or to morestack, which the prologue calls before the
// body) and a JMP to another function are findings. An indirect jump
// passes its state to every instruction of the function (conservative: it
// can only add findings).
func Check(r io.Reader) (Report, error) {
	rep := Report{Calls: map[string]int{}}
	var body []instr
	flush := func() {
		if len(rep.Funcs) > 0 {
			rep.Findings = append(rep.Findings, check(&rep.Funcs[len(rep.Funcs)-1], body)...)
		}
		body = body[:0]
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		line := sc.Text()
		if m := headerRE.FindStringSubmatch(line); m != nil {
			flush()
			rep.Funcs = append(rep.Funcs, Func{Name: m[1]})
			continue
		}
		m := instrRE.FindStringSubmatch(line)
		if m == nil || len(rep.Funcs) == 0 {
			continue
		}
		pc, _ := strconv.Atoi(m[1])
		op := m[3]
		if op == "TEXT" || op == "PCDATA" || op == "FUNCDATA" {
			continue
		}
		if op == "CALL" {
			if sym, ok := strings.CutSuffix(m[4], "(SB)"); ok {
				rep.Calls[sym]++
			}
		}
		body = append(body, instr{pc: pc, pos: m[2], op: op, args: m[4]})
	}
	if err := sc.Err(); err != nil {
		return rep, err
	}
	flush()
	return rep, nil
}

type instr struct {
	pc       int
	pos      string
	op, args string
}

// effect is what an instruction does to the state.
type effect int

const (
	keep effect = iota
	dirties
	cleans
)

func (in instr) effect() effect {
	switch {
	case in.op == "VZEROUPPER" || in.op == "VZEROALL":
		return cleans
	case strings.HasPrefix(in.op, "V") && wideRE.MatchString(in.args):
		return dirties
	}
	return keep
}

// fault returns why the instruction is a transition when it runs with
// dirty upper halves, or "" if it is not one.
func (in instr) fault() string {
	switch {
	case !strings.HasPrefix(in.op, "V") && xmmRE.MatchString(in.args):
		return "legacy-SSE instruction while the upper halves of the vector registers are dirty"
	case in.op == "RET":
		return "returns with dirty upper halves (no VZEROUPPER)"
	case in.op == "CALL" && !exemptCallRE.MatchString(in.args):
		return "calls out with dirty upper halves (no VZEROUPPER)"
	case in.op == "JMP" && strings.Contains(in.args, "(SB)"):
		return "jumps to another function with dirty upper halves (no VZEROUPPER)"
	}
	return ""
}

// check summarizes one function into fn and returns its findings.
func check(fn *Func, body []instr) []Finding {
	at := make(map[int]int, len(body)) // pc -> index of the first instruction there
	for k := len(body) - 1; k >= 0; k-- {
		at[body[k].pc] = k
	}
	// succ returns the indices of an instruction's successors; all is set
	// for an indirect jump.
	succ := func(k int) (next []int, all bool) {
		in := body[k]
		fallThrough := in.op != "RET" && in.op != "JMP" && in.op != "UD2" &&
			!(in.op == "CALL" && noReturnRE.MatchString(in.args))
		if fallThrough && k+1 < len(body) {
			next = append(next, k+1)
		}
		if strings.HasPrefix(in.op, "J") {
			if t, err := strconv.Atoi(in.args); err == nil {
				if j, ok := at[t]; ok {
					next = append(next, j)
				}
			} else if in.op == "JMP" && !strings.Contains(in.args, "(SB)") {
				all = true
			}
		}
		return next, all
	}
	dirtyIn := make([]bool, len(body)) // can the state be dirty before body[k]
	seen := make([]bool, len(body))
	work := []int{}
	if len(body) > 0 {
		seen[0] = true
		work = append(work, 0)
	}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		out := dirtyIn[k]
		switch body[k].effect() {
		case dirties:
			out = true
		case cleans:
			out = false
		}
		next, all := succ(k)
		if all {
			next = next[:0]
			for j := range body {
				next = append(next, j)
			}
		}
		for _, j := range next {
			if !seen[j] || (out && !dirtyIn[j]) {
				seen[j] = true
				dirtyIn[j] = dirtyIn[j] || out
				work = append(work, j)
			}
		}
	}
	var found []Finding
	for k, in := range body {
		switch in.effect() {
		case dirties:
			fn.Wide = true
		case cleans:
			fn.VZeroUpper++
		}
		if dirtyIn[k] {
			if why := in.fault(); why != "" {
				found = append(found, Finding{Func: fn.Name, Pos: in.pos, Instr: strings.TrimSpace(in.op + " " + in.args), Why: why})
			}
		}
	}
	return found
}
