package shadow

import (
	"math"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/u128"
)

// The dd exact side without indirection.
//
// Falcon's engine is generic over its arithmetic, and a method call on a
// type parameter is an indirect call that never inlines. Through the
// generic PairArith every operation of a shadowed run costs three of them
// (the engine's call of the pair, the pair's of the backend and of the
// exact side), every error measurement half a dozen (the import of the
// backend's value, the subtraction, the conversions), and a triple word
// reaches the exact side through big.Float. Under the dd shadow, which
// campaigns use, the exact side's type is known: ddPair calls the dd
// operations directly, and the error measures import backend values into
// dd by a function chosen once per run (ddImporter). Every value is
// computed by the same operations on the same operands as through
// PairArith, or by a shortcut proved and tested to give the same bits
// (ddouble.AbsDiff, tripleToDD), so the records are identical bit for bit
// (the pinned digests of pinned_test.go).

// ddPair is the pair arithmetic under the dd exact side: PairArith with
// the exact side's operations called directly. Decisions, constants and
// ExpmP63 are PairArith's.
type ddPair[F any, A arith.Arith[F]] struct {
	*PairArith[F, ddouble.DD, A, ddouble.Arith]
}

// ddPairValue is the value type of ddPair.
type ddPairValue[F any] = Pair[F, ddouble.DD]

var dd ddouble.Arith

func (p ddPair[F, A]) Of(i int64) ddPairValue[F] { return ddPairValue[F]{p.b.Of(i), dd.Of(i)} }
func (p ddPair[F, A]) Scaled(i int64, e int) ddPairValue[F] {
	return ddPairValue[F]{p.b.Scaled(i, e), dd.Scaled(i, e)}
}
func (p ddPair[F, A]) FromFloat64(v float64) ddPairValue[F] {
	return ddPairValue[F]{p.b.FromFloat64(v), dd.FromFloat64(v)}
}
func (p ddPair[F, A]) GM(k int) ddPairValue[F] { return ddPairValue[F]{p.b.GM(k), dd.GM(k)} }
func (p ddPair[F, A]) Add(u, v ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Add(u.B, v.B), dd.Add(u.X, v.X)}
}
func (p ddPair[F, A]) Sub(u, v ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Sub(u.B, v.B), dd.Sub(u.X, v.X)}
}
func (p ddPair[F, A]) Neg(u ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Neg(u.B), dd.Neg(u.X)}
}
func (p ddPair[F, A]) Half(u ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Half(u.B), dd.Half(u.X)}
}
func (p ddPair[F, A]) Double(u ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Double(u.B), dd.Double(u.X)}
}
func (p ddPair[F, A]) Mul(u, v ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Mul(u.B, v.B), dd.Mul(u.X, v.X)}
}
func (p ddPair[F, A]) Sqr(u ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Sqr(u.B), dd.Sqr(u.X)}
}
func (p ddPair[F, A]) Inv(u ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Inv(u.B), dd.Inv(u.X)}
}
func (p ddPair[F, A]) Div(u, v ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Div(u.B, v.B), dd.Div(u.X, v.X)}
}
func (p ddPair[F, A]) Sqrt(u ddPairValue[F]) ddPairValue[F] {
	return ddPairValue[F]{p.b.Sqrt(u.B), dd.Sqrt(u.X)}
}

// nativeDDPair is ddPair for native with the backend's operations called
// directly as well (a monomorphised copy, as falcon's zz_native_gen.go is
// of the scheme): through ddPair every operation of native, one binary64
// instruction, costs an indirect call. Only the operations of the FFT, the
// splits and merges and the LDL tree (and the FFT's twiddle factors) are
// copied; the others are ddPair's.
type nativeDDPair struct {
	ddPair[float64, native.Arith]
}

var nat native.Arith

type nativeDD = Pair[float64, ddouble.DD]

func (nativeDDPair) Add(u, v nativeDD) nativeDD { return nativeDD{nat.Add(u.B, v.B), dd.Add(u.X, v.X)} }
func (nativeDDPair) Sub(u, v nativeDD) nativeDD { return nativeDD{nat.Sub(u.B, v.B), dd.Sub(u.X, v.X)} }
func (nativeDDPair) Mul(u, v nativeDD) nativeDD { return nativeDD{nat.Mul(u.B, v.B), dd.Mul(u.X, v.X)} }
func (nativeDDPair) Neg(u nativeDD) nativeDD    { return nativeDD{nat.Neg(u.B), dd.Neg(u.X)} }
func (nativeDDPair) Half(u nativeDD) nativeDD   { return nativeDD{nat.Half(u.B), dd.Half(u.X)} }
func (nativeDDPair) Sqr(u nativeDD) nativeDD    { return nativeDD{nat.Sqr(u.B), dd.Sqr(u.X)} }
func (nativeDDPair) GM(k int) nativeDD          { return nativeDD{nat.GM(k), dd.GM(k)} }

