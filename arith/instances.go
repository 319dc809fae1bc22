package arith

import (
	"reflect"
	"sync"
)

// Instances is one consumer's table of instantiations of its generic code
// (the Falcon engine, the shadow runner, the error analysis, ...): for each
// registered value type F, a T built from a backend's Impl. A backend's
// Impl is an Arith[F] for its own F, known only at run time; For finds the
// entry that Impl satisfies and builds the consumer's T from it.
//
// Go cannot store a generic function uninstantiated, so the code that
// instantiates a consumer for F must name both; package valuetype is that
// one place for every consumer, and a consumer lists no concrete type.
//
// An entry is registered with Add for an arithmetic type A. When A is an
// interface (Arith[F] itself: every backend with values F) the entry
// matches any Impl implementing it; when A is a concrete type (native.Arith)
// it matches exactly that type and is preferred, which is how a consumer
// keeps a faster instance for one arithmetic (falcon's generated copies).
// The first registration of a type wins; later ones are ignored, so
// registering a value type twice is harmless.
type Instances[T any] struct {
	mu    sync.RWMutex
	seen  map[reflect.Type]bool
	exact map[reflect.Type]func(impl any) T
	iface []func(impl any) (T, bool)
}

// Add registers mk as in's instantiation for backends whose Impl is an A.
func Add[F any, A Arith[F], T any](in *Instances[T], mk func(a A) T) {
	t := reflect.TypeFor[A]()
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.seen[t] {
		return
	}
	if in.seen == nil {
		in.seen = map[reflect.Type]bool{}
		in.exact = map[reflect.Type]func(any) T{}
	}
	in.seen[t] = true
	if t.Kind() != reflect.Interface {
		in.exact[t] = func(impl any) T { return mk(impl.(A)) }
		return
	}
	in.iface = append(in.iface, func(impl any) (T, bool) {
		a, ok := impl.(A)
		if !ok {
			var zero T
			return zero, false
		}
		return mk(a), true
	})
}

// For returns the instantiation for impl (a Backend's Impl): the entry for
// exactly impl's type if there is one, else the first interface entry impl
// implements. ok is false when no registered type matches.
func (in *Instances[T]) For(impl any) (t T, ok bool) {
	in.mu.RLock()
	defer in.mu.RUnlock()
	if impl == nil {
		return t, false
	}
	if mk, ok := in.exact[reflect.TypeOf(impl)]; ok {
		return mk(impl), true
	}
	for _, mk := range in.iface {
		if t, ok := mk(impl); ok {
			return t, true
		}
	}
	return t, false
}
