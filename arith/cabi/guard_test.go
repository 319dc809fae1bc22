package cabi_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
)

// overrunPlugin loads testdata/overrun.c and, until the test ends,
// appends what reaches cabi.Fail to *got instead of ending the process.
func overrunPlugin(t *testing.T, got *[]error) (name string, a cabi.Arith8) {
	name = "so:" + plugin(t, "testdata/overrun.c")
	prev := cabi.Fail
	cabi.Fail = func(err error) { *got = append(*got, err) }
	t.Cleanup(func() { cabi.Fail = prev })
	return name, lookup(t, name).Impl.(cabi.Arith8)
}

// TestPluginOverrunStops: a plugin function writing past a block fprlab
// handed it -- a result one value too far inside the 32-byte block, past
// the block, past a decode, past a batch's output array -- reaches
// cabi.Fail as an *OverrunError naming the function and the block, and
// the operation's result is not the plugin's (the same calls on other
// operands are clean).
func TestPluginOverrunStops(t *testing.T) {
	var got []error
	name, a := overrunPlugin(t, &got)
	x, y, bad := a.FromFloat64(3), a.FromFloat64(5), a.FromFloat64(7777)
	if a.Float64(a.Add(x, y)) != 8 || a.Float64(a.Mul(x, y)) != 15 || cabi.Decode(a, x) != nil {
		t.Fatal("clean calls of the overrun plugin do not compute")
	}
	dst := make([]cabi.Value8, 5)
	a.MulN(dst, []cabi.Value8{x, x, x, x, x}, []cabi.Value8{y, y, y, y, y})
	if len(got) != 0 || a.Float64(dst[4]) != 15 {
		t.Fatalf("clean calls: %v, %g", got, a.Float64(dst[4]))
	}
	cases := []struct {
		name string
		call func() error
		want string
	}{
		{"add", func() error { a.Add(bad, y); return nil }, "fprlab_add wrote past its output of value_size 8 bytes"},
		{"mul", func() error { a.Mul(bad, y); return nil }, "fprlab_mul wrote past its output"},
		{"decode", func() error { return cabi.Decode(a, bad) }, "fprlab_decode wrote past its output (struct fprlab_parts)"},
		{"mul_n", func() error {
			a.MulN(dst[:3], []cabi.Value8{bad, x, x}, []cabi.Value8{y, y, y})
			return nil
		}, "fprlab_mul_n wrote past its output array"},
	}
	for _, c := range cases {
		got = nil
		err := c.call()
		if err != nil {
			got = append(got, err)
		}
		var oe *cabi.OverrunError
		if len(got) != 1 || !errors.As(got[0], &oe) || oe.Backend != name || !strings.Contains(got[0].Error(), c.want) {
			t.Errorf("%s: errors %v, want one OverrunError containing %q", c.name, got, c.want)
		}
	}
	if a.Float64(dst[0]) != 0 {
		t.Errorf("the overrunning batch left %g, want the zero value", a.Float64(dst[0]))
	}
}

// TestPluginRunTextGuarded: fprlab_run is handed a copy of the program
// text: a plugin writing into that read-only text, or one byte past it,
// stops the run with an *OverrunError naming fprlab_run and the text,
// and the Program itself -- which every later signature runs -- is left
// as it was, so the next clean run computes the same.
func TestPluginRunTextGuarded(t *testing.T) {
	var got []error
	_, a := overrunPlugin(t, &got)
	p, err := arith.NewProgram([]arith.Insn{{Op: arith.OpAdd, Dst: 2, A: 0, B: 1}, {Op: arith.OpMul, Dst: 3, A: 2, B: 1}})
	if err != nil {
		t.Fatal(err)
	}
	code := append([]byte(nil), p.Code()...)
	run := func(x float64) float64 {
		v := []cabi.Value8{a.FromFloat64(x), a.FromFloat64(5), {}, {}}
		a.Run(p, v, nil)
		return a.Float64(v[3])
	}
	if r := run(3); r != 40 || len(got) != 0 {
		t.Fatalf("a clean run: (3+5)*5 = %g, errors %v", r, got)
	}
	for x, want := range map[float64]string{
		7777: "fprlab_run wrote into its program text, which it is given read-only",
		7778: "fprlab_run wrote past its program text",
	} {
		got = nil
		run(x)
		var oe *cabi.OverrunError
		if len(got) != 1 || !errors.As(got[0], &oe) || !strings.Contains(got[0].Error(), want) {
			t.Errorf("first register %g: errors %v, want one OverrunError containing %q", x, got, want)
		}
		if !bytes.Equal(p.Code(), code) {
			t.Fatalf("first register %g: the plugin changed the Program's own text", x)
		}
	}
	got = nil
	if r := run(3); r != 40 || len(got) != 0 {
		t.Errorf("a clean run after the overruns: %g, errors %v", r, got)
	}
}
