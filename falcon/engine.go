package falcon

import (
	"fmt"
	"math/big"
	"sync"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/arith/vfloat"
)

// The native, emu64 and triword instances of the generic code, written by a
// generator so that the generic code stays the only source (see
// internal/monogen).
//
//go:generate go run ./internal/monogen

// engine runs Falcon's floating-point algorithms over one backend. The
// generic code is instantiated once per arithmetic by newEngine; callers
// that choose backends by name at run time hold an engine.
//
// The methods are grouped by phase: signEngine (sign.go) and keygenEngine
// (keygen.go).
type engine interface {
	signEngine
	keygenEngine
	backend() arith.Backend
}

// engineOf is the engine for backend value type F with arithmetic A, and
// the observer (nil for none) that sees its runs.
type engineOf[F any, A arith.Arith[F]] struct {
	a   A
	b   arith.Backend
	obs Observer[F]
	acc Acceptance // nil: the reference's BerExp
}

func (e *engineOf[F, A]) backend() arith.Backend { return e.b }

// Instance is an arithmetic with Falcon instantiated for it: the open entry
// point of the package. Instantiate puts one in a Backend's Impl, and every
// function of the package that takes a Backend (Sign, Keygen,
// ExpandPrivateKey, the KAT flow, ...) then runs the generic code with
// F and A as given -- for any value type, registered or not -- and reports
// to the Instance's observer. An Instance is also an arith.Arith[F] (it
// forwards to A), so other tools can use the same Backend.
type Instance[F any, A arith.Arith[F]] struct {
	arith.Forward[F]
	a   A
	obs Observer[F]
	acc Acceptance // see WithAcceptance
}

// Instantiate returns b with its Impl replaced by an Instance of a with
// observer obs (nil for none). b's name, bits and description are kept.
func Instantiate[F any, A arith.Arith[F]](b arith.Backend, a A, obs Observer[F]) arith.Backend {
	b.Impl = &Instance[F, A]{Forward: arith.Forward[F]{Inner: a}, a: a, obs: obs}
	return b
}

func (in *Instance[F, A]) engine(b arith.Backend) engine {
	return &engineOf[F, A]{a: in.a, b: b, obs: in.obs, acc: in.acc}
}

// instantiated is implemented by *Instance.
type instantiated interface {
	engine(b arith.Backend) engine
}

// valueTypes maps a backend's Impl to an engine, one entry per value type
// registered with RegisterValueType.
var (
	valueTypesMu sync.RWMutex
	valueTypes   []func(b arith.Backend) (engine, bool)
)

// RegisterValueType makes backends whose Impl is an arith.Arith[F] usable
// by name: newEngine instantiates the generic code for F when it meets one.
// The value types of the bundled backends are registered by this package;
// a backend with another value type registers its type once (or is used
// through Instantiate).
func RegisterValueType[F any]() {
	valueTypesMu.Lock()
	defer valueTypesMu.Unlock()
	valueTypes = append(valueTypes, func(b arith.Backend) (engine, bool) {
		a, ok := b.Impl.(arith.Arith[F])
		if !ok {
			return nil, false
		}
		return &engineOf[F, arith.Arith[F]]{a: a, b: b}, true
	})
}

func init() {
	RegisterValueType[float64]()
	RegisterValueType[emu64.FPR]()
	RegisterValueType[*big.Float]()
	RegisterValueType[triword.TW]()
	RegisterValueType[ddouble.DD]()
	RegisterValueType[vfloat.V]()
}

// newEngine is the one place where a Backend becomes an engine: an
// Instance brings its own instantiation; the bundled native, emu64 and
// triword arithmetics (exactly those types) get the generated copies of the
// generic code (zz_native_gen.go, zz_emu64_gen.go, zz_triword_gen.go),
// whose arithmetic calls are direct and can inline; any other backend runs
// the generic code instantiated for its registered value type (a wrapper
// around native, such as the operation counter, is an Arith[float64] and
// runs the generic code).
func newEngine(b arith.Backend) (engine, error) {
	switch a := b.Impl.(type) {
	case instantiated:
		return a.engine(b), nil
	case native.Arith:
		return &engineOfNative{a: a, b: b}, nil
	case emu64.Arith:
		return &engineOfEmu64{a: a, b: b}, nil
	case triword.Arith:
		return &engineOfTriword{a: a, b: b}, nil
	}
	valueTypesMu.RLock()
	defer valueTypesMu.RUnlock()
	for _, vt := range valueTypes {
		if e, ok := vt(b); ok {
			return e, nil
		}
	}
	return nil, fmt.Errorf("falcon: backend %q has value type %T, for which Falcon is not instantiated (register it with RegisterValueType or use Instantiate)", b.Name, b.Impl)
}
