package certify

import (
	"fmt"
	"math"
	"math/big"
)

// Rounding-up arithmetic on non-negative bounds. Go's float64 operations
// round to nearest; one step up with Nextafter turns each into an upper
// bound of the exact result (a nearest rounding lies below the exact value
// by less than one ulp of the same binade, underflow included), so every
// quantity below is computed with rounding toward +Inf.

func up(x float64) float64       { return math.Nextafter(x, math.Inf(1)) }
func add(x, y float64) float64   { return up(x + y) }
func mul(x, y float64) float64   { return up(x * y) }
func hypot(x, y float64) float64 { return up(math.Sqrt(add(mul(x, x), mul(y, y)))) }

var sqrt2 = up(math.Sqrt2)

// bigUp returns an upper bound of |x| as a float64.
func bigUp(x *big.Float) float64 {
	f, acc := new(big.Float).Abs(x).Float64()
	if acc == big.Below {
		f = up(f)
	}
	return f
}

// bigDiffUp returns an upper bound of |x - y|, computed exactly first.
func bigDiffUp(x, y *big.Float) float64 {
	return bigUp(exactSub(x, y))
}

// exactSub returns x - y without rounding.
func exactSub(x, y *big.Float) *big.Float {
	p := x.Prec() + y.Prec()
	if x.Sign() != 0 && y.Sign() != 0 {
		d := x.MantExp(nil) - y.MantExp(nil)
		if d < 0 {
			d = -d
		}
		p += uint(d)
	}
	if p > 1<<20 {
		p = 1 << 20
	}
	return new(big.Float).SetPrec(p).Sub(x, y)
}

// A stage is where an error term of the bound comes from.
type stage int

const (
	stTarget stage = iota // the target t: FFT of the hashed point, products with the basis and 1/q
	stSplit               // ffSampling's splits
	stMerge               // ffSampling's merges of the sampled halves (and integer conversions)
	stUpdate              // ffSampling's updates tb0 = t0 + (t1 - z1) l10
	stKey                 // the backend's errors in the key's values: basis and tree l10
	stConst               // the backend's errors in the twiddle factors and 1/q
	stExact               // the exact side's own rounding and constants
	numStages
)

var stageNames = [numStages]string{"target", "ffsampling_split", "ffsampling_merge", "ffsampling_update", "key_values", "constants", "exact_side"}

// vec bounds a vector of complex values of the run (h of them; at a leaf,
// one real value): m bounds the Euclidean norm of its values in R, the
// real-number run (see the package documentation), and the sum of e
// bounds the norm of the difference between R and the backend's values
// plus that between R and the exact side's values, split by the stage the
// terms come from. For one value the norm is its modulus.
//
// For the merged samples z of a subtree, zA and zB (when zAff) also bound
// the norm of z's errors as zA tau + zB, where tau is the norm of the
// subtree's target in R -- the actual norm, whatever it is below its
// bound m. The bound e is what the errors are at the largest tau; the
// affine one keeps the dependence on tau, so that the two halves of a
// merge, whose targets' norms are jointly (not each) at most |t|/sqrt2,
// are combined by their actual share (merge's affine bound, below).
type vec struct {
	h      int
	m      float64
	e      [numStages]float64
	zA, zB float64
	zAff   bool
}

func (v *vec) tot() float64 {
	s := 0.0
	for _, x := range v.e {
		s = add(s, x)
	}
	return s
}

// bounder computes the bounds for one key, backend and exact side.
type bounder struct {
	// b is the backend's model of ffSampling's operations, t of the
	// target's (b's Target, or b itself), x the exact side's.
	b, t, x Model
	// twB, twX bound the modulus of the difference between a twiddle
	// factor as each side holds it and the true root of unity; twT is
	// twB for the target's twiddles (a plan's target has its own).
	twB, twT, twX float64
	// invQB, invQX bound |1/q as each side holds it - 1/q|.
	invQB, invQX float64

	calls []callBound // per sampler call, in order
	nodes int         // inner nodes consumed
	kv    *keyValues  // the backend's key values
	kx    *keyValues  // the exact side's
	leaf  int

	// recs are the inner nodes in the order node meets them, with the
	// local error sources the path analysis (path.go) weighs per call.
	recs []nodeRec
	// tgt is the target's record for the path analysis at the root.
	tgt targetRec
	// support bounds |mu_B - z| at every sampler call (supportDev).
	support float64
	// norms records the norm bounds of every inner node (nodeNorms).
	norms []nodeNorms
	// gm64 holds R's twiddle factors (the exact side's, within 2^-256 of
	// the true roots) rounded to float64, for the path analysis.
	gm64 []float64
}

