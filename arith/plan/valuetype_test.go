package plan

import (
	"math/big"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	_ "github.com/fprlab/fprlab/arith/oracle"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/arith/vfloat"
	"github.com/fprlab/fprlab/falcon"
)

// The tests run plans and the bundled backends by name through Falcon and
// the shadow. Package valuetype registers their value types in a program,
// but this package's tests cannot import it (it links this package through
// arith/backends), so they register them here with the consumers they
// reach, as valuetype's init does.
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
	shadow.RegisterValueType[F, A]()
}
