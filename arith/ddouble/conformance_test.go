package ddouble

import (
	"testing"

	"github.com/fprlab/fprlab/arith/arithtest"
)

// TestConformance: the double words meet the operation set's contract to
// 102 bits, the weakest of the package's proven bounds (division's
// 15u^2 + 56u^3, u = 2^-53).
func TestConformance(t *testing.T) { arithtest.Run(t, dd, arithtest.Options{Bits: 102}) }
