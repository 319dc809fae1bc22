package oracle

import (
	"math/big"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/arithtest"
)

// TestConformance: the oracle at several precisions and the big.Float
// reference of the vprec formats meet the operation set's contract to
// their precision: P bits rounding to nearest, P-1 rounding toward zero or
// stochastically; vprecbig:53:e11 is binary64 bit for bit, without
// subnormals (the vprec formats flush them to zero).
func TestConformance(t *testing.T) {
	for _, c := range []struct {
		name string
		opt  arithtest.Options
	}{
		{"oracle", arithtest.Options{Bits: 256}},
		{"oracle:64", arithtest.Options{Bits: 64}},
		{"vprecbig:53:e11", arithtest.Options{FlushSubnormals: true}},
		{"vprecbig:40", arithtest.Options{Bits: 40}},
		{"vprecbig:30:e11:rz", arithtest.Options{Bits: 29}},
		{"vprecbig:64:e15:sr=3", arithtest.Options{Bits: 63}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := arith.Lookup(c.name)
			if err != nil {
				t.Fatal(err)
			}
			arithtest.Run(t, b.Impl.(arith.Arith[*big.Float]), c.opt)
		})
	}
}
