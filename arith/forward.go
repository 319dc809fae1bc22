package arith

import "math/big"

// Forward is the base of wrapper backends: an Arith[F] that forwards every
// call to Inner, after calling Observe (when set) with the operation. A
// wrapper embeds a Forward and overrides only the methods it changes, so
// that no wrapper restates the whole interface. The operation counter of
// package accel is a Forward whose Observe counts; a test backend that
// perturbs one operation embeds one and overrides that method.
//
// Forward changes no result. Observe must be safe for concurrent use if
// the wrapper is.
type Forward[F any] struct {
	Inner   Arith[F]
	Observe func(Op)
}

var _ Arith[float64] = Forward[float64]{}

func (w Forward[F]) see(o Op) {
	if w.Observe != nil {
		w.Observe(o)
	}
}

func (w Forward[F]) Of(i int64) F            { w.see(OpOf); return w.Inner.Of(i) }
func (w Forward[F]) Scaled(i int64, e int) F { w.see(OpScaled); return w.Inner.Scaled(i, e) }
func (w Forward[F]) FromFloat64(x float64) F { w.see(OpFromFloat64); return w.Inner.FromFloat64(x) }
func (w Forward[F]) Const(c Constant) F      { w.see(OpConst); return w.Inner.Const(c) }
func (w Forward[F]) GM(k int) F              { w.see(OpGM); return w.Inner.GM(k) }
func (w Forward[F]) Add(x, y F) F            { w.see(OpAdd); return w.Inner.Add(x, y) }
func (w Forward[F]) Sub(x, y F) F            { w.see(OpSub); return w.Inner.Sub(x, y) }
func (w Forward[F]) Neg(x F) F               { w.see(OpNeg); return w.Inner.Neg(x) }
func (w Forward[F]) Half(x F) F              { w.see(OpHalf); return w.Inner.Half(x) }
func (w Forward[F]) Double(x F) F            { w.see(OpDouble); return w.Inner.Double(x) }
func (w Forward[F]) Mul(x, y F) F            { w.see(OpMul); return w.Inner.Mul(x, y) }
func (w Forward[F]) Sqr(x F) F               { w.see(OpSqr); return w.Inner.Sqr(x) }
func (w Forward[F]) Inv(x F) F               { w.see(OpInv); return w.Inner.Inv(x) }
func (w Forward[F]) Div(x, y F) F            { w.see(OpDiv); return w.Inner.Div(x, y) }
func (w Forward[F]) Sqrt(x F) F              { w.see(OpSqrt); return w.Inner.Sqrt(x) }
func (w Forward[F]) Rint(x F) int64          { w.see(OpRint); return w.Inner.Rint(x) }
func (w Forward[F]) Floor(x F) int64         { w.see(OpFloor); return w.Inner.Floor(x) }
func (w Forward[F]) Trunc(x F) int64         { w.see(OpTrunc); return w.Inner.Trunc(x) }
func (w Forward[F]) Lt(x, y F) bool          { w.see(OpLt); return w.Inner.Lt(x, y) }
func (w Forward[F]) ExpmP63(x, ccs F) uint64 { w.see(OpExpmP63); return w.Inner.ExpmP63(x, ccs) }
func (w Forward[F]) Float64(x F) float64     { w.see(OpFloat64); return w.Inner.Float64(x) }
func (w Forward[F]) Big(x F) *big.Float      { w.see(OpBig); return w.Inner.Big(x) }
