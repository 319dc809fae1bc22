package falcon

import (
	"fmt"
	"math/big"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/triword"
)

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
// type has one case.
func newEngine(b arith.Backend) (engine, error) {
	switch a := b.Impl.(type) {
	case arith.Arith[float64]:
		return &engineOf[float64, arith.Arith[float64]]{a: a, b: b}, nil
	case arith.Arith[emu64.FPR]:
		return &engineOf[emu64.FPR, arith.Arith[emu64.FPR]]{a: a, b: b}, nil
	case arith.Arith[*big.Float]:
		return &engineOf[*big.Float, arith.Arith[*big.Float]]{a: a, b: b}, nil
	case arith.Arith[triword.TW]:
		return &engineOf[triword.TW, arith.Arith[triword.TW]]{a: a, b: b}, nil
	}
	return nil, fmt.Errorf("falcon: backend %q has value type %T, which Falcon is not instantiated for", b.Name, b.Impl)
}
