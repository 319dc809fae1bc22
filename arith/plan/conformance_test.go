package plan

import (
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/arithtest"
	"github.com/fprlab/fprlab/arith/vfloat"
)

// TestConformance: a uniform plan meets the contract of its format (all=
// binary64 is binary64 without subnormals, as the vprec formats are), and
// so does a plan with a foreign stage (bigref, foreign_test.go) outside
// that stage.
func TestConformance(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  arithtest.Options
	}{
		{"plan:all=binary64", arithtest.Options{FlushSubnormals: true}},
		{"plan:all=vprec:40:e11:rz", arithtest.Options{Bits: 39}},
		{"plan:ldl=bigref:vprecbig:30:e11:rz+all=vprec:53:e11", arithtest.Options{FlushSubnormals: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := arith.Lookup(c.name)
			if err != nil {
				t.Fatal(err)
			}
			arithtest.Run(t, b.Impl.(arith.Arith[vfloat.V]), c.opt)
		})
	}
}
