package cabi_test

import (
	"errors"
	"math/rand/v2"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
)

// TestHeaderOpcodes: enum fprlab_opcode of plugin/fprlab_arith.h numbers
// each operation of programs as fprlab does (arith.Op), and names every
// one of them.
func TestHeaderOpcodes(t *testing.T) {
	src, err := os.ReadFile("../../plugin/fprlab_arith.h")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]arith.Op{
		"OF_INT64": arith.OpOf, "ADD": arith.OpAdd, "SUB": arith.OpSub, "MUL": arith.OpMul,
		"SQR": arith.OpSqr, "NEG": arith.OpNeg, "HALF": arith.OpHalf, "INV": arith.OpInv,
		"SQRT": arith.OpSqrt, "RINT": arith.OpRint, "FLOOR": arith.OpFloor, "TRUNC": arith.OpTrunc,
		"EXPM_P63": arith.OpExpmP63,
	}
	got := map[string]int{}
	for _, m := range regexp.MustCompile(`(?m)^\s*FPRLAB_OP_(\w+) = (\d+),?$`).FindAllStringSubmatch(string(src), -1) {
		got[m[1]], _ = strconv.Atoi(m[2])
	}
	if len(got) != len(want) {
		t.Errorf("the header numbers %d opcodes, want %d: %v", len(got), len(want), got)
	}
	for name, op := range want {
		if v, ok := got[name]; !ok || v != int(op) {
			t.Errorf("FPRLAB_OP_%s = %d (present %v), want %d", name, v, ok, int(op))
		}
		if _, err := arith.NewProgram([]arith.Insn{{Op: op, Dst: 9, A: 0, B: 1}}); err != nil {
			t.Errorf("%v: %v", op, err)
		}
	}
}

// randomProgram returns a random program over every operation of
// programs: value registers 0-3 and integer registers 0-1 are inputs
// (with x in [0, ln 2) in value register 2 and ccs in (0, 1] in 3 for
// ExpmP63), the others results. Square roots take squares, so that no
// operation leaves its domain.
func randomProgram(rng *rand.Rand, n int) *arith.Program {
	vals, ints := []uint8{0, 1}, []uint8{0, 1}
	nv, ni := uint8(4), uint8(2)
	pick := func(rs []uint8) uint8 { return rs[rng.IntN(len(rs))] }
	var insns []arith.Insn
	value := func(op arith.Op, a, b uint8) {
		insns = append(insns, arith.Insn{Op: op, Dst: nv, A: a, B: b})
		vals = append(vals, nv)
		nv++
	}
	integer := func(op arith.Op, a, b uint8) {
		insns = append(insns, arith.Insn{Op: op, Dst: ni, A: a, B: b})
		ints = append(ints, ni)
		ni++
	}
	for range n {
		switch rng.IntN(12) {
		case 0:
			value(arith.OpAdd, pick(vals), pick(vals))
		case 1:
			value(arith.OpSub, pick(vals), pick(vals))
		case 2:
			value(arith.OpMul, pick(vals), pick(vals))
		case 3:
			value(arith.OpSqr, pick(vals), 0)
			value(arith.OpSqrt, nv-1, 0)
		case 4:
			value(arith.OpNeg, pick(vals), 0)
		case 5:
			value(arith.OpHalf, pick(vals), 0)
		case 6:
			value(arith.OpInv, pick(vals), 0)
		case 7:
			value(arith.OpOf, pick(ints), 0)
		case 8:
			integer(arith.OpRint, pick(vals), 0)
		case 9:
			integer(arith.OpFloor, pick(vals), 0)
		case 10:
			integer(arith.OpTrunc, pick(vals), 0)
		case 11:
			integer(arith.OpExpmP63, 2, 3)
		}
	}
	return arith.MustProgram(insns...)
}

// runBoth runs p through a's Run and through RunScalar (one scalar call
// per operation) on the same random inputs and compares every register
// bit for bit.
func runBoth[V any](t *testing.T, a interface {
	arith.Arith[V]
	arith.Runner[V]
}, rng *rand.Rand, p *arith.Program, bits func(V) []uint64) {
	t.Helper()
	nv, ni := p.Registers()
	v, iv := make([]V, max(nv, 4)), make([]int64, max(ni, 2))
	v[0] = a.FromFloat64((rng.Float64() - 0.5) * 1e4)
	v[1] = a.FromFloat64(rng.NormFloat64())
	v[2] = a.FromFloat64(rng.Float64() * 0.69)
	v[3] = a.FromFloat64(1 - rng.Float64()*0.5)
	iv[0], iv[1] = rng.Int64N(1<<40)-1<<39, int64(rng.Int32())
	vs, is := append([]V(nil), v...), append([]int64(nil), iv...)
	a.Run(p, v, iv)
	arith.RunScalar(a, p, vs, is)
	for r := range v {
		if g, w := bits(v[r]), bits(vs[r]); !slicesEqual(g, w) {
			t.Fatalf("value register %d: Run %x, scalar %x\nprogram %v", r, g, w, p.Insns())
		}
	}
	for r := range iv {
		if iv[r] != is[r] {
			t.Fatalf("integer register %d: Run %d, scalar %d\nprogram %v", r, iv[r], is[r], p.Insns())
		}
	}
}

