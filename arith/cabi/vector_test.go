package cabi_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
)

// scalarOnly hides a backend's arith.Vector: the shadow's pair and
// Falcon then take their scalar paths over it.
type scalarOnly struct{ arith.Arith[cabi.Value8] }

// TestScalarPluginAsNative: a plugin without the vector functions (double.c
// with them renamed away) is called one value at a time, by fprlab's
// fallback, and still signs and measures as native; its calls are scalar
// ones only.
func TestScalarPluginAsNative(t *testing.T) {
	b := lookup(t, "so:"+plugin(t, "testdata/scalaronly.c"))
	if fs := b.Impl.(cabi.Arith8).VectorFunctions(); len(fs) != 0 {
		t.Fatalf("vector functions %v", fs)
	}
	if fs := lookup(t, "so:"+plugin(t, "../../examples/double.c")).Impl.(cabi.Arith8).VectorFunctions(); len(fs) != 8 {
		t.Fatalf("double.c exports the vector functions %v, want all 8", fs)
	}
	nb := lookup(t, "native")
	sameSignatures(t, b, nb, 9, 4, false)
	counts := map[string]int{}
	stop := cabi.CountCalls(counts)
	sameRecords(t, b, nb, "emu64", 1, 0)
	stop()
	for op, c := range counts {
		if strings.HasSuffix(op, "_n") {
			t.Errorf("%d calls of fprlab_%s", c, op)
		}
	}
	if counts["add"] == 0 {
		t.Errorf("no calls counted: %v", counts)
	}
}

// TestPairVectorRecords: the dd shadow's records over the double plugin
// are the same through the pair's batches (the plugin's arith.Vector) and
// through its scalar operations (the same plugin with arith.Vector
// hidden), bit for bit, and the batched run makes fewer calls.
func TestPairVectorRecords(t *testing.T) {
	b := lookup(t, "so:"+plugin(t, "../../examples/double.c"))
	s := b
	s.Impl = scalarOnly{b.Impl.(cabi.Arith8)}
	cfg := benchConfig()
	cfg.Signatures = 2
	calls := func(bk arith.Backend) ([]byte, int) {
		counts := map[string]int{}
		stop := cabi.CountCalls(counts)
		r := records(t, bk, cfg)
		stop()
		n := 0
		for _, c := range counts {
			n += c
		}
		return r, n
	}
	got, nv := calls(b)
	want, ns := calls(s)
	if string(got) != string(want) {
		t.Fatalf("records differ\nvector %.300s\nscalar %.300s", got, want)
	}
	if nv*4 > ns {
		t.Errorf("%d calls through the batches, %d without: want at most a quarter", nv, ns)
	}
	t.Logf("%d calls through the batches, %d without", nv, ns)
}

// TestVectorErrorReported: a status code from a vector function reaches
// cabi.Fail as an *OpError naming the function, the code and the element
// that failed (found by the scalar function); the batch's results are
// zero values. A vector function failing where its scalar function does
// not (a broken contract) is reported without an element.
func TestVectorErrorReported(t *testing.T) {
	name := "so:" + plugin(t, "testdata/failingvec.c")
	a := lookup(t, name).Impl.(cabi.Arith8)
	var got error
	prev := cabi.Fail
	cabi.Fail = func(err error) { got = err }
	defer func() { cabi.Fail = prev }()
	x, y, dst := make([]cabi.Value8, 8), make([]cabi.Value8, 8), make([]cabi.Value8, 8)
	for i := range x {
		x[i], y[i] = a.Of(int64(i+1)), a.Of(2)
	}
	a.MulN(dst, x, y)
	if got != nil || a.Float64(dst[7]) != 16 {
		t.Fatalf("8*2 = %g, error %v", a.Float64(dst[7]), got)
	}
	x[5] = a.Of(13)
	a.MulN(dst, x, y)
	var oe *cabi.OpError
	if !errors.As(got, &oe) || oe.Op != "mul_n" || oe.Code != 1 || oe.Element != 5 || oe.Len != 8 || oe.Backend != name {
		t.Fatalf("error %v (%#v), want an OpError of mul_n, code 1, element 5 of 8", got, oe)
	}
	if !strings.Contains(got.Error(), "fprlab_mul_n returned 1 (FPRLAB_ERR_RANGE: a value the format cannot represent) at element 5 of 8") {
		t.Errorf("message %q", got)
	}
	for i, v := range dst {
		if a.Float64(v) != 0 {
			t.Errorf("element %d of the failed batch is %g, want the zero value", i, a.Float64(v))
		}
	}
	got = nil
	a.AddN(dst, x, y)
	if !errors.As(got, &oe) || oe.Op != "add_n" || oe.Code != 5 || oe.Element != -1 {
		t.Fatalf("error %v, want an OpError of add_n, code 5, no element", got)
	}
	if !strings.Contains(got.Error(), "on a batch of 8 values (the scalar function fails on none of them)") {
		t.Errorf("message %q", got)
	}
}

// TestVectorAllocs: a batched call allocates nothing once its scratch is
// in the pool, whether it takes one call (fprlab_add_n) or, longer than a
// chunk, several.
func TestVectorAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's sync.Pool drops items")
	}
	a := lookup(t, "so:"+plugin(t, "../../examples/double.c")).Impl.(cabi.Arith8)
	for _, n := range []int{1, 256, 3000} {
		x, y, dst := make([]cabi.Value8, n), make([]cabi.Value8, n), make([]cabi.Value8, n)
		for i := range x {
			x[i], y[i] = a.Of(int64(i)), a.Of(3)
		}
		a.MulN(dst, x, y)
		if allocs := testing.AllocsPerRun(100, func() {
			a.MulN(dst, x, y)
			a.NegN(dst, dst)
		}); allocs != 0 {
			t.Errorf("n = %d: %v allocations per batch", n, allocs)
		}
		if a.Float64(dst[n-1]) != -3*float64(n-1) {
			t.Errorf("n = %d: last value %g", n, a.Float64(dst[n-1]))
		}
	}
}
