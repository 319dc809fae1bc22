package certify

import (
	"math"
	"math/big"
)

// The path analysis (step 7 of the package documentation).
//
// The norm analysis of bound.go carries, for every vector, one bound on
// the norm of its error and multiplies it by the largest modulus of l10
// at every update, so the error that reaches a sampler's centre is
// bounded by products of operator norms along the way down. But every
// centre is a fixed real-linear function of each error source: given the
// integer samples (the same in B, X and R), ffSampling below a node is,
// in R, affine in the node's target -- splits are linear, the update
// tb0 = t0 + (t1 - z1) l10 is linear in (t0, t1) with z1 fixed, and
// nothing else reaches a centre. So for each sampler call this file
// computes the representer g of that function on the vector where each
// error source enters (a real-linear functional x -> Re sum conj(g_j)
// x_j, whose norm is |g|), and bounds the source's contribution by
// |g| times the source's norm bound. |g| is the exact norm of the whole
// path's map, not the product of per-step bounds: the l10 values meet the
// functional slot by slot, where the norm analysis takes their maximum.

// nodeRec is one inner node of the tree for the path analysis: where it
// sits, R's l10 (the exact side's values) rounded to float64 with an
// upper bound of their modulus, and the norm bounds, per stage, of the
// local error sources that enter it:
//
//   - srcA, srcB: entering t0 and t1 -- the own roundings of the split
//     that made them (the propagated errors are carried by the
//     functional instead); zero at the root, whose targets' errors
//     rootTerms (target.go) weighs slot by slot;
//   - srcD: entering d = t1 - z1 besides t1's errors: the merged z1's
//     errors (which the merges' roundings below make; z1 is the same
//     integers on every side) and d's rounding;
//   - srcP: entering tb0 directly: the product's own terms (the backend's
//     l10 errors times d', the product's rounding) and tb0's rounding.
type nodeRec struct {
	parent int  // index in recs, -1 at the root
	side   byte // which child of parent this node's targets come from
	l      []complex128
	lmax   float64
	srcA   [numStages]float64
	srcB   [numStages]float64
	srcD   [numStages]float64
	srcP   [numStages]float64
}

func newNodeRec(lx []*big.Float, parent int, side byte) nodeRec {
	h := len(lx) / 2
	r := nodeRec{parent: parent, side: side, l: make([]complex128, h)}
	for u := range h {
		re, _ := lx[u].Float64()
		im, _ := lx[u+h].Float64()
		r.l[u] = complex(re, im)
	}
	r.lmax, _ = keyConst(lx, lx)
	return r
}

// normUp returns an upper bound of the Euclidean norm of g.
func normUp(g []complex128) float64 {
	s := 0.0
	for _, v := range g {
		s = add(s, add(mul(real(v), real(v)), mul(imag(v), imag(v))))
	}
	return up(math.Sqrt(s))
}

// Rounding of the functionals themselves. They are computed in float64
// (round to nearest); beside each computed g~ the analysis keeps a bound
// delta on |g~ - g|, so |g| <= |g~| + delta.
//
//   - conj(l~) g~ with l~ the float64 rounding of l (|l~ - l| <= 2^-53 |l|
//     per value, both components rounded to nearest): the complex product
//     errs by at most (sqrt2 2^-53 + 2^-53 (1 + sqrt2 2^-53)) |l~||g~| <
//     2^-51.7 |l~||g~|, and |(l~ - l) g~| <= 2^-53 |l||g~|; in all less
//     than 2^-51 |l||g~| per value, so the norm of the new error is at most
//     lmax (2^-51 |g~| + delta).
//   - merge(ga, gb)/2 (a + w b and a - w b, halved): w~ is within 2^-53 of
//     the true root (the exact side's twiddles, within 2^-256 of it,
//     rounded to nearest); the product errs by at most 2^-51.7 |b|, the
//     sums by 2^-53 (|a| + |b|)(1 + 2^-51) in modulus; with the twiddle's
//     error, below 2^-51 (|a| + |b|) per output before halving, whose norm
//     over both outputs is at most sqrt2 2^-52 (|ga~| + |gb~|) <= 2^-51
//     (|ga~| + |gb~|). The propagated part is merge/2 of the errors, a
//     linear map of norm 1/sqrt2 on the pair (|(x + w y, x - w y)|^2 =
//     2 (|x|^2 + |y|^2)).
//   - absTiny per value and step covers subnormal results (2^-1074 each),
//     far above them: the functionals' values stay far from underflow.
//
// invSqrt2 is 1/sqrt2 rounded up.
var invSqrt2 = up(math.Sqrt2 / 2)

