package falcon

import "github.com/fprlab/fprlab/arith"

// Polynomials in FFT representation.
//
// A real polynomial f of degree n = 2^logn modulo X^n+1 is represented by
// its values at the n/2 roots of X^n+1 whose imaginary part is positive
// (the other n/2 values are their conjugates). The n/2 complex values are
// stored in a slice of n elements: real parts in [0, n/2), imaginary parts
// in [n/2, n), in the bit-reversed order the reference uses. This is the
// layout of Falcon-impl-20211101 (fft.c), so that every function below
// performs the reference's floating-point operations in the reference's
// order: with a binary64 backend the results are bit-identical.
//
// Every operation goes through the backend a. Exact operations of the
// reference (negation of a factor, halving) are kept where the reference
// has them even when they could be folded away in real arithmetic: a
// backend whose rounding is not symmetric must see the same operation
// sequence as the reference.
//
// Unless stated otherwise, destination slices must not overlap source
// slices (the reference declares them restrict).

// cmul returns the complex product (xr + i xi)(yr + i yi) in the
// reference's operation order (FPC_MUL): re = xr*yr - xi*yi,
// im = xr*yi + xi*yr.
func cmul[F any, A arith.Arith[F]](a A, xr, xi, yr, yi F) (F, F) {
	re := a.Sub(a.Mul(xr, yr), a.Mul(xi, yi))
	im := a.Add(a.Mul(xr, yi), a.Mul(xi, yr))
	return re, im
}

// cdiv returns the complex quotient x/y as the reference computes it
// (FPC_DIV): y is replaced by conj(y)/|y|^2 with one inversion and two
// products, then multiplied by x. No division is performed.
func cdiv[F any, A arith.Arith[F]](a A, xr, xi, yr, yi F) (F, F) {
	m := a.Inv(a.Add(a.Sqr(yr), a.Sqr(yi)))
	yr = a.Mul(yr, m)
	yi = a.Mul(a.Neg(yi), m)
	return cmul(a, xr, xi, yr, yi)
}

// fft replaces f (n = 2^logn real coefficients) with its FFT
// representation (Zf(FFT)). logn must be at least 1.
//
// The transform applies logn-1 layers of butterflies; the first layer of a
// textbook FFT is implicit because the coefficients are real and the
// representation keeps only half of the roots. Layer u uses the twiddles
// for m = 2^u, taken from the backend's copy of the reference table
// (a.GM, entries 2(m+i) and 2(m+i)+1).
func fft[F any, A arith.Arith[F]](a A, f []F, logn uint) {
	if fusedFFT(a, f, logn) {
		return
	}
	if vecFFT(a, f, logn) {
		return
	}
	n := 1 << logn
	hn := n >> 1
	t := hn
	for u, m := uint(1), 2; u < logn; u, m = u+1, m<<1 {
		ht := t >> 1
		hm := m >> 1
		for i1, j1 := 0, 0; i1 < hm; i1, j1 = i1+1, j1+t {
			sr := a.GM((m + i1) << 1)
			si := a.GM(((m + i1) << 1) + 1)
			for j := j1; j < j1+ht; j++ {
				xr, xi := f[j], f[j+hn]
				yr, yi := cmul(a, f[j+ht], f[j+ht+hn], sr, si)
				f[j], f[j+hn] = a.Add(xr, yr), a.Add(xi, yi)
				f[j+ht], f[j+ht+hn] = a.Sub(xr, yr), a.Sub(xi, yi)
			}
		}
		t = ht
	}
}

