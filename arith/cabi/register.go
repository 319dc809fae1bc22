package cabi

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
)

// init registers the family "so" with package arith. The plugins' value
// types (Value, Value8) reach the consumers of backends (Falcon, the
// shadow, the analyses) through package valuetype, the program's
// composition root: a backend registers nothing above package arith.
func init() {
	arith.RegisterFamily(arith.Family{
		Name:  "so",
		Usage: "so:PATH[@CONFIG]",
		Description: fmt.Sprintf("an arithmetic from a shared library implementing plugin/fprlab_arith.h (ABI version %d; C, C++, a Verilator model), "+
			"loaded without cgo; CONFIG goes to its fprlab_init", ABIVersion),
		New: func(arg string) (arith.Backend, error) {
			a, err := Open(arg)
			if err != nil {
				return arith.Backend{}, err
			}
			return a.Backend("so:" + arg), nil
		},
	})
}

// Backend returns a as a backend named name, over Value8 (an Arith8) when
// the plugin's values take at most 8 bytes, else over Value.
func (a ArithOf[V]) Backend(name string) arith.Backend {
	desc := fmt.Sprintf("plugin %q (%s)", a.info.name, a.path)
	if a.info.description != "" {
		desc += ": " + a.info.description
	}
	b := arith.Backend{Name: name, Bits: int(a.info.bits), ExpBits: int(a.info.expBits), Description: desc, Impl: Arith(a)}
	if a.info.valueSize <= 8 {
		b.Impl = Arith8(a)
	}
	return b
}