// nodeNorms are the bounds, in R, on the norms of one target t of an
// inner node at level L (iter 1: t1, iter 0: t0 before the update), of
// the merged samples z of that target (z1, or z0 of the updated target)
// and of t - z. They are recorded when the node has z1 (iter 1) and when
// it has z0 (iter 0), the order in which the dynamic path merges.
type nodeNorms struct {
	L, iter int
	t, z, d float64
}

// callBound is the bound at one sampler call.
type callBound struct {
	bound float64
	e     [numStages]float64
	leaf  int
	path  string // the tree path, from the root: R (right child) or L
	// node is the level-1 node (index into recs) whose child side
	// ('R' or 'L') made the call; im is whether its centre is the
	// imaginary part of that child's one complex target value.
	node int
	side byte
	im   bool
}

// round adds to v the rounding errors of nr real roundings per complex
// value of v (relative to the results, whose norm is at most mag on either
// side): relB |.| + abs per rounding on the backend, relX on the exact
// side. The absolute terms of a vector of h complex values add up to
// abs sqrt(2h) per rounding and component in norm.
func (bd *bounder) round(v *vec, st stage, mag, relB, relX float64, nr int) {
	absN := mul(float64(nr), up(math.Sqrt(float64(2*v.h))))
	v.e[st] = add(v.e[st], add(mul(relB, mag), mul(absN, bd.model(st).Abs)))
	v.e[stExact] = add(v.e[stExact], add(mul(relX, mag), mul(absN, bd.x.Abs)))
}

// model returns the backend's model of the operations of stage st: the
// target's for stTarget, ffSampling's for the others.
func (bd *bounder) model(st stage) *Model {
	if st == stTarget {
		return &bd.t
	}
	return &bd.b
}

// cmulRel is the relative bound of a complex product as the reference
// computes it (four rounded products, two rounded sums), in modulus: the
// products err by at most sqrt2 relMul |x||y| (the vector (|xr yr| +
// |xi yi|, |xr yi| + |xi yr|) has modulus at most sqrt2 |x||y|), the sums
// by relAdd (|xy| + that).
func cmulRel(m Model) float64 {
	return add(mul(sqrt2, m.MulRel), mul(m.AddRel, add(1, mul(sqrt2, m.MulRel))))
}

// times returns x (h complex values) multiplied componentwise by constants
// c_i of modulus at most cmax in R, of which the backend's copies differ by
// at most ceB and the exact side's by at most ceX (ceB attributed to stage
// cst), each product complex (reference order) or, when real, a real
// constant times both components. x'c' - xc = x'(c' - c) + (x' - x)c.
func (bd *bounder) times(x vec, cmax, ceB, ceX float64, cst, st stage, real bool) vec {
	r := vec{h: x.h, m: mul(x.m, cmax)}
	xs := add(x.m, x.tot())
	for k := range r.e {
		r.e[k] = mul(x.e[k], cmax)
	}
	r.e[cst] = add(r.e[cst], mul(xs, ceB))
	r.e[stExact] = add(r.e[stExact], mul(xs, ceX))
	mag := mul(xs, add(cmax, math.Max(ceB, ceX)))
	if real {
		bd.round(&r, st, mag, bd.model(st).MulRel, bd.x.MulRel, 1)
	} else {
		bd.round(&r, st, mag, cmulRel(*bd.model(st)), cmulRel(bd.x), 3)
	}
	return r
}

// twiddled multiplies x by twiddle factors (true modulus 1).
func (bd *bounder) twiddled(x vec, st stage) vec {
	tb := bd.twB
	if st == stTarget {
		tb = bd.twT
	}
	return bd.times(x, 1, tb, bd.twX, stConst, st, false)
}

// butterflyJoint returns the bounds of (x + y, x - y) when one bound v
// covers (x, y) together (the two halves of one vector): in R its norm is
// sqrt2 |v|, a linear map of norm sqrt2, which also carries the errors;
// then one rounding per component.
func (bd *bounder) butterflyJoint(v vec, st stage) vec {
	r := vec{h: v.h, m: mul(sqrt2, v.m)}
	for k := range r.e {
		r.e[k] = mul(sqrt2, v.e[k])
	}
	bd.round(&r, st, add(r.m, r.tot()), bd.model(st).AddRel, bd.x.AddRel, 1)
	return r
}

