package vfloat

import (
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/arithtest"
)

// TestConformance: the vprec formats meet the operation set's contract to
// their precision (P bits rounding to nearest, P-1 rounding toward zero or
// stochastically); vprec:53:e11 is binary64 bit for bit, without
// subnormals (the formats flush them to zero).
func TestConformance(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  arithtest.Options
	}{
		{"vprec:24", arithtest.Options{Bits: 24}},
		{"vprec:53:e11", arithtest.Options{FlushSubnormals: true}},
		{"vprec:40:e11:rz", arithtest.Options{Bits: 39}},
		{"vprec:64:e15:sr=3", arithtest.Options{Bits: 63}},
		{"vprec:113", arithtest.Options{Bits: 113}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := arith.Lookup(c.name)
			if err != nil {
				t.Fatal(err)
			}
			arithtest.Run(t, b.Impl.(arith.Arith[V]), c.opt)
		})
	}
}
