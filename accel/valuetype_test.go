package accel

import (
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/arith/vfloat"
	"github.com/fprlab/fprlab/falcon"
)

// The tests run the bundled backends by name. Package valuetype registers
// their value types in a program, but an internal test cannot import it
// (it imports this package), so the tests register them here with the
// consumers they reach, as valuetype's init does.
func init() {
	registerForTest[float64, native.Arith]()
	registerForTest[float64, arith.Arith[float64]]()
	registerForTest[emu64.FPR, arith.Arith[emu64.FPR]]()
	registerForTest[triword.TW, arith.Arith[triword.TW]]()
	registerForTest[ddouble.DD, arith.Arith[ddouble.DD]]()
	registerForTest[*big.Float, arith.Arith[*big.Float]]()
	registerForTest[vfloat.V, arith.Arith[vfloat.V]]()
}

func registerForTest[F any, A arith.Arith[F]]() {
	falcon.RegisterValueType[F, A]()
	RegisterValueType[F, A]()
}
