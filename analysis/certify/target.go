package certify

import (
	"math"
	"math/big"
)

// The target t = (t0, t1) = (FFT(hm) b11 / q, -FFT(hm) b01 / q) (steps 5
// and 7 of the package documentation).

// q is Falcon's modulus.
const q = 12289

// target returns the norm bounds of (t0, t1) for every hashed point hm in
// [0, q)^n, and records in bd.tgt what the path analysis needs to weigh
// the same errors slot by slot (rootTerms). hm has norm at most sqrt(n)
// (q-1); Of is exact. Each of the logn - 1 layers of the FFT is a
// butterfly of the twiddled half of the vector with the other half,
// |(x, y w)| = |(x, y)| in R.
func (bd *bounder) target(logn uint) (t0, t1 vec) {
	n := 1 << logn
	hn := n >> 1
	f := vec{h: hn, m: mul(up(math.Sqrt(float64(n))), q-1)}
	for u := uint(1); u < logn; u++ {
		// (x, y w') bounded as a whole: twiddling f's bound covers the
		// half y (the errors e_y w' + y (w' - w) + rounding), and x is
		// untouched; in R |(x, y w)| = |f|.
		v := bd.twiddled(f, stTarget)
		v.m = f.m
		f = bd.butterflyJoint(v, stTarget)
	}
	iqUp := up(1.0 / q)
	tr := &bd.tgt
	tr.fe, tr.fmag = f.e, add(f.m, f.tot())
	// The absolute terms of both products, per unit of the model's Abs,
	// in norm: three roundings per complex value in the complex product
	// (scaled by 1/q after it, and by the second product's relative
	// error), one in the product by 1/q.
	absN := up(math.Sqrt(float64(2 * hn)))
	q2 := add(iqUp, math.Max(bd.invQB, bd.invQX))
	absB := mul(absN, add(mul(3, add(iqUp, mul(bd.t.MulRel, q2))), 1))
	absX := mul(absN, add(mul(3, add(iqUp, mul(bd.x.MulRel, q2))), 1))
	for s, key := range [2][2][]*big.Float{{bd.kv.b11, bd.kx.b11}, {bd.kv.b01, bd.kx.b01}} {
		cmax, ce := bd.keyConst(key[0], key[1], stTarget)
		p := bd.times(f, cmax, ce, 0, stKey, stTarget, false)
		t := bd.times(p, iqUp, bd.invQB, bd.invQX, stConst, stTarget, true)
		tr.b[s], tr.bmax[s], tr.ce[s] = complexes(key[1]), cmax, ce
		// The terms that do not scale with a slot's |b|: the backend's
		// errors in b (|F'| ce, then times 1/q) and in 1/q (the product's
		// norm, at most p.m + p.tot(), times the side's error of 1/q),
		// and the absolute terms.
		r := &tr.rest[s]
		xs2 := add(p.m, p.tot())
		r[stKey] = mul(iqUp, mul(tr.fmag, ce))
		r[stConst] = mul(xs2, bd.invQB)
		r[stExact] = add(mul(xs2, bd.invQX), mul(absX, bd.x.Abs))
		r[stTarget] = mul(absB, bd.t.Abs)
		if bd.b.Target != nil {
			// A plan computing the target in another format than
			// ffSampling: ffSampling's first operations on t_s convert it
			// into their format, one rounding of each component, at
			// most ConvRel |t_s| + Abs sqrt(2h) in norm.
			c := add(mul(bd.b.ConvRel, add(t.m, t.tot())), mul(absN, bd.b.Abs))
			t.e[stTarget] = add(t.e[stTarget], c)
			r[stTarget] = add(r[stTarget], c)
		}
		if s == 0 {
			t0 = t
		} else {
			t1 = t
		}
	}
	return t0, t1
}

// targetRec is what rootTerms needs of the target.
type targetRec struct {
	// fe bounds the norm of FFT(hm)'s errors, per stage (both sides);
	// fmag bounds |FFT(hm)| on either side (R's norm plus the errors).
	fe   [numStages]float64
	fmag float64
	// b[0] and b[1] are R's b11 (t0's factor) and b01 (t1's), rounded
	// to float64; bmax bounds their moduli, ce the moduli of the
	// backend's differences from them.
	b        [2][]complex128
	bmax, ce [2]float64
	// rest[s] bounds the norm of the terms of t_s's error that do not
	// scale with a slot's |b| (see target).
	rest [2][numStages]float64
}

// complexes returns the complex values of a polynomial in FFT form (real
// parts in the first half, imaginary parts in the second), each part
// rounded to nearest float64.
func complexes(v []*big.Float) []complex128 {
	h := len(v) / 2
	c := make([]complex128, h)
	for u := range h {
		re, _ := v[u].Float64()
		im, _ := v[u+h].Float64()
		c[u] = complex(re, im)
	}
	return c
}

// absUp returns an upper bound of |c|.
func absUp(c complex128) float64 { return hypot(real(c), imag(c)) }

