// Package valuetype is the program's composition root: the one place that
// names every value type and every consumer together. It links every
// backend into the program (package arith/backends, the plugin loader
// arith/cabi among them) and instantiates, for each backend value type --
// float64 (native), emu64.FPR, triword.TW, ddouble.DD, *big.Float (oracle),
// vfloat.V (vprec) and the plugins' cabi.Value and cabi.Value8 -- every
// consumer of backends chosen by name: the Falcon engine (package falcon),
// the exact shadow (analysis/shadow), the per-operation errors and the
// expm curve (package analysis), the sampler recorder (package accel).
//
// It is imported by the binary and by tests, never by a backend or a
// consumer: a backend registers itself with package arith only, so that
// the arithmetic packages depend on nothing above them. Tests that run
// backends by name through a consumer live in external test packages
// (package falcon_test, ...) that import this one.
//
// A backend's Impl is an arith.Arith[F] for its own value type F, known
// only at run time, while each consumer is generic code over F. Go cannot
// store a generic function uninstantiated, so a consumer cannot hand its
// generic constructor to a registry below it; the code that instantiates a
// consumer for F must name both. Register is that code, for every
// consumer: each consumer exports a RegisterValueType hook and keeps the
// instances in an arith.Instances table, and lists no concrete type
// itself. A backend with a value type of its own therefore works in every
// command (compare, sweep, arith errors, plot, report, accel) after one
// call:
//
//	valuetype.Register[MyValue, arith.Arith[MyValue]]()
//
// A new consumer adds its hook to Register.
package valuetype

import (
	"math/big"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/analysis/diverge"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/arith/backends" // every backend, by name
	"github.com/fprlab/fprlab/arith/cabi"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/arith/vfloat"
	"github.com/fprlab/fprlab/falcon"
)

// Register instantiates every consumer for backends whose Impl is an A
// with values F. With A = arith.Arith[F] it covers every backend with
// values F (wrappers, plans, Instances); a concrete arithmetic type A
// registers, in addition, faster instances for exactly that type (calls
// through A's methods rather than through the interface). The first
// registration of a type wins, and registering twice is harmless.
func Register[F any, A arith.Arith[F]]() {
	falcon.RegisterValueType[F, A]()
	shadow.RegisterValueType[F, A]()
	analysis.RegisterValueType[F, A]()
	accel.RegisterValueType[F, A]()
	diverge.RegisterValueType[F, A]()
	certify.RegisterValueType[F, A]()
}

// The value types of every backend. native.Arith has an instance of its
// own (the shadow of hardware binary64 is the most used), and so have the
// plugins' Arith and Arith8 (a call per operation through the concrete
// type); falcon's generated copies for native, emu64 and triword are
// registered by package falcon itself.
func init() {
	Register[float64, native.Arith]()
	Register[float64, arith.Arith[float64]]()
	Register[emu64.FPR, arith.Arith[emu64.FPR]]()
	Register[triword.TW, arith.Arith[triword.TW]]()
	Register[ddouble.DD, arith.Arith[ddouble.DD]]()
	Register[*big.Float, arith.Arith[*big.Float]]()
	Register[vfloat.V, arith.Arith[vfloat.V]]()
	Register[cabi.Value, cabi.Arith]()
	Register[cabi.Value, arith.Arith[cabi.Value]]()
	Register[cabi.Value8, cabi.Arith8]()
	Register[cabi.Value8, arith.Arith[cabi.Value8]]()
}
