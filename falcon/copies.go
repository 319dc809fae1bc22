package falcon

import (
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
)

// The native, emu64 and triword instances of the generic code, written by a
// generator so that the generic code stays the only source (see
// internal/monogen).
//
//go:generate go run ./internal/monogen

// The generated copies are the engines of exactly the arithmetic types they
// were written for, registered in the same table as the generic code
// (newEngine prefers an exact type): these are the arithmetics of
// monogen's instance table.
func init() {
	arith.Add(&engines, func(a native.Arith) func(arith.Backend) engine {
		return func(b arith.Backend) engine { return &engineOfNative{a: a, b: b} }
	})
	arith.Add(&engines, func(a emu64.Arith) func(arith.Backend) engine {
		return func(b arith.Backend) engine { return &engineOfEmu64{a: a, b: b} }
	})
	arith.Add(&engines, func(a triword.Arith) func(arith.Backend) engine {
		return func(b arith.Backend) engine {
			return triwordEngine{&engineOfTriword{a: a, b: b}, &engineOf[triword.TW, triword.Arith]{a: a, b: b}}
		}
	})
}

// triwordEngine signs with the generated triword copy, which holds no key
// generation: NTRUSolve needs values up to 2^+-341, beyond the binary32
// exponent range of triple-word limbs, so monogen omits it for triword
// and the generic code answers (its checkRange reports ErrKeygenRange,
// and solveNTRU runs it for tests that study where it fails).
type triwordEngine struct {
	*engineOfTriword
	keygenEngine
}
