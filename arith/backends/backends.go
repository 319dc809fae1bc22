// Package backends links every arithmetic backend into a program: importing
// it for its side effects registers each backend and backend family by name
// with package arith. It links backends only; package valuetype, which
// imports it, also instantiates the consumers (Falcon, the shadow, the
// analyses) for the backends' value types.
package backends

import (
	_ "github.com/fprlab/fprlab/arith/cabi"      // so:PATH[@CONFIG], arithmetic plugins
	_ "github.com/fprlab/fprlab/arith/ddouble"   // dd
	_ "github.com/fprlab/fprlab/arith/emu64"     // emu64
	_ "github.com/fprlab/fprlab/arith/native"    // native
	_ "github.com/fprlab/fprlab/arith/nativefma" // native-fma
	_ "github.com/fprlab/fprlab/arith/oracle"    // oracle, oracle:P, vprec:P (big.Float), vprecbig:P
	_ "github.com/fprlab/fprlab/arith/plan"      // plan:STAGE=FORMAT+...
	_ "github.com/fprlab/fprlab/arith/triword"   // triword, triword-acc
	_ "github.com/fprlab/fprlab/arith/vfloat"    // vprec:P, the fast implementation of the formats
)