// ifft is the inverse of fft (Zf(iFFT)): the butterflies run in reverse
// with conjugated twiddles, and the result is scaled by 2^(1-logn)
// (the constant arith.P2(logn); the reference multiplies, it does not
// divide).
func ifft[F any, A arith.Arith[F]](a A, f []F, logn uint) {
	if fusedIFFT(a, f, logn) {
		return
	}
	if vecIFFT(a, f, logn) {
		return
	}
	n := 1 << logn
	hn := n >> 1
	t := 1
	m := n
	for u := logn; u > 1; u-- {
		hm := m >> 1
		dt := t << 1
		for i1, j1 := 0, 0; j1 < hn; i1, j1 = i1+1, j1+dt {
			sr := a.GM((hm + i1) << 1)
			si := a.Neg(a.GM(((hm + i1) << 1) + 1))
			for j := j1; j < j1+t; j++ {
				xr, xi := f[j], f[j+hn]
				yr, yi := f[j+t], f[j+t+hn]
				f[j], f[j+hn] = a.Add(xr, yr), a.Add(xi, yi)
				xr, xi = a.Sub(xr, yr), a.Sub(xi, yi)
				f[j+t], f[j+t+hn] = cmul(a, xr, xi, sr, si)
			}
		}
		t = dt
		m = hm
	}
	if logn > 0 {
		ni := a.Const(arith.P2(logn))
		for u := range n {
			f[u] = a.Mul(f[u], ni)
		}
	}
}

// polyAdd sets x = x + y, coefficient-wise (either representation).
func polyAdd[F any, A arith.Arith[F]](a A, x, y []F, logn uint) {
	if vecPolyAdd(a, x, y, logn) {
		return
	}
	for u := range 1 << logn {
		x[u] = a.Add(x[u], y[u])
	}
}

// polySub sets x = x - y, coefficient-wise (either representation).
func polySub[F any, A arith.Arith[F]](a A, x, y []F, logn uint) {
	if vecPolySub(a, x, y, logn) {
		return
	}
	for u := range 1 << logn {
		x[u] = a.Sub(x[u], y[u])
	}
}

// polyNeg sets x = -x (either representation).
func polyNeg[F any, A arith.Arith[F]](a A, x []F, logn uint) {
	if vecPolyNeg(a, x, logn) {
		return
	}
	for u := range 1 << logn {
		x[u] = a.Neg(x[u])
	}
}

// polyAdjFFT replaces x with its adjoint (FFT representation): the adjoint
// of f(X) is f(1/X), whose FFT values are the complex conjugates.
func polyAdjFFT[F any, A arith.Arith[F]](a A, x []F, logn uint) {
	n := 1 << logn
	for u := n >> 1; u < n; u++ {
		x[u] = a.Neg(x[u])
	}
}

// polyMulFFT sets x = x * y (FFT representation).
func polyMulFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) {
	if fusedPolyMulFFT(a, x, y, logn) {
		return
	}
	if vecPolyMulFFT(a, x, y, logn) {
		return
	}
	hn := 1 << logn >> 1
	for u := range hn {
		x[u], x[u+hn] = cmul(a, x[u], x[u+hn], y[u], y[u+hn])
	}
}

// polyMuladjFFT sets x = x * adj(y) (FFT representation).
func polyMuladjFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) {
	if fusedPolyMuladjFFT(a, x, y, logn) {
		return
	}
	if vecPolyMuladjFFT(a, x, y, logn) {
		return
	}
	hn := 1 << logn >> 1
	for u := range hn {
		x[u], x[u+hn] = cmul(a, x[u], x[u+hn], y[u], a.Neg(y[u+hn]))
	}
}

// polyMulselfadjFFT sets x = x * adj(x) (FFT representation). The result
// is self-adjoint, hence real at every root: the imaginary parts are set
// to zero rather than computed.
func polyMulselfadjFFT[F any, A arith.Arith[F]](a A, x []F, logn uint) {
	if fusedPolyMulselfadjFFT(a, x, logn) {
		return
	}
	if vecPolyMulselfadjFFT(a, x, logn) {
		return
	}
	hn := 1 << logn >> 1
	zero := a.Const(arith.Zero)
	for u := range hn {
		x[u] = a.Add(a.Sqr(x[u]), a.Sqr(x[u+hn]))
		x[u+hn] = zero
	}
}