// halve returns x/2: exact but for underflow (one absolute term).
func (bd *bounder) halve(x vec, st stage) vec {
	r := vec{h: x.h, m: x.m / 2}
	for k := range r.e {
		r.e[k] = x.e[k] / 2
	}
	bd.round(&r, st, 0, 0, 0, 1)
	return r
}

// keyConst is keyConst of the backend's values pb and R's px, with the
// backend's conversion of them into the format of stage st, which uses
// them (a plan's, model.go), added to the differences: |conv(v) - v| <=
// ConvRel |v| <= ConvRel (cmax + ce).
func (bd *bounder) keyConst(pb, px []*big.Float, st stage) (cmax, ce float64) {
	cmax, ce = keyConst(pb, px)
	if c := bd.model(st).ConvRel; c > 0 {
		ce = add(ce, mul(c, add(cmax, ce)))
	}
	return cmax, ce
}

// keyConst returns the bounds of a key polynomial (basis, l10) of h
// complex values: the largest modulus of the exact side's values (R's) and
// the largest modulus of the backend's differences from them.
func keyConst(pb, px []*big.Float) (cmax, ce float64) {
	h := len(pb) / 2
	for u := range h {
		cmax = math.Max(cmax, hypot(bigUp(px[u]), bigUp(px[u+h])))
		ce = math.Max(ce, hypot(bigDiffUp(pb[u], px[u]), bigDiffUp(pb[u+h], px[u+h])))
	}
	return cmax, ce
}

// split returns the bounds of the two halves of a target of h >= 2
// complex values: f0 = (a + b)/2, f1 = (a - b) conj(w)/2 over consecutive
// pairs a, b. The sums are a butterfly of the pairs (norm sqrt2 |t|).
func (bd *bounder) split(t vec) (f0, f1 vec) {
	s := bd.butterflyJoint(t, stSplit)
	s.h = t.h / 2 // (a + b) and (a - b) each: each has norm at most that of both
	f0 = bd.halve(s, stSplit)
	f1 = bd.halve(bd.twiddled(s, stSplit), stSplit)
	return f0, f1
}

// merge returns the bounds of the merged samples z = (za + w zb, za - w zb)
// and of D = t - z, which in R (where merge inverts split exactly) is
// (Da + w Db, Da - w Db), of norm sqrt2 |(Da, Db)|. t is the node's
// target (|z| <= |t| + |D| in R).
//
// The cap |t| + |D| also bounds the magnitude the butterfly's roundings
// scale with: the bounds of za and zb each come from their half of t (each
// at most |t|/sqrt2), so sqrt2 |(za, zb)| alone overstates |z| by up to
// sqrt2 at every level.
func (bd *bounder) merge(za, zb vec, da, db float64, t vec) (z vec, d float64) {
	y := bd.twiddled(zb, stMerge)
	d = mul(sqrt2, hypot(da, db))
	z = vec{h: za.h + y.h, m: math.Min(mul(sqrt2, hypot(za.m, y.m)), add(t.m, d))}
	for k := range z.e {
		z.e[k] = mul(sqrt2, hypot(za.e[k], y.e[k]))
	}
	bd.round(&z, stMerge, add(z.m, z.tot()), bd.b.AddRel, bd.x.AddRel, 1)
	return z, d
}