var (
	_ arith.Arith[Pair[float64, ddouble.DD]] = ddPair[float64, native.Arith]{}
	_ arith.Arith[Pair[float64, ddouble.DD]] = nativeDDPair{}
)

// An instantiator is falcon.Instantiate of a run's pair arithmetic with
// its observer. Each exact side has its own (instantiateDD for dd,
// instantiatePair for the others), so that a value type's registration
// compiles Falcon over only the pairs a run can choose: every
// instantiation is a copy of the whole engine, and one the run can never
// take costs as much compile time as one it takes.
type instantiator[F, X any, A arith.Arith[F], AX Exact[X]] func(b arith.Backend, p *PairArith[F, X, A, AX], obs falcon.Observer[Pair[F, X]]) arith.Backend

// instantiateDD instantiates Falcon over the pairs with a dd exact side:
// through nativeDDPair for native, a fused pair (pair_fused.go) for a
// backend with FMA, ddPairVec for a backend with batched operations, and
// ddPair otherwise.
func instantiateDD[F any, A arith.Arith[F]](b arith.Backend, p *PairArith[F, ddouble.DD, A, ddouble.Arith], obs falcon.Observer[ddPairValue[F]]) arith.Backend {
	if q, ok := any(p).(*PairArith[float64, ddouble.DD, native.Arith, ddouble.Arith]); ok {
		return falcon.Instantiate[nativeDD](b, nativeDDPair{ddPair[float64, native.Arith]{q}}, any(obs).(falcon.Observer[nativeDD]))
	}
	if _, fused := any(p.b).(arith.Fused[F]); fused {
		return instantiateFusedDD(b, p, obs)
	}
	if v := newDDPairVec(p); v != nil {
		return falcon.Instantiate[ddPairValue[F]](b, v, obs)
	}
	return falcon.Instantiate[ddPairValue[F]](b, ddPair[F, A]{p}, obs)
}

// instantiatePair instantiates Falcon over the pairs with an exact side
// other than dd: PairArith, or a fused pair for a backend with FMA.
func instantiatePair[F, X any, A arith.Arith[F], AX Exact[X]](b arith.Backend, p *PairArith[F, X, A, AX], obs falcon.Observer[Pair[F, X]]) arith.Backend {
	if _, fused := any(p.b).(arith.Fused[F]); fused {
		return instantiateFusedPair[X, AX](b, p, obs)
	}
	return falcon.Instantiate[Pair[F, X]](b, p, obs)
}

// specialise sets p's error measures to the dd ones when the exact side
// is dd; it is called once, when the pair is made.
func (p *PairArith[F, X, A, AX]) specialise() {
	if _, ok := any(p.x).(ddouble.Arith); !ok {
		return
	}
	k := &ddErrs[F]{}
	k.toDD, k.absErrs = ddImporter[F](p)
	p.importX, _ = any(k.toDD).(func(F) X)
	p.errsX, _ = any(k.errs).(func(Pair[F, X]) (float64, float64))
	p.stageX, _ = any(k.stage).(func([]Pair[F, X], *Hist))
}