// polyMulconst sets x = c * x (either representation).
func polyMulconst[F any, A arith.Arith[F]](a A, x []F, c F, logn uint) {
	if vecPolyMulconst(a, x, c, logn) {
		return
	}
	for u := range 1 << logn {
		x[u] = a.Mul(x[u], c)
	}
}

// polyInvnorm2FFT sets d = 1/(x*adj(x) + y*adj(y)) (FFT representation).
// The value is real at every root, so only the real parts d[0:n/2] are
// written; the imaginary half of d is left untouched and callers treat
// d as "auto-adjoint" (see polyMulAutoadjFFT).
func polyInvnorm2FFT[F any, A arith.Arith[F]](a A, d, x, y []F, logn uint) {
	if fusedPolyInvnorm2FFT(a, d, x, y, logn) {
		return
	}
	hn := 1 << logn >> 1
	for u := range hn {
		nx := a.Add(a.Sqr(x[u]), a.Sqr(x[u+hn]))
		ny := a.Add(a.Sqr(y[u]), a.Sqr(y[u+hn]))
		d[u] = a.Inv(a.Add(nx, ny))
	}
}

// polyAddMuladjFFT sets d = F*adj(f) + G*adj(g) (FFT representation); the
// argument order is the reference's (d, F, G, f, g).
func polyAddMuladjFFT[F any, A arith.Arith[F]](a A, d, bigF, bigG, f, g []F, logn uint) {
	if fusedPolyAddMuladjFFT(a, d, bigF, bigG, f, g, logn) {
		return
	}
	hn := 1 << logn >> 1
	for u := range hn {
		ar, ai := cmul(a, bigF[u], bigF[u+hn], f[u], a.Neg(f[u+hn]))
		br, bi := cmul(a, bigG[u], bigG[u+hn], g[u], a.Neg(g[u+hn]))
		d[u] = a.Add(ar, br)
		d[u+hn] = a.Add(ai, bi)
	}
}

// polyMulAutoadjFFT sets x = x * y where y is auto-adjoint (real at every
// root): only y[0:n/2] is read.
func polyMulAutoadjFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) {
	hn := 1 << logn >> 1
	for u := range hn {
		x[u] = a.Mul(x[u], y[u])
		x[u+hn] = a.Mul(x[u+hn], y[u])
	}
}

// polyDivAutoadjFFT sets x = x / y where y is auto-adjoint: one inversion
// per root, then two products.
func polyDivAutoadjFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) {
	hn := 1 << logn >> 1
	for u := range hn {
		ib := a.Inv(y[u])
		x[u] = a.Mul(x[u], ib)
		x[u+hn] = a.Mul(x[u+hn], ib)
	}
}

// ldlStep is one root of the LDL decomposition of the 2x2 self-adjoint
// matrix [[g00, g01], [adj(g01), g11]]: it returns
//
//	mu  = g01 / g00
//	d11 = g11 - mu * adj(g01)
//
// and l10 = adj(mu), in the reference's operation order.
func ldlStep[F any, A arith.Arith[F]](a A, g00r, g00i, g01r, g01i, g11r, g11i F) (d11r, d11i, l10r, l10i F) {
	mur, mui := cdiv(a, g01r, g01i, g00r, g00i)
	xr, xi := cmul(a, mur, mui, g01r, a.Neg(g01i))
	return a.Sub(g11r, xr), a.Sub(g11i, xi), mur, a.Neg(mui)
}

// polyLDLFFT computes the LDL decomposition of the self-adjoint matrix
// G = [[g00, g01], [adj(g01), g11]] in place (FFT representation):
// g01 receives L's off-diagonal entry l10 and g11 receives D's d11
// (d00 = g00 is unchanged).
func polyLDLFFT[F any, A arith.Arith[F]](a A, g00, g01, g11 []F, logn uint) {
	if fusedPolyLDLFFT(a, g00, g01, g11, logn) {
		return
	}
	if vecPolyLDLFFT(a, g00, g01, g11, logn) {
		return
	}
	hn := 1 << logn >> 1
	for u := range hn {
		g11[u], g11[u+hn], g01[u], g01[u+hn] = ldlStep(a,
			g00[u], g00[u+hn], g01[u], g01[u+hn], g11[u], g11[u+hn])
	}
}