// rootTerms bounds, per stage, the contribution of the target's errors to
// a centre whose functional on the root's targets (t0, t1) is (ga, gb)
// (ga nil: the centre depends on t1 alone), computed as ga~, gb~ within
// da, db in norm (path.go). The norm analysis weighs t0's errors by
// |ga| max|b11| and t1's by |gb| max|b01|; here the terms that scale with
// b are weighed slot by slot:
//
//   - FFT(hm)'s errors dF reach t0 and t1 through the same products: in R
//     the contribution is Re sum conj(ga_u) b11_u dF_u / q - conj(gb_u)
//     b01_u dF_u / q = Re sum conj(G_u) dF_u / q with G_u = ga_u
//     conj(b11_u) - gb_u conj(b01_u), at most |G| |dF| / q
//     (Cauchy-Schwarz), both halves of the functional combined. (The
//     backend multiplies by its own b' and 1/q': x'c' - xc = (x' - x)c +
//     x'(c' - c), the second term in rest.)
//   - the complex products' roundings, at most cmulRel |F'_u| |b'_u| per
//     slot, then the products by 1/q', whose roundings are at most MulRel
//     |x'_u| |1/q'| with |x'_u| <= (1 + cmulRel) |F'_u| |b'_u| (plus
//     absolute terms, in rest): their sum over the slots weighed by
//     |g_u| is at most |F'| W with W = |(|g_u| (|b_u| + ce))_u|.
//   - the rest (rest[s]) by the norm of the functional's half, as before.
//
// G~ is computed in float64 from ga~, gb~ and b~ (within 2^-53 |b| per
// component): each product errs by less than funcRel |b| |g~| (path.go),
// the difference's rounding by 2^-53 (|a| + |b|) per component, so
// |G~ - G| <= bmax0 (2 funcRel |ga~| + da) + bmax1 (2 funcRel |gb~| + db)
// (plus absTiny per value); W~ computed with |b~| (1 + funcRel) >= |b| and
// the true g within da of g~ gives W <= W~ + da (bmax + ce) (Minkowski).
func (bd *bounder) rootTerms(ga, gb []complex128, da, db float64) (e [numStages]float64) {
	tr := &bd.tgt
	h := len(gb)
	if len(tr.b[0]) != h || (len(ga) != 0 && len(ga) != h) {
		panic("certify: path analysis: functional and target sizes differ")
	}
	var sG float64
	var sW [2]float64
	for u := range h {
		var a complex128
		if len(ga) > 0 {
			a = ga[u]
		}
		b := gb[u]
		c0, c1 := tr.b[0][u], tr.b[1][u]
		// a conj(c0) - b conj(c1), each product written so that it
		// cannot be fused.
		pr := float64(real(a)*real(c0)) + float64(imag(a)*imag(c0))
		pi := float64(imag(a)*real(c0)) - float64(real(a)*imag(c0))
		qr := float64(real(b)*real(c1)) + float64(imag(b)*imag(c1))
		qi := float64(imag(b)*real(c1)) - float64(real(b)*imag(c1))
		gr, gi := pr-qr, pi-qi
		sG = add(sG, add(mul(gr, gr), mul(gi, gi)))
		w0 := mul(absUp(a), add(mul(absUp(c0), 1+funcRel), tr.ce[0]))
		w1 := mul(absUp(b), add(mul(absUp(c1), 1+funcRel), tr.ce[1]))
		sW[0] = add(sW[0], mul(w0, w0))
		sW[1] = add(sW[1], mul(w1, w1))
	}
	nga, ngb := normUp(ga), normUp(gb)
	dG := add(add(mul(tr.bmax[0], add(mul(2*funcRel, nga), da)), mul(tr.bmax[1], add(mul(2*funcRel, ngb), db))),
		mul(float64(2*h), absTiny))
	iqUp := up(1.0 / q)
	g := mul(add(up(math.Sqrt(sG)), dG), iqUp)
	for k := range e {
		e[k] = mul(g, tr.fe[k])
	}
	q2 := add(iqUp, math.Max(bd.invQB, bd.invQX))
	rel := func(m Model) float64 {
		c := cmulRel(m)
		return add(mul(iqUp, c), mul(mul(m.MulRel, q2), add(1, c)))
	}
	relB, relX := rel(bd.t), rel(bd.x)
	n := [2]float64{add(nga, da), add(ngb, db)}
	d := [2]float64{da, db}
	for s := range 2 {
		w := add(up(math.Sqrt(sW[s])), mul(d[s], add(tr.bmax[s], tr.ce[s])))
		fw := mul(tr.fmag, w)
		e[stTarget] = add(e[stTarget], mul(relB, fw))
		e[stExact] = add(e[stExact], mul(relX, fw))
		for k := range e {
			e[k] = add(e[k], mul(n[s], tr.rest[s][k]))
		}
	}
	return e
}
