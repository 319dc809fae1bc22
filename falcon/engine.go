package falcon

import (
	"fmt"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
)

// The native instance of the generic code, written by a generator so that
// the generic code stays the only source (see internal/monogen).
//
//go:generate go run ./internal/monogen

// engine runs Falcon's floating-point algorithms over one backend. The
// generic code is instantiated once per backend value type by newEngine;
// callers that choose backends by name at run time hold an engine.
//
// The methods are grouped by phase: signEngine (sign.go) and keygenEngine
// (keygen.go).
type engine interface {
	signEngine
	keygenEngine
	backend() arith.Backend
}

// engineOf is the engine for backend value type F with arithmetic A.
type engineOf[F any, A arith.Arith[F]] struct {
	a A
	b arith.Backend
}

func (e *engineOf[F, A]) backend() arith.Backend { return e.b }

// newEngine recovers the backend's value type with a type switch on its
// Impl and instantiates the generic Falcon code for it. Each backend value
// type has one case. The native backend itself gets the generated copy of
// the generic code (zz_native_gen.go), whose arithmetic calls inline; any
// other Arith[float64] (a wrapper) runs the generic code.
func newEngine(b arith.Backend) (engine, error) {
	switch a := b.Impl.(type) {
	case native.Arith:
		return &engineOfNative{a: a, b: b}, nil
	case arith.Arith[float64]:
		return &engineOf[float64, arith.Arith[float64]]{a: a, b: b}, nil
	case arith.Arith[emu64.FPR]:
		return &engineOf[emu64.FPR, arith.Arith[emu64.FPR]]{a: a, b: b}, nil
	case arith.Arith[*big.Float]:
		return &engineOf[*big.Float, arith.Arith[*big.Float]]{a: a, b: b}, nil
	case arith.Arith[triword.TW]:
		return &engineOf[triword.TW, arith.Arith[triword.TW]]{a: a, b: b}, nil
	case arith.Arith[ddouble.DD]:
		return &engineOf[ddouble.DD, arith.Arith[ddouble.DD]]{a: a, b: b}, nil
	}
	return nil, fmt.Errorf("falcon: backend %q has value type %T, which Falcon is not instantiated for", b.Name, b.Impl)
}
