package emu64_test

import (
	"testing"

	"github.com/fprlab/fprlab/arith/arithtest"
	"github.com/fprlab/fprlab/arith/emu64"
)

// TestConformance: the emulation is binary64 with the reference's
// emulated-fpr edge cases (subnormal results flush to zero; -0 orders
// below +0 and floors to -1).
func TestConformance(t *testing.T) {
	arithtest.Run(t, emu64.Arith{}, arithtest.Options{FlushSubnormals: true, EmulatedZero: true})
}