// mergeAff returns the affine bound (zA, zB) of the merged samples
// z = (za + w zb, za - w zb) of a target t of h complex values, in tau =
// |t| in R, from those of za and zb in the norms tau_a, tau_b of the
// halves split from t, for which hypot(tau_a, tau_b) = tau/sqrt2 exactly
// (R's split: |f0|^2 + |f1|^2 = (|a|^2 + |b|^2)/2 pair by pair). db and d
// bound |Db| and |D| = |t - z| in R, so |zb| <= tau_b + db and |z| <=
// tau + d in R.
//
//   - y = w' zb' (the twiddle product, as times computes it): errors at
//     most E_zb + kappa (tau_b + db + E_zb) + absY, with kappa the
//     twiddles' errors plus the complex product's rounding per unit of
//     |zb'| on both sides (times with cmax 1).
//   - (za, y) jointly: hypot(A_a tau_a + B_a, A_y tau_b + B_y) <=
//     max(A_a, A_y) tau/sqrt2 + hypot(B_a, B_y) (Minkowski, then the
//     halves' norms); the butterfly multiplies by sqrt2.
//   - the butterfly's rounding: alpha (tau + d + E) + absZ, alpha the two
//     sides' AddRel.
func (bd *bounder) mergeAff(za, zb vec, db, d float64, h int) (A, B float64) {
	tw := math.Max(bd.twB, bd.twX)
	kappa := add(add(bd.twB, bd.twX), mul(add(cmulRel(bd.b), cmulRel(bd.x)), add(1, tw)))
	absAll := add(bd.b.Abs, bd.x.Abs)
	absY := mul(mul(3, up(math.Sqrt(float64(2*zb.h)))), absAll)
	Ay := add(mul(add(1, kappa), zb.zA), kappa)
	By := add(add(mul(add(1, kappa), zb.zB), mul(kappa, db)), absY)
	Aj := math.Max(za.zA, Ay)
	Bj := mul(sqrt2, hypot(za.zB, By))
	alpha := add(bd.b.AddRel, bd.x.AddRel)
	absZ := mul(up(math.Sqrt(float64(2*h))), absAll)
	A = add(mul(add(1, alpha), Aj), alpha)
	B = add(add(mul(add(1, alpha), Bj), mul(alpha, d)), absZ)
	return A, B
}

// node bounds ffSampling at an inner node of level L >= 1 with targets t0,
// t1 (2^(L-1) complex values each); it returns the bounds of the merged
// samples z0, z1 and of the norms of D0 = t0 - z0 and D1 = t1 - z1 in R.
// z0 is sampled around the updated target t0' = t0 + D1 l10, not around
// t0, so D0 = (t0' - z0) - D1 l10: its norm is at most |t0' - z0| +
// max|l10| |D1|, where the left child bounds |t0' - z0|.
//
// parent and side locate the node in the tree (parent -1 at the root);
// splitA and splitB are the local error sources of the split that made
// t0 and t1 (their own roundings, not the propagated errors), which the
// path analysis weighs (zero at the root, whose inputs carry the target's
// errors instead).
func (bd *bounder) node(L uint, t0, t1 vec, path string, parent int, side byte, splitA, splitB [numStages]float64) (z0, z1 vec, d0, d1 float64, err error) {
	if bd.nodes >= len(bd.kv.ldl) {
		return z0, z1, 0, 0, fmt.Errorf("certify: more tree nodes than the key has")
	}
	lb, lx := bd.kv.ldl[bd.nodes], bd.kx.ldl[bd.nodes]
	bd.nodes++
	if len(lb) != 2*t1.h || len(lx) != 2*t1.h {
		return z0, z1, 0, 0, fmt.Errorf("certify: tree node %d has %d values, want %d", bd.nodes-1, len(lb), 2*t1.h)
	}
	idx := len(bd.recs)
	bd.recs = append(bd.recs, newNodeRec(lx, parent, side))
	if parent >= 0 {
		// (The root's inputs carry the target's errors, which the path
		// analysis weighs slot by slot: rootTerms.)
		bd.recs[idx].srcA, bd.recs[idx].srcB = splitA, splitB
	}
	z1, d1, err = bd.child(L, t1, path+"R", idx, 'R')
	if err != nil {
		return z0, z1, 0, 0, err
	}
	bd.norms = append(bd.norms, nodeNorms{L: int(L), iter: 1, t: t1.m, z: z1.m, d: d1})
	// z1's errors as the path analysis weighs them: the affine bound at
	// t1's largest norm where it is below the stages' sum, the stages
	// scaled in proportion (their shares are then indicative, the sum is
	// the bound).
	z1e := z1.e
	if zt, za := z1.tot(), add(mul(z1.zA, t1.m), z1.zB); z1.zAff && za < zt && zt > 0 {
		f := up(za / zt)
		for k := range z1e {
			z1e[k] = mul(z1e[k], f)
		}
	}
	// d = t1 - z1, rounded, whose norm in R is |D1|: its rounding scales
	// with |D1|, not with |t1| + |z1|.
	dv := vec{h: t1.h, m: d1}
	for k := range dv.e {
		dv.e[k] = add(t1.e[k], z1.e[k])
	}
	rd := vec{h: t1.h}
	bd.round(&rd, stUpdate, add(d1, dv.tot()), bd.b.AddRel, bd.x.AddRel, 1)
	for k := range dv.e {
		dv.e[k] = add(dv.e[k], rd.e[k])
		// The sources entering d besides t1's own errors: z1's (the
		// merges' roundings below) and d's rounding.
		bd.recs[idx].srcD[k] = add(z1e[k], rd.e[k])
	}
	lmax, le := bd.keyConst(lb, lx, stUpdate)
	p := bd.times(dv, lmax, le, 0, stKey, stUpdate, false)
	tb0 := vec{h: t0.h, m: add(t0.m, p.m)}
	for k := range tb0.e {
		tb0.e[k] = add(t0.e[k], p.e[k])
	}
	ru := vec{h: t0.h}
	bd.round(&ru, stUpdate, add(tb0.m, tb0.tot()), bd.b.AddRel, bd.x.AddRel, 1)
	// The product's own terms (the backend's l10 error times d', its
	// rounding) without the propagated d errors, and tb0's rounding.
	pl := bd.times(vec{h: dv.h, m: add(dv.m, dv.tot())}, lmax, le, 0, stKey, stUpdate, false)
	for k := range tb0.e {
		tb0.e[k] = add(tb0.e[k], ru.e[k])
		bd.recs[idx].srcP[k] = add(pl.e[k], ru.e[k])
	}
	z0, d0, err = bd.child(L, tb0, path+"L", idx, 'L')
	// z0's affine bound is in the norm of tb0 in R, at most |t0| + |p|
	// with |p| <= p.m: make it one in |t0|.
	z0.zB = add(z0.zB, mul(z0.zA, p.m))
	d0 = add(d0, mul(bd.recs[idx].lmax, d1))
	bd.norms = append(bd.norms, nodeNorms{L: int(L), iter: 0, t: t0.m, z: z0.m, d: d0})
	return z0, z1, d0, d1, err
}

