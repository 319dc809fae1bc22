package accel

import (
	"sync/atomic"

	"github.com/fprlab/fprlab/arith"
)

// Counting is an arith.Arith[F] that forwards every call to the backend it
// wraps and counts the calls per method. It changes no result: a
// Counting[F] in an arith.Backend computes exactly what the wrapped backend
// computes.
//
// A Counting is safe for concurrent use: the counters are atomic, and calls
// from several goroutines are all counted (the wrapped backend must itself
// be safe for concurrent use for that to be meaningful, as every registered
// backend is). Use it through its pointer; the zero value is not usable.
type Counting[F any] struct {
	arith.Forward[F]
	n [arith.NumOps]atomic.Uint64
}

var _ arith.Arith[uint64] = (*Counting[uint64])(nil)

// NewCounting returns a counting wrapper around a, with all counters zero.
// a must not be nil: the wrapper forwards every call to it.
func NewCounting[F any](a arith.Arith[F]) *Counting[F] {
	c := &Counting[F]{}
	c.Forward = arith.Forward[F]{Inner: a, Observe: c.inc}
	return c
}

// Backend returns b with its implementation replaced by c, named
// "<b.Name>+count", for passing to Falcon's functions that take a backend.
// b's Impl should be the arithmetic c wraps; Backend does not check it.
func (c *Counting[F]) Backend(b arith.Backend) arith.Backend {
	b.Name += "+count"
	b.Impl = c
	return b
}

// Calls returns the current number of calls per method (all zero for a
// nil c). Under concurrent use each counter is read atomically, but not all
// of them at one instant.
func (c *Counting[F]) Calls() Calls {
	if c == nil {
		return Calls{}
	}
	v := func(o arith.Op) uint64 { return c.n[o].Load() }
	return Calls{
		Of: v(arith.OpOf), Scaled: v(arith.OpScaled), FromFloat64: v(arith.OpFromFloat64), Const: v(arith.OpConst), GM: v(arith.OpGM),
		Add: v(arith.OpAdd), Sub: v(arith.OpSub), Neg: v(arith.OpNeg), Half: v(arith.OpHalf), Double: v(arith.OpDouble),
		Mul: v(arith.OpMul), Sqr: v(arith.OpSqr), Inv: v(arith.OpInv), Div: v(arith.OpDiv), Sqrt: v(arith.OpSqrt),
		Rint: v(arith.OpRint), Floor: v(arith.OpFloor), Trunc: v(arith.OpTrunc), Lt: v(arith.OpLt), ExpmP63: v(arith.OpExpmP63),
		Float64: v(arith.OpFloat64), Big: v(arith.OpBig),
	}
}

// Count returns the number of calls of operation o so far (0 for a nil c
// or an unknown o).
func (c *Counting[F]) Count(o arith.Op) uint64 {
	if c == nil || o < 0 || int(o) >= len(c.n) {
		return 0
	}
	return c.n[o].Load()
}

// Counts returns the reference's counters for the calls so far, under the
// FPEMU model: c.Calls().FPEMU().
func (c *Counting[F]) Counts() Counts { return c.Calls().FPEMU() }

// Reset sets every counter to zero (nothing for a nil c).
func (c *Counting[F]) Reset() {
	if c == nil {
		return
	}
	for i := range c.n {
		c.n[i].Store(0)
	}
}

func (c *Counting[F]) inc(o arith.Op) { c.n[o].Add(1) }

// Calls is the number of calls of each arith.Arith method.
type Calls struct {
	Of, Scaled, FromFloat64, Const, GM uint64
	Add, Sub, Neg, Half, Double        uint64
	Mul, Sqr, Inv, Div, Sqrt           uint64
	Rint, Floor, Trunc, Lt, ExpmP63    uint64
	Float64, Big                       uint64
}