const (
	funcRel = 0x1p-51
	absTiny = 0x1p-900
)

// pathBounds computes the path bound of every sampler call and keeps it
// where it is below the norm bound (both are upper bounds of the same
// error).
func (bd *bounder) pathBounds() {
	if bd.gm64 == nil {
		bd.gm64 = make([]float64, len(bd.kx.gm))
		for k, v := range bd.kx.gm {
			bd.gm64[k], _ = v.Float64()
		}
	}
	var ga, gb, g, next []complex128
	for i := range bd.calls {
		c := &bd.calls[i]
		g = append(g[:0], 1)
		if c.im {
			g[0] = 1i // Re(conj(i) x) = Im x
		}
		delta := 0.0
		node, side := c.node, c.side
		var e [numStages]float64
		for {
			r := &bd.recs[node]
			h := len(r.l)
			ng := normUp(g)
			if len(g) != h {
				panic("certify: path analysis: functional and node sizes differ")
			}
			var da, db float64
			if side == 'R' {
				// The centre depends on t1 alone.
				ga = ga[:0]
				gb = append(gb[:0], g...)
				db = delta
				nb := add(ng, db)
				for k := range e {
					e[k] = add(e[k], mul(nb, r.srcB[k]))
				}
			} else {
				// tb0 = t0 + (t1 - z1) l10: the functional on t0 is g, on
				// t1 (and on d) conj(l10) g.
				ga = append(ga[:0], g...)
				da = delta
				gb = gb[:0]
				for u, v := range g {
					l := r.l[u]
					gb = append(gb, complex(
						float64(real(l)*real(v))+float64(imag(l)*imag(v)),
						float64(real(l)*imag(v))-float64(imag(l)*real(v))))
				}
				db = add(mul(r.lmax, add(mul(funcRel, ng), delta)), mul(float64(h), absTiny))
				na, nb := add(ng, da), add(normUp(gb), db)
				for k := range e {
					e[k] = add(e[k], add(mul(na, add(r.srcA[k], r.srcP[k])), mul(nb, add(r.srcB[k], r.srcD[k]))))
				}
			}
			if r.parent < 0 {
				t := bd.rootTerms(ga, gb, da, db)
				for k := range e {
					e[k] = add(e[k], t[k])
				}
				break
			}
			// Pull back through the split that made (t0, t1) from the
			// parent's child target T of 2h values: f0 = (a + b)/2,
			// f1 = (a - b) conj(w)/2 for the pair (a, b) = (T_2u,
			// T_2u+1), so the functional on T is (g0 + w g1)/2 on a and
			// (g0 - w g1)/2 on b -- merge (polyMergeFFT's layout and
			// twiddles) halved.
			nga, ngb := normUp(ga), normUp(gb)
			next = next[:0]
			for u := range h {
				j := (u + 2*h) << 1
				w := complex(bd.gm64[j], bd.gm64[j+1])
				var a, b complex128
				if len(ga) > 0 {
					a = ga[u]
				}
				b = gb[u]
				wbr := float64(real(w)*real(b)) - float64(imag(w)*imag(b))
				wbi := float64(real(w)*imag(b)) + float64(imag(w)*real(b))
				next = append(next,
					complex((real(a)+wbr)/2, (imag(a)+wbi)/2),
					complex((real(a)-wbr)/2, (imag(a)-wbi)/2))
			}
			delta = add(add(mul(hypot(da, db), invSqrt2), mul(funcRel, add(nga, ngb))), mul(float64(2*h), absTiny))
			g, next = next, g
			side, node = r.side, r.parent
		}
		tot := 0.0
		for _, x := range e {
			tot = add(tot, x)
		}
		if tot < c.bound {
			c.bound, c.e = tot, e
		}
	}
}
