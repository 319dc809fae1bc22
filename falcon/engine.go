package falcon

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
)

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
	// The Instance's options (none for a registered backend: the
	// reference's BerExp, drawn samples).
	instanceOptions
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
	instanceOptions
}

// instanceOptions are the choices an Instance makes for the runs of its
// engine besides the arithmetic and the observer: they replace parts of
// SamplerZ (WithAcceptance, WithEdgeSamples).
type instanceOptions struct {
	acc  Acceptance  // see WithAcceptance
	edge edgeSamples // see WithEdgeSamples
}

// optionSetter is implemented by *Instance.
type optionSetter interface {
	withOptions(set func(*instanceOptions)) any
}

// withInstanceOption returns b with set applied to a copy of its
// Instance's options; what names the option in the error when b is no
// Instance.
func withInstanceOption(b arith.Backend, what string, set func(*instanceOptions)) (arith.Backend, error) {
	in, ok := b.Impl.(optionSetter)
	if !ok {
		return b, fmt.Errorf("falcon: backend %q is not instantiated (falcon.Instantiate): %s can only be set in an Instance", b.Name, what)
	}
	b.Impl = in.withOptions(set)
	return b, nil
}

func (in *Instance[F, A]) withOptions(set func(*instanceOptions)) any {
	c := *in
	set(&c.instanceOptions)
	return &c
}

// Instantiate returns b with its Impl replaced by an Instance of a with
// observer obs (nil for none). b's name, bits and description are kept.
func Instantiate[F any, A arith.Arith[F]](b arith.Backend, a A, obs Observer[F]) arith.Backend {
	b.Impl = &Instance[F, A]{Forward: arith.Forward[F]{Inner: a}, a: a, obs: obs}
	return b
}

func (in *Instance[F, A]) engine(b arith.Backend) engine {
	return &engineOf[F, A]{a: in.a, b: b, obs: in.obs, instanceOptions: in.instanceOptions}
}

// instantiated is implemented by *Instance.
type instantiated interface {
	engine(b arith.Backend) engine
}

// engines holds the engines of the registered arithmetic types: the
// generated copies for exactly their arithmetic (copies.go) and the generic
// code for every value type package valuetype registers.
var engines arith.Instances[func(b arith.Backend) engine]

// RegisterValueType instantiates the generic code for backends whose Impl
// is an A with values F (A = arith.Arith[F] for every such backend). It is
// called by package valuetype, the one place that registers a value type
// with every consumer; a backend used through Instantiate needs no
// registration.
func RegisterValueType[F any, A arith.Arith[F]]() {
	arith.Add(&engines, func(a A) func(arith.Backend) engine {
		return func(b arith.Backend) engine { return &engineOf[F, A]{a: a, b: b} }
	})
}

// newEngine is the one place where a Backend becomes an engine: an
// Instance brings its own instantiation; any other backend runs the engine
// registered for its arithmetic -- the generated copy of the generic code
// for exactly native.Arith, emu64.Arith and triword.Arith (copies.go),
// whose arithmetic calls are direct and can inline, else the generic code
// instantiated for its registered value type (a wrapper around native,
// such as the operation counter, is an Arith[float64] and runs the generic
// code).
func newEngine(b arith.Backend) (engine, error) {
	if in, ok := b.Impl.(instantiated); ok {
		return in.engine(b), nil
	}
	if mk, ok := engines.For(b.Impl); ok {
		return mk(b), nil
	}
	return nil, fmt.Errorf("falcon: backend %q has value type %T, for which Falcon is not instantiated (register it with package valuetype or use Instantiate)", b.Name, b.Impl)
}
