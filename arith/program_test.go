package arith_test

import (
	"math"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// TestNewProgramChecks: a program is refused for an operation programs do
// not hold, a register written twice, or a register written after an
// instruction read it (an input overwritten, or a result aliasing its
// operand); a valid one reports the registers it addresses.
func TestNewProgramChecks(t *testing.T) {
	for _, c := range []struct {
		name  string
		insns []arith.Insn
		want  string
	}{
		{"div", []arith.Insn{{Op: arith.OpDiv, Dst: 2, A: 0, B: 1}}, "div is not an operation of programs"},
		{"lt", []arith.Insn{{Op: arith.OpLt, Dst: 2, A: 0, B: 1}}, "lt is not an operation of programs"},
		{"twice", []arith.Insn{{Op: arith.OpAdd, Dst: 2, A: 0, B: 1}, {Op: arith.OpMul, Dst: 2, A: 0, B: 1}}, "register 2 written twice"},
		{"input overwritten", []arith.Insn{{Op: arith.OpAdd, Dst: 2, A: 0, B: 1}, {Op: arith.OpNeg, Dst: 0, A: 2}}, "register 0 written after it is read"},
		{"aliasing", []arith.Insn{{Op: arith.OpSqr, Dst: 3, A: 3}}, "register 3 written after it is read"},
		{"integer twice", []arith.Insn{{Op: arith.OpRint, Dst: 0, A: 0}, {Op: arith.OpFloor, Dst: 0, A: 0}}, "register 0 written twice"},
	} {
		_, err := arith.NewProgram(c.insns)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	// Value and integer registers are separate files: value 0 and integer
	// 0 are different registers.
	p, err := arith.NewProgram([]arith.Insn{
		{Op: arith.OpTrunc, Dst: 0, A: 0},
		{Op: arith.OpOf, Dst: 5, A: 0},
		{Op: arith.OpExpmP63, Dst: 3, A: 5, B: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if nv, ni := p.Registers(); nv != 6 || ni != 4 {
		t.Errorf("registers %d, %d, want 6 values and 4 integers", nv, ni)
	}
}

// TestRunScalar: each instruction computes its operation (values worked
// out by hand), Of converts the low 32 bits of its register as a signed
// integer, and the results land in the registers the instructions name.
func TestRunScalar(t *testing.T) {
	p := arith.MustProgram(
		arith.Insn{Op: arith.OpAdd, Dst: 3, A: 0, B: 1}, // 1.5 + 2.25
		arith.Insn{Op: arith.OpSub, Dst: 4, A: 0, B: 1}, // 1.5 - 2.25
		arith.Insn{Op: arith.OpMul, Dst: 5, A: 3, B: 2}, // 3.75 * -4
		arith.Insn{Op: arith.OpSqr, Dst: 6, A: 4},       // 0.5625
		arith.Insn{Op: arith.OpNeg, Dst: 7, A: 5},       // 15
		arith.Insn{Op: arith.OpHalf, Dst: 8, A: 7},      // 7.5
		arith.Insn{Op: arith.OpInv, Dst: 9, A: 2},       // -0.25
		arith.Insn{Op: arith.OpSqrt, Dst: 10, A: 6},     // 0.75
		arith.Insn{Op: arith.OpOf, Dst: 11, A: 0},       // int32 of 2^32 + 7
		arith.Insn{Op: arith.OpOf, Dst: 12, A: 1},       // int32 of 2^31
		arith.Insn{Op: arith.OpRint, Dst: 2, A: 8},      // 7.5 -> 8 (ties to even)
		arith.Insn{Op: arith.OpFloor, Dst: 3, A: 4},     // -0.75 -> -1
		arith.Insn{Op: arith.OpTrunc, Dst: 4, A: 4},     // -0.75 -> 0
		arith.Insn{Op: arith.OpExpmP63, Dst: 5, A: 13, B: 14},
	)
	v := make([]float64, 15)
	v[0], v[1], v[2] = 1.5, 2.25, -4
	v[13], v[14] = 0, 1 // ExpmP63(0, 1): 2^63 exp(0), which native gives as 2^63 - 1
	iv := make([]int64, 6)
	iv[0], iv[1] = 1<<32+7, 1<<31
	var a native.Arith
	arith.RunScalar(a, p, v, iv)
	for r, want := range map[int]float64{3: 3.75, 4: -0.75, 5: -15, 6: 0.5625, 7: 15, 8: 7.5, 9: -0.25, 10: 0.75, 11: 7, 12: -(1 << 31)} {
		if math.Float64bits(v[r]) != math.Float64bits(want) {
			t.Errorf("value register %d = %v, want %v", r, v[r], want)
		}
	}
	if iv[2] != 8 || iv[3] != -1 || iv[4] != 0 {
		t.Errorf("rint, floor, trunc = %d, %d, %d; want 8, -1, 0", iv[2], iv[3], iv[4])
	}
	if want := a.ExpmP63(0, 1); uint64(iv[5]) != want {
		t.Errorf("expm_p63 = %d, want native's %d", uint64(iv[5]), want)
	}
}

// runsAll runs programs; declining runs them too but declines through
// RunsPrograms.
type (
	runsAll   struct{}
	declining struct{ runs bool }
)

func (runsAll) Run(*arith.Program, []float64, []int64)   {}
func (declining) Run(*arith.Program, []float64, []int64) {}
func (d declining) RunsPrograms() bool                   { return d.runs }

// TestRunnerOf: an arithmetic with Run is a Runner unless it declines
// with RunsPrograms; one without Run never is.
func TestRunnerOf(t *testing.T) {
	for _, c := range []struct {
		a    any
		want bool
	}{
		{runsAll{}, true},
		{declining{runs: true}, true},
		{declining{runs: false}, false},
		{struct{}{}, false},
	} {
		r, ok := arith.RunnerOf[float64](c.a)
		if ok != c.want || (r != nil) != c.want {
			t.Errorf("RunnerOf(%T%+v) = %v, %v; want %v", c.a, c.a, r, ok, c.want)
		}
	}
}