// ddImporter returns the exact import of p's backend values into dd
// (toDD), computing what toX's general rule computes (FromFloat64 of the
// binary64 value, the split of Float64Pair, FromBig of Big) the cheapest
// way the backend allows, and the absolute errors |B - X| of a
// polynomial's values through it (absErrs, as errs computes them).
func ddImporter[F, X any, A arith.Arith[F], AX Exact[X]](p *PairArith[F, X, A, AX]) (toDD func(F) ddouble.DD, absErrs func([]float64, []Pair[F, ddouble.DD])) {
	b := p.b
	var one, all any
	switch _, isTW := any(b).(triword.Arith); {
	case p.bIsFloat64:
		if _, ok := any(b).(native.Arith); ok {
			one = func(v float64) ddouble.DD { return ddouble.DD{Hi: v} }
			all = func(dst []float64, vs []Pair[float64, ddouble.DD]) {
				for i := range vs {
					dst[i] = ddouble.AbsDiff(vs[i].B, vs[i].X)
				}
			}
		} else {
			// As native's with the value read through the backend
			// (dd.FromFloat64(x) is DD{Hi: x}).
			one = func(v F) ddouble.DD { return dd.FromFloat64(b.Float64(v)) }
			all = func(dst []float64, vs []Pair[F, ddouble.DD]) {
				for i := range vs {
					dst[i] = ddouble.AbsDiff(b.Float64(vs[i].B), vs[i].X)
				}
			}
		}
	case isTW:
		one = twToDD
		all = func(dst []float64, vs []Pair[triword.TW, ddouble.DD]) {
			for i := range vs {
				dst[i] = ddAbsErr(twToDD(vs[i].B), vs[i].X)
			}
		}
	case p.splitX != nil:
		split, _ := any(p.splitX).(func(F) (ddouble.DD, bool))
		one = func(v F) ddouble.DD {
			if x, ok := split(v); ok {
				return x
			}
			return dd.FromBig(b.Big(v))
		}
	default:
		one = func(v F) ddouble.DD { return dd.FromBig(b.Big(v)) }
	}
	toDD = one.(func(F) ddouble.DD)
	absErrs, _ = all.(func([]float64, []Pair[F, ddouble.DD]))
	if absErrs == nil {
		absErrs = func(dst []float64, vs []Pair[F, ddouble.DD]) {
			for i := range vs {
				dst[i] = ddAbsErr(toDD(vs[i].B), vs[i].X)
			}
		}
	}
	return toDD, absErrs
}

// twToDD is FromBig of triword's Big (tripleToDD, else wideTripleToDD,
// else through big.Float).
func twToDD(v triword.TW) ddouble.DD {
	if x, ok := tripleToDD(v); ok {
		return x
	}
	if x, ok := wideTripleToDD(v); ok {
		return x
	}
	return dd.FromBig(triword.Arith{}.Big(v))
}

// wideTripleToDD is tripleToDD for the triple words it leaves to
// big.Float because their head and middle limbs are too far apart to add
// exactly in binary64 (about one in a hundred of triword's results, each
// a hundred times the cost of the others through big.Float). Each finite
// limb is m 2^u with an integer |m| < 2^24; with u0 the least of the
// nonzero limbs' u, the value is M 2^u0 for the integer M = sum m 2^(u-u0),
// summed exactly in 128 bits when the limbs span at most 100 bits. FromBig
// makes hi = RN(v) and lo = RN(v - hi) (ties to even): here Q = M rounded
// to 53 significant bits by integer arithmetic, R = M - Q exactly, and
// both scaled by 2^u0, which is exact (every limb's unit is at least
// 2^-172, far inside binary64's normal range). ok is false for a sum of
// zero (FromBig decides its sign), non-finite limbs and wider spans.
func wideTripleToDD(v triword.TW) (x ddouble.DD, ok bool) {
	limbs := [3]float64{float64(v.Hi), float64(v.Mid), float64(v.Lo)}
	var mant [3]int64
	var unit [3]int
	u0, top := math.MaxInt, math.MinInt
	for i, l := range limbs {
		if l-l != 0 {
			return ddouble.DD{}, false
		}
		if l == 0 {
			continue
		}
		f, e := math.Frexp(l)
		mant[i], unit[i] = int64(math.Ldexp(f, 24)), e-24
		u0, top = min(u0, unit[i]), max(top, unit[i])
	}
	if u0 == math.MaxInt || top-u0 > 100 {
		return ddouble.DD{}, false
	}
	// M in two's complement over 128 bits: each term is below 2^124 in
	// magnitude, their sum below 2^126.
	var m u128.U128
	for i, mi := range mant {
		if mi == 0 {
			continue
		}
		t := u128.From(uint64(max(mi, -mi))).Shl(unit[i] - u0)
		if mi < 0 {
			t = t.Neg()
		}
		m = m.Add(t)
	}
	neg := int64(m.Hi) < 0
	if neg {
		m = m.Neg()
	}
	if m.IsZero() {
		return ddouble.DD{}, false
	}
	// Q = M rounded to 53 bits; the remainder R = M - Q has |R| <= half an
	// ulp of Q, and the sign of M when Q was rounded down, the other when
	// up.
	q, s, r, up := round53(m)
	hi := math.Ldexp(float64(q), s+u0)
	var lo float64
	if !r.IsZero() {
		// |R| < 2^s <= 2^73: rounded to 53 bits the same way.
		q2, s2, _, _ := round53(r)
		lo = math.Ldexp(float64(q2), s2+u0)
		if up {
			lo = -lo
		}
	}
	if neg {
		hi, lo = -hi, -lo
	}
	return ddouble.DD{Hi: hi, Lo: lo + 0}, true
}