// child samples target t of level L with the subtree below: split, the
// child node, merge.
func (bd *bounder) child(L uint, t vec, path string, parent int, side byte) (z vec, d float64, err error) {
	if L == 1 {
		// One complex value; split and merge are copies of its real and
		// imaginary parts, which the leaf samples in that order.
		zr, dr := bd.sample(t, path, parent, side, false)
		zi, di := bd.sample(t, path, parent, side, true)
		zc := vec{h: 1}
		d = hypot(dr, di)
		zc.m = math.Min(hypot(zr.m, zi.m), add(t.m, d))
		for k := range zc.e {
			zc.e[k] = hypot(zr.e[k], zi.e[k])
		}
		// Integers: their errors (conversions, if any) do not grow with
		// the target.
		zc.zA, zc.zB, zc.zAff = 0, zc.tot(), true
		bd.leaf++
		return zc, d, nil
	}
	a, b := bd.split(t)
	// The split's own roundings: the same split of a vector without
	// errors whose magnitude is that of the backend's t (R's norm plus
	// the errors), so every rounding is weighed as above.
	la, lb := bd.split(vec{h: t.h, m: add(t.m, t.tot())})
	za, zb, da, db, err := bd.node(L-1, a, b, path, parent, side, la.e, lb.e)
	if err != nil {
		return z, 0, err
	}
	z, d = bd.merge(za, zb, da, db, t)
	z.zA, z.zB = bd.mergeAff(za, zb, db, d, t.h)
	z.zAff = true
	return z, d, nil
}

// supportDev bounds |mu_B - z| at a sampler call: the sampler's support
// keeps the backend's centre within 19 of the integer it returns (see the
// package documentation).
const supportDev = 19

// sample records the bound at one sampler call whose centre is a
// component of the complex value c (so within c's bounds) and returns the
// bound of the integer sampled and of |c - z| in R: the sampler's support
// keeps the backend's centre within 19 of z (see the package
// documentation), so R's is within 19 + |c_R - c_B|.
func (bd *bounder) sample(c vec, path string, node int, side byte, im bool) (z vec, d float64) {
	tot := c.tot()
	bd.calls = append(bd.calls, callBound{bound: tot, e: c.e, leaf: bd.leaf, path: path, node: node, side: side, im: im})
	d = add(bd.support, tot)
	z = vec{h: 1, m: add(c.m, d)}
	if z.m >= math.Ldexp(1, bd.b.IntBits) || z.m >= math.Ldexp(1, bd.x.IntBits) {
		bd.round(&z, stMerge, z.m, bd.b.AddRel, bd.x.AddRel, 1)
	}
	return z, d
}