// FPEMU returns the reference's counters for these calls as the
// instrumented FALCON_FPEMU build counts them (see the package
// documentation): each counter counts executions of the named reference
// routine, including those made from inside other fpr routines.
func (k Calls) FPEMU() Counts {
	c := Counts{
		Of:      k.Of,
		Scaled:  k.Of + k.Scaled,
		Sub:     k.Sub,
		Add:     k.Add + k.Sub,
		Sqr:     k.Sqr,
		Mul:     k.Mul + k.Sqr + 2*k.ExpmP63,
		Inv:     k.Inv,
		Div:     k.Div + k.Inv,
		Sqrt:    k.Sqrt,
		ExpmP63: k.ExpmP63,
		Rint:    k.Rint,
		Floor:   k.Floor,
		Trunc:   k.Trunc + 2*k.ExpmP63,
		Half:    k.Half,
		Double:  k.Double,
		Neg:     k.Neg,
		Lt:      k.Lt,
	}
	c.FPR = c.Scaled + c.Add + c.Mul + c.Div + c.Sqrt
	c.FPRNorm64 = c.Scaled + c.Add
	return c
}

// Counts are the floating-point counters of the reference's instrumented
// FPEMU build, with its names (the JSON field names). FPR counts the
// packing routine FPR(s, e, m), FPRNorm64 the normaliser FPR_NORM64; each
// other counter counts executions of the fpr routine of that name, with the
// inclusions listed in the package documentation.
type Counts struct {
	FPR       uint64 `json:"FPR"`
	FPRNorm64 uint64 `json:"FPR_NORM64"`
	Scaled    uint64 `json:"scaled"`
	Add       uint64 `json:"add"`
	Sub       uint64 `json:"sub"`
	Mul       uint64 `json:"mul"`
	Sqr       uint64 `json:"sqr"`
	Div       uint64 `json:"div"`
	Inv       uint64 `json:"inv"`
	Sqrt      uint64 `json:"sqrt"`
	ExpmP63   uint64 `json:"expm_p63"`
	Rint      uint64 `json:"rint"`
	Floor     uint64 `json:"floor"`
	Trunc     uint64 `json:"trunc"`
	Half      uint64 `json:"half"`
	Double    uint64 `json:"double"`
	Neg       uint64 `json:"neg"`
	Lt        uint64 `json:"lt"`
	Of        uint64 `json:"of"`
}

// CounterNames lists the counters of Counts in field order, which is the
// order of the reference's counts file; Counts.Values follows it.
var CounterNames = []string{
	"FPR", "FPR_NORM64", "scaled", "add", "sub", "mul", "sqr", "div", "inv", "sqrt",
	"expm_p63", "rint", "floor", "trunc", "half", "double", "neg", "lt", "of",
}

// Values returns the counters in the order of CounterNames.
func (c Counts) Values() []uint64 {
	return []uint64{
		c.FPR, c.FPRNorm64, c.Scaled, c.Add, c.Sub, c.Mul, c.Sqr, c.Div, c.Inv, c.Sqrt,
		c.ExpmP63, c.Rint, c.Floor, c.Trunc, c.Half, c.Double, c.Neg, c.Lt, c.Of,
	}
}

// Plus returns the counter-wise sum of c and d (for totals over phases).
func (c Counts) Plus(d Counts) Counts {
	return Counts{
		FPR: c.FPR + d.FPR, FPRNorm64: c.FPRNorm64 + d.FPRNorm64, Scaled: c.Scaled + d.Scaled,
		Add: c.Add + d.Add, Sub: c.Sub + d.Sub, Mul: c.Mul + d.Mul, Sqr: c.Sqr + d.Sqr,
		Div: c.Div + d.Div, Inv: c.Inv + d.Inv, Sqrt: c.Sqrt + d.Sqrt, ExpmP63: c.ExpmP63 + d.ExpmP63,
		Rint: c.Rint + d.Rint, Floor: c.Floor + d.Floor, Trunc: c.Trunc + d.Trunc, Half: c.Half + d.Half,
		Double: c.Double + d.Double, Neg: c.Neg + d.Neg, Lt: c.Lt + d.Lt, Of: c.Of + d.Of,
	}
}
