package falcon

import (
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/arith/vfloat"
)

// The tests run the bundled backends by name. Package valuetype registers
// their value types in a program, but an internal test cannot import it
// (it imports this package), so the tests register them here with the
// consumers they reach, as valuetype's init does.
//
// (Direct calls, not a generic helper: monogen would copy an unexported
// generic function into the generated test files.)
func init() {
	RegisterValueType[float64, native.Arith]()
	RegisterValueType[float64, arith.Arith[float64]]()
	RegisterValueType[emu64.FPR, arith.Arith[emu64.FPR]]()
	RegisterValueType[triword.TW, arith.Arith[triword.TW]]()
	RegisterValueType[ddouble.DD, arith.Arith[ddouble.DD]]()
	RegisterValueType[*big.Float, arith.Arith[*big.Float]]()
	RegisterValueType[vfloat.V, arith.Arith[vfloat.V]]()
}
