package fndsa

import "github.com/fprlab/fprlab/internal/fxr"

// orthoNormBound is go-fn-dsa's bound on the squared norm of the
// orthogonalized vector, 1.17^2 * q = 16822.4121 as a fixed-point value
// (Falcon specification, section 3.8.2: ||(q adj(f)/(f adj(f) + g adj(g)),
// q adj(g)/(f adj(f) + g adj(g)))|| <= 1.17 sqrt(q)).
const orthoNormBound = 72251709809335

// checkOrthoNorm reports whether the Gram-Schmidt orthogonalized vector of
// the basis row (g, -f) has squared norm below orthoNormBound.
func checkOrthoNorm(logn uint, f, g []int8) bool {
	return int64(orthoNormSq(logn, f, g)) < orthoNormBound
}

// OrthoNormSq is orthoNormSq, for the 2026 draft's key generation
// (package fndsa2026), which computes the same norm against another bound.
func OrthoNormSq(logn uint, f, g []int8) fxr.Value { return orthoNormSq(logn, f, g) }

// orthoNormSq is the squared norm of (q adj(f)/(f adj(f) + g adj(g)),
// q adj(g)/(f adj(f) + g adj(g))), computed in fixed point (package fxr)
// as go-fn-dsa (commit e24833f, check_ortho_norm) does: the reciprocal of
// the norm in FFT form, then the products by q and by that reciprocal,
// back to coefficients, and the sum of squares.
func orthoNormSq(logn uint, f, g []int8) fxr.Value {
	n := 1 << logn
	hn := n >> 1
	a := make([]fxr.Value, n)
	b := make([]fxr.Value, n)
	for i := range n {
		a[i], b[i] = fxr.Of(int32(f[i])), fxr.Of(int32(g[i]))
	}
	fxr.FFT(logn, a)
	fxr.FFT(logn, b)
	q := fxr.Of(12289)
	for i := range hn {
		nrm := fxr.Mul(a[i], a[i]) + fxr.Mul(a[i+hn], a[i+hn]) + fxr.Mul(b[i], b[i]) + fxr.Mul(b[i+hn], b[i+hn])
		inv := fxr.Div(fxr.Of(1), nrm)
		// adjoint (conjugate), times q, times the real reciprocal
		a[i], a[i+hn] = fxr.Mul(fxr.Mul(a[i], q), inv), fxr.Mul(fxr.Mul(-a[i+hn], q), inv)
		b[i], b[i+hn] = fxr.Mul(fxr.Mul(b[i], q), inv), fxr.Mul(fxr.Mul(-b[i+hn], q), inv)
	}
	fxr.IFFT(logn, a)
	fxr.IFFT(logn, b)
	var sn fxr.Value
	for i := range n {
		sn += fxr.Mul(a[i], a[i]) + fxr.Mul(b[i], b[i])
	}
	return sn
}