func slicesEqual(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestRunMatchesScalar: fprlab_run (the header's interpreter) computes
// random programs bit for bit as the scalar functions do, in one call per
// program -- over the double plugin (all functions), over trunc.c (no
// fprlab_expm_p63, no fprlab_sqr: fprlab computes ExpmP63 between calls,
// the interpreter squares by fprlab_mul) and over 24-byte values
// (testdata/wide24.c, a Value rather than a Value8).
func TestRunMatchesScalar(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	w8 := func(v cabi.Value8) []uint64 { return []uint64(cabi.Words8(v)) }
	w32 := func(v cabi.Value) []uint64 { return cabi.Words(v) }
	double := lookup(t, "so:"+plugin(t, "../../examples/double.c")).Impl.(cabi.Arith8)
	trunc := lookup(t, "so:"+plugin(t, "../../examples/trunc.c")+"@40").Impl.(cabi.Arith8)
	wide := lookup(t, "so:"+plugin(t, "testdata/wide24.c")).Impl.(cabi.Arith)
	for _, a := range []cabi.Arith8{double, trunc} {
		if !a.RunsPrograms() {
			t.Fatalf("%s exports no fprlab_run", a.Name())
		}
	}
	for k := range 300 {
		p := randomProgram(rng, 1+k%40)
		nv, ni := p.Registers()
		v, iv := make([]cabi.Value8, max(nv, 4)), make([]int64, max(ni, 2))
		for i := range 4 {
			v[i] = double.FromFloat64(float64(i) * 0.1)
		}
		counts := map[string]int{}
		stop := cabi.CountCalls(counts)
		double.Run(p, v, iv)
		stop()
		if counts["run"] != 1 || len(counts) != 1 {
			t.Fatalf("one program over double.c made the calls %v", counts)
		}
		runBoth(t, double, rng, p, w8)
		runBoth(t, trunc, rng, p, w8)
		runBoth(t, wide, rng, p, w32)
	}
}

// TestWidePluginAsNative: a plugin whose values are 24-byte blocks
// (testdata/wide24.c: doubles with a magic word and a check word, every
// block checked by every function) runs over Value and gives native's
// signatures and shadow records bit for bit.
func TestWidePluginAsNative(t *testing.T) {
	b := lookup(t, "so:"+plugin(t, "testdata/wide24.c"))
	if _, ok := b.Impl.(cabi.Arith); !ok {
		t.Fatalf("a 24-byte plugin's backend is a %T, want a cabi.Arith", b.Impl)
	}
	nb := lookup(t, "native")
	sameSignatures(t, b, nb, 9, 3, false)
	sameRecords(t, b, nb, "emu64", 1, 0)
}

// TestRunErrorReported: a status code from inside fprlab_run reaches
// cabi.Fail as an *OpError naming fprlab_run, the code, and the failing
// instruction's index and operation; the program's results are zero
// values.
func TestRunErrorReported(t *testing.T) {
	name := "so:" + plugin(t, "testdata/failing.c")
	a := lookup(t, name).Impl.(cabi.Arith8)
	var got error
	prev := cabi.Fail
	cabi.Fail = func(err error) { got = err }
	defer func() { cabi.Fail = prev }()
	p := arith.MustProgram(
		arith.Insn{Op: arith.OpAdd, Dst: 2, A: 0, B: 1},
		arith.Insn{Op: arith.OpSqrt, Dst: 3, A: 2},
		arith.Insn{Op: arith.OpMul, Dst: 4, A: 3, B: 3},
	)
	v := []cabi.Value8{a.FromFloat64(1), a.FromFloat64(-3), {}, {}, {}}
	a.Run(p, v, nil)
	var oe *cabi.OpError
	if !errors.As(got, &oe) || oe.Op != "run" || oe.Code != 2 || oe.Insn != 1 || oe.InsnOp != "sqrt" {
		t.Fatalf("error %v (%#v), want an OpError of run, code 2, at instruction 1 (sqrt)", got, oe)
	}
	if !strings.Contains(got.Error(), "fprlab_run returned 2 (FPRLAB_ERR_DOMAIN: an operation undefined on its operands) at instruction 1 (sqrt)") {
		t.Errorf("message %q", got)
	}
	for r := 2; r < 5; r++ {
		if a.Float64(v[r]) != 0 {
			t.Errorf("register %d = %g after the failure, want the zero value", r, a.Float64(v[r]))
		}
	}
}