// polyLDLmvFFT is polyLDLFFT writing its results to separate outputs d11
// and l10; the inputs are not modified and may be the same slice (the
// ffLDL tree calls it with g11 = g00).
func polyLDLmvFFT[F any, A arith.Arith[F]](a A, d11, l10, g00, g01, g11 []F, logn uint) {
	if fusedPolyLDLmvFFT(a, d11, l10, g00, g01, g11, logn) {
		return
	}
	if vecPolyLDLmvFFT(a, d11, l10, g00, g01, g11, logn) {
		return
	}
	hn := 1 << logn >> 1
	for u := range hn {
		d11[u], d11[u+hn], l10[u], l10[u+hn] = ldlStep(a,
			g00[u], g00[u+hn], g01[u], g01[u+hn], g11[u], g11[u+hn])
	}
}

// polySplitFFT (splitfft, Falcon specification v1.2, Algorithm 1) splits
// f (degree n, FFT representation) into f0 and f1
// (degree n/2 each) with f(X) = f0(X^2) + X f1(X^2), working directly on
// the FFT values: for each pair of roots (w, -w),
//
//	f0(w^2) = (f(w) + f(-w)) / 2
//	f1(w^2) = (f(w) - f(-w)) / (2w)
//
// where dividing by w is a product by conj(w) from the twiddle table.
// For logn = 1 there is a single complex value and the split is a copy.
func polySplitFFT[F any, A arith.Arith[F]](a A, f0, f1, f []F, logn uint) {
	if fusedPolySplitFFT(a, f0, f1, f, logn) {
		return
	}
	if vecPolySplitFFT(a, f0, f1, f, logn) {
		return
	}
	n := 1 << logn
	hn := n >> 1
	qn := hn >> 1
	f0[0] = f[0]
	f1[0] = f[hn]
	for u := range qn {
		ar, ai := f[u<<1], f[(u<<1)+hn]
		br, bi := f[(u<<1)+1], f[(u<<1)+1+hn]

		f0[u] = a.Half(a.Add(ar, br))
		f0[u+qn] = a.Half(a.Add(ai, bi))

		tr, ti := a.Sub(ar, br), a.Sub(ai, bi)
		tr, ti = cmul(a, tr, ti, a.GM((u+hn)<<1), a.Neg(a.GM(((u+hn)<<1)+1)))
		f1[u] = a.Half(tr)
		f1[u+qn] = a.Half(ti)
	}
}

// polyMergeFFT (mergefft, Algorithm 2) is the inverse of polySplitFFT: f = f0(X^2) + X f1(X^2),
// i.e. f(w) = f0(w^2) + w f1(w^2) and f(-w) = f0(w^2) - w f1(w^2).
func polyMergeFFT[F any, A arith.Arith[F]](a A, f, f0, f1 []F, logn uint) {
	if fusedPolyMergeFFT(a, f, f0, f1, logn) {
		return
	}
	if vecPolyMergeFFT(a, f, f0, f1, logn) {
		return
	}
	n := 1 << logn
	hn := n >> 1
	qn := hn >> 1
	f[0] = f0[0]
	f[hn] = f1[0]
	for u := range qn {
		ar, ai := f0[u], f0[u+qn]
		br, bi := cmul(a, f1[u], f1[u+qn], a.GM((u+hn)<<1), a.GM(((u+hn)<<1)+1))
		f[u<<1], f[(u<<1)+hn] = a.Add(ar, br), a.Add(ai, bi)
		f[(u<<1)+1], f[(u<<1)+1+hn] = a.Sub(ar, br), a.Sub(ai, bi)
	}
}
