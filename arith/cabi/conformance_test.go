package cabi_test

import (
	"fmt"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/arithtest"
	"github.com/fprlab/fprlab/arith/cabi"
)

// runConformance runs the conformance suite over a loaded plugin, whatever
// the width of its values.
func runConformance(t *testing.T, b arith.Backend, opt arithtest.Options) {
	t.Helper()
	opt.Short = true // every operation is a C call (a guarded one under the race detector)
	switch a := b.Impl.(type) {
	case arith.Arith[cabi.Value8]:
		arithtest.Run(t, a, opt)
	case arith.Arith[cabi.Value]:
		arithtest.Run(t, a, opt)
	default:
		t.Fatalf("%s: implementation %T", b.Name, b.Impl)
	}
}

// TestConformance: the example plugins meet the operation set's contract:
// the host's double (examples/double.c) is IEEE 754 binary64, the P-bit
// truncating plugin (examples/trunc.c) rounds toward zero at P bits and,
// like the vprec formats, flushes subnormals.
func TestConformance(t *testing.T) {
	t.Run("double", func(t *testing.T) {
		runConformance(t, lookup(t, "so:"+plugin(t, "../../examples/double.c")), arithtest.Options{})
	})
	lib := plugin(t, "../../examples/trunc.c")
	for _, p := range []int{40, 24} {
		t.Run(fmt.Sprintf("trunc@%d", p), func(t *testing.T) {
			runConformance(t, lookup(t, fmt.Sprintf("so:%s@%d", lib, p)), arithtest.Options{Bits: p - 1})
		})
	}
}
