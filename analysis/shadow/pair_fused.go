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
// chosen by instantiateDD and instantiatePair only for a backend with FMA,
// so that the pairs over every other backend do not implement arith.Fused
// and Falcon keeps their schedule. The exact side computes x*y + z as its product then its sum:
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

// The fused pairs are instantiated for float64 values under the
// arithmetic interface only (native-fma, registered as
// arith.Arith[float64]), not for every registered value type: each is a
// copy of the whole engine, and no other backend has FMA.
// RegisterValueType refuses (pairsFused) a backend with FMA of any other
// registration, which the fused pairs below would not carry.

// pairsFused reports whether the fused pairs below carry the backends of
// the registration (F, A).
func pairsFused[F any, A arith.Arith[F]]() bool {
	_, ok := any((*A)(nil)).(*arith.Arith[float64])
	return ok
}

// instantiateFusedDD is instantiateDD for a backend with FMA.
func instantiateFusedDD(b arith.Backend, p, obs any) arith.Backend {
	q := p.(*PairArith[float64, ddouble.DD, arith.Arith[float64], ddouble.Arith])
	fu := q.b.(arith.Fused[float64])
	return falcon.Instantiate[ddPairValue[float64]](b, ddPairFused[float64, arith.Arith[float64]]{ddPair[float64, arith.Arith[float64]]{q}, fu}, obs.(falcon.Observer[ddPairValue[float64]]))
}

// instantiateFusedPair is instantiatePair for a backend with FMA.
func instantiateFusedPair[X any, AX Exact[X]](b arith.Backend, p, obs any) arith.Backend {
	q := p.(*PairArith[float64, X, arith.Arith[float64], AX])
	fu := q.b.(arith.Fused[float64])
	return falcon.Instantiate[Pair[float64, X]](b, pairFused[float64, X, arith.Arith[float64], AX]{q, fu}, obs.(falcon.Observer[Pair[float64, X]]))
}