// round53 rounds the nonzero magnitude m to 53 significant bits, ties to
// even: m ~ q 2^s with q <= 2^53, r = |m - q 2^s|, and up when q 2^s is
// above m.
func round53(m u128.U128) (q uint64, s int, r u128.U128, up bool) {
	n := m.Len()
	if n <= 53 {
		return m.Lo, 0, u128.U128{}, false
	}
	s = n - 53
	q = m.Shr(s).Lo // below 2^53: the high word is zero
	r = m.LowBits(s)
	if c := r.Cmp(u128.From(1).Shl(s - 1)); c > 0 || (c == 0 && q&1 == 1) {
		// Rounded up: the remainder becomes 2^s - r.
		return q + 1, s, u128.From(1).Shl(s).Sub(r), true
	}
	return q, s, r, false
}

// tripleToDD is ddouble's FromBig of triword's Big, exactly, without
// big.Float where the head and middle limbs add exactly in binary64 (all
// but triple words with a gap of more than 29 bits below the head): the
// limbs a, b, c are binary32 numbers, so s = a + b is exact and
// 2Sum(s, c) gives hi = RN(a + b + c) (ties to even, as big.Float's
// Float64) and lo = a + b + c - hi exactly, hence lo = RN(v - hi): the
// double word FromBig makes. A zero keeps the sign of its head with
// Lo = +0, as FromBig's subtraction gives it. ok is false where big.Float
// is needed (non-finite limbs; an inexact a + b).
func tripleToDD(v triword.TW) (x ddouble.DD, ok bool) {
	a, b, c := float64(v.Hi), float64(v.Mid), float64(v.Lo)
	if a-a != 0 || b-b != 0 || c-c != 0 {
		return ddouble.DD{}, false
	}
	if a == 0 && b == 0 && c == 0 {
		return ddouble.DD{Hi: a}, true
	}
	s := a + b
	if s-a != b || s-b != a {
		return ddouble.DD{}, false
	}
	hi := s + c
	t := hi - s
	lo := (s - (hi - t)) + (c - t)
	if hi == 0 {
		return ddouble.DD{}, false // a cancellation to zero: let FromBig decide its sign
	}
	return ddouble.DD{Hi: hi, Lo: lo + 0}, true
}

// ddErrs holds the import of one run's backend values into dd, the
// absolute errors of a polynomial's values, and a buffer for them.
type ddErrs[F any] struct {
	toDD    func(F) ddouble.DD
	absErrs func([]float64, []Pair[F, ddouble.DD])
	rel     []float64
}

// errs is PairArith.errs under the dd exact side.
func (k *ddErrs[F]) errs(v Pair[F, ddouble.DD]) (abs, rel float64) {
	return ddErrsOf(k.toDD(v.B), v.X)
}

// ddErrsOf is PairArith.errs of a backend value b imported into dd.
func ddErrsOf(b, x ddouble.DD) (abs, rel float64) {
	d := ddAbsErr(b, x)
	if d == 0 {
		return 0, 0
	}
	ref := math.Abs(dd.Float64(x))
	if ref == 0 {
		return d, math.Inf(1)
	}
	return d, d / ref
}

// ddAbsErr is the absolute error of ddErrsOf. (For a binary64 backend
// value it is ddouble.AbsDiff.)
func ddAbsErr(b, x ddouble.DD) float64 { return math.Abs(dd.Float64(dd.Sub(b, x))) }

// stage is observer.addStage's loop under the dd exact side: the absolute
// errors of the polynomial's values at once, then relative to its largest
// exact magnitude.
func (k *ddErrs[F]) stage(vs []Pair[F, ddouble.DD], h *Hist) {
	if cap(k.rel) < len(vs) {
		k.rel = make([]float64, len(vs))
	}
	rel := k.rel[:len(vs)]
	k.absErrs(rel, vs)
	scale := 0.0
	for i := range vs {
		// math.Max(scale, v) is scale where v <= scale.
		if v := math.Abs(dd.Float64(vs[i].X)); !(v <= scale) {
			scale = math.Max(scale, v)
		}
	}
	for i := range rel {
		rel[i] = normwise(rel[i], scale)
	}
	h.addLinear(rel...)
}
