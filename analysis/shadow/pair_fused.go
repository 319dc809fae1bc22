package shadow

import (
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/falcon"
)

// The pairs over a backend with a fused multiply-add.
//
// Falcon fuses a product into a sum only when its arithmetic implements
// arith.Fused (falcon/fft_fused.go), so the pair over such a backend
// (native-fma) must implement it too, or the backend side would be
// computed without its fused operations. They are types of their own,
// chosen by instantiate only for a backend with FMA, so that the pairs over
// every other backend do not implement arith.Fused and Falcon keeps their
// schedule. The exact side computes x*y + z as its product then its sum:
// exact to its precision, as every other operation of the exact side.

// pairFused is PairArith with FMA.
type pairFused[F, X any, A arith.Arith[F], AX Exact[X]] struct {
	*PairArith[F, X, A, AX]
	fu arith.Fused[F]
}

// FMA implements arith.Fused.
func (p pairFused[F, X, A, AX]) FMA(u, v, w Pair[F, X]) Pair[F, X] {
	return Pair[F, X]{p.fu.FMA(u.B, v.B, w.B), p.x.Add(p.x.Mul(u.X, v.X), w.X)}
}

// ddPairFused is ddPair with FMA.
type ddPairFused[F any, A arith.Arith[F]] struct {
	ddPair[F, A]
	fu arith.Fused[F]
}

// FMA implements arith.Fused.
func (p ddPairFused[F, A]) FMA(u, v, w ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.fu.FMA(u.B, v.B, w.B), dd.Add(dd.Mul(u.X, v.X), w.X)}
}

var (
	_ arith.Fused[Pair[float64, ddouble.DD]] = ddPairFused[float64, arith.Arith[float64]]{}
	_ arith.Arith[Pair[float64, ddouble.DD]] = ddPairFused[float64, arith.Arith[float64]]{}
)

// instantiateFused is instantiate for a backend with FMA; ok is false when
// p's backend has none.
func instantiateFused[F, X any, A arith.Arith[F], AX Exact[X]](b arith.Backend, p *PairArith[F, X, A, AX], obs falcon.Observer[Pair[F, X]]) (_ arith.Backend, ok bool) {
	fu, ok := any(p.b).(arith.Fused[F])
	if !ok {
		return b, false
	}
	if q, ok := any(p).(*PairArith[F, ddouble.DD, A, ddouble.Arith]); ok {
		return falcon.Instantiate[ddPairValue[F]](b, ddPairFused[F, A]{ddPair[F, A]{q}, fu}, any(obs).(falcon.Observer[ddPairValue[F]])), true
	}
	return falcon.Instantiate[Pair[F, X]](b, pairFused[F, X, A, AX]{p, fu}, obs), true
}
