package falcon

import "github.com/fprlab/fprlab/arith"

// Fused multiply-add hooks of the FFT-domain kernels.
//
// The reference's AVX2 build (Falcon-impl-20211101 fft.c with
// FALCON_AVX2=1 and FALCON_FMA=1) computes its wide kernels with
// _mm256_fmadd_pd / _mm256_fmsub_pd, and gcc contracts one more product
// into a vfmaddsub in poly_split_fft's n = 4 branch: a product inside a
// fused multiply-add is not rounded before the sum, so that build signs
// differently from the plain one about once in ten thousand signatures.
// An arithmetic that implements arith.Fused (the native-fma backend)
// wants Falcon to fuse exactly there; the hooks below do it. Each kernel
// of fft.go calls its hook first and runs its own loop only when the hook
// returns false: when the arithmetic has no FMA, or for the sizes at
// which that build runs its scalar code (which it does not fuse).
//
// Where that build fuses, the hooks follow its operation order, which
// is not always the scalar code's: in a complex product one of the two
// products is fused and which one depends on the kernel (fcmul and the
// kernels' own lines say which), and the inverse FFT and the LDL step
// compute negated intermediates (exact in binary64) so that their FMSUBs
// line up. Without fusing, every one of these schedules gives the scalar
// code's values bit for bit (negation and halving are exact), which is
// why the plain and AVX2 builds without FMA sign identically.
//
// Which sizes each build vectorises (and thus fuses): the FFT's layers
// whose half-span is at least 4 and the inverse FFT's whose span is at
// least 4; the coefficient-wise products, the LDL steps, split and the
// norms for n >= 8; merge for n >= 16; split again at n = 4 (the
// contracted scalar product). The native, emu64 and triword copies of
// the hooks are stubs returning false (monogen's stubs), so they cost
// those instances nothing.

// fusedOf returns a's fused multiply-add, if it has one.
func fusedOf[F any, A arith.Arith[F]](a A) (arith.Fused[F], bool) {
	fu, ok := any(a).(arith.Fused[F])
	return fu, ok
}

// fcmul is the complex product (xr + i xi)(yr + i yi) with the first
// product of each part fused, as _mm256 FMSUB/FMADD(x, y, x'*y') compute
// it: re = fma(xr, yr, -(xi*yi)), im = fma(xr, yi, xi*yr).
func fcmul[F any, A arith.Arith[F]](a A, fu arith.Fused[F], xr, xi, yr, yi F) (F, F) {
	re := fu.FMA(xr, yr, a.Neg(a.Mul(xi, yi)))
	im := fu.FMA(xr, yi, a.Mul(xi, yr))
	return re, im
}

// fusedFFT is fft with the butterflies of layers whose half-span ht is at
// least 4 fused: y = s*z by fcmul.
func fusedFFT[F any, A arith.Arith[F]](a A, f []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok {
		return false
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
				var yr, yi F
				if ht >= 4 {
					yr, yi = fcmul(a, fu, f[j+ht], f[j+ht+hn], sr, si)
				} else {
					yr, yi = cmul(a, f[j+ht], f[j+ht+hn], sr, si)
				}
				f[j], f[j+hn] = a.Add(xr, yr), a.Add(xi, yi)
				f[j+ht], f[j+ht+hn] = a.Sub(xr, yr), a.Sub(xi, yi)
			}
		}
		t = ht
	}
	return true
}

// fusedIFFT is ifft with the butterflies of layers whose span t is at
// least 4 in the wide kernel's form: with d = y - x (real part) and
// e = x - y (imaginary part), and the twiddle s = GM (not conjugated),
// f[j+t] = fma(e, s_im, -(d*s_re)) + i fma(d, s_im, e*s_re), which is
// (x - y) conj(s) with the product by s_im fused.
func fusedIFFT[F any, A arith.Arith[F]](a A, f []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok {
		return false
	}
	n := 1 << logn
	hn := n >> 1
	t := 1
	m := n
	for u := logn; u > 1; u-- {
		hm := m >> 1
		dt := t << 1
		for i1, j1 := 0, 0; j1 < hn; i1, j1 = i1+1, j1+dt {
			gr := a.GM((hm + i1) << 1)
			gi := a.GM(((hm + i1) << 1) + 1)
			if t >= 4 {
				for j := j1; j < j1+t; j++ {
					xr, xi := f[j], f[j+hn]
					yr, yi := f[j+t], f[j+t+hn]
					f[j], f[j+hn] = a.Add(xr, yr), a.Add(xi, yi)
					d, e := a.Sub(yr, xr), a.Sub(xi, yi)
					f[j+t] = fu.FMA(e, gi, a.Neg(a.Mul(d, gr)))
					f[j+t+hn] = fu.FMA(d, gi, a.Mul(e, gr))
				}
				continue
			}
			si := a.Neg(gi)
			for j := j1; j < j1+t; j++ {
				xr, xi := f[j], f[j+hn]
				yr, yi := f[j+t], f[j+t+hn]
				f[j], f[j+hn] = a.Add(xr, yr), a.Add(xi, yi)
				xr, xi = a.Sub(xr, yr), a.Sub(xi, yi)
				f[j+t], f[j+t+hn] = cmul(a, xr, xi, gr, si)
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
	return true
}

// fusedPolyMulFFT is polyMulFFT for n >= 8: x = fcmul(x, y).
func fusedPolyMulFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	for u := range hn {
		x[u], x[u+hn] = fcmul(a, fu, x[u], x[u+hn], y[u], y[u+hn])
	}
	return true
}

// fusedPolyMuladjFFT is polyMuladjFFT for n >= 8: x * conj(y) as
// re = fma(xr, yr, xi*yi), im = fma(xi, yr, -(xr*yi)).
func fusedPolyMuladjFFT[F any, A arith.Arith[F]](a A, x, y []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	for u := range hn {
		xr, xi, yr, yi := x[u], x[u+hn], y[u], y[u+hn]
		x[u] = fu.FMA(xr, yr, a.Mul(xi, yi))
		x[u+hn] = fu.FMA(xi, yr, a.Neg(a.Mul(xr, yi)))
	}
	return true
}

// fnorm2 is |x|^2 = fma(xr, xr, xi*xi).
func fnorm2[F any, A arith.Arith[F]](a A, fu arith.Fused[F], xr, xi F) F {
	return fu.FMA(xr, xr, a.Mul(xi, xi))
}

// fusedPolyMulselfadjFFT is polyMulselfadjFFT for n >= 8.
func fusedPolyMulselfadjFFT[F any, A arith.Arith[F]](a A, x []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	zero := a.Const(arith.Zero)
	for u := range hn {
		x[u] = fnorm2(a, fu, x[u], x[u+hn])
		x[u+hn] = zero
	}
	return true
}

// fusedPolyInvnorm2FFT is polyInvnorm2FFT for n >= 8.
func fusedPolyInvnorm2FFT[F any, A arith.Arith[F]](a A, d, x, y []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	for u := range hn {
		d[u] = a.Inv(a.Add(fnorm2(a, fu, x[u], x[u+hn]), fnorm2(a, fu, y[u], y[u+hn])))
	}
	return true
}

// fusedPolyAddMuladjFFT is polyAddMuladjFFT for n >= 8, each product by an
// adjoint as in fusedPolyMuladjFFT.
func fusedPolyAddMuladjFFT[F any, A arith.Arith[F]](a A, d, bigF, bigG, f, g []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	for u := range hn {
		Fr, Fi, fr, fi := bigF[u], bigF[u+hn], f[u], f[u+hn]
		Gr, Gi, gr, gi := bigG[u], bigG[u+hn], g[u], g[u+hn]
		ar := fu.FMA(Fr, fr, a.Mul(Fi, fi))
		ai := fu.FMA(Fi, fr, a.Neg(a.Mul(Fr, fi)))
		br := fu.FMA(Gr, gr, a.Mul(Gi, gi))
		bi := fu.FMA(Gi, gr, a.Neg(a.Mul(Gr, gi)))
		d[u] = a.Add(ar, br)
		d[u+hn] = a.Add(ai, bi)
	}
	return true
}

// fldlStep is ldlStep in the wide kernel's form: w = g00 / |g00|^2 (not
// conjugated), l10 = adj(mu) computed directly as
// (fma(g01r, wr, g01i*wi), fma(g01r, wi, -(g01i*wr))), then
// xi = mu adj(g01) from l10 as (fma(l10r, g01r, -(l10i*g01i)),
// -fma(l10i, g01r, l10r*g01i)), and d11 = g11 - xi.
func fldlStep[F any, A arith.Arith[F]](a A, fu arith.Fused[F], g00r, g00i, g01r, g01i, g11r, g11i F) (d11r, d11i, l10r, l10i F) {
	t := a.Inv(fnorm2(a, fu, g00r, g00i))
	wr, wi := a.Mul(g00r, t), a.Mul(g00i, t)
	l10r = fu.FMA(g01r, wr, a.Mul(g01i, wi))
	l10i = fu.FMA(g01r, wi, a.Neg(a.Mul(g01i, wr)))
	xr := fu.FMA(l10r, g01r, a.Neg(a.Mul(l10i, g01i)))
	xi := fu.FMA(l10i, g01r, a.Mul(l10r, g01i))
	return a.Sub(g11r, xr), a.Add(g11i, xi), l10r, l10i
}

// fusedPolyLDLFFT is polyLDLFFT for n >= 8.
func fusedPolyLDLFFT[F any, A arith.Arith[F]](a A, g00, g01, g11 []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	for u := range hn {
		g11[u], g11[u+hn], g01[u], g01[u+hn] = fldlStep(a, fu,
			g00[u], g00[u+hn], g01[u], g01[u+hn], g11[u], g11[u+hn])
	}
	return true
}

// fusedPolyLDLmvFFT is polyLDLmvFFT for n >= 8.
func fusedPolyLDLmvFFT[F any, A arith.Arith[F]](a A, d11, l10, g00, g01, g11 []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	for u := range hn {
		d11[u], d11[u+hn], l10[u], l10[u+hn] = fldlStep(a, fu,
			g00[u], g00[u+hn], g01[u], g01[u+hn], g11[u], g11[u+hn])
	}
	return true
}

// fusedPolySplitFFT is polySplitFFT where the FMA build differs from the
// scalar code: at n = 4 its single product by conj(w) is fused (fcmul,
// the contracted scalar code); for n >= 8 nothing is fused but the wide
// kernel halves f(w) - f(-w) before the product by conj(w) and adds the
// two products in its own order (the same values unless they underflow).
func fusedPolySplitFFT[F any, A arith.Arith[F]](a A, f0, f1, f []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 2 {
		return false
	}
	n := 1 << logn
	hn := n >> 1
	qn := hn >> 1
	for u := range qn {
		ar, ai := f[u<<1], f[(u<<1)+hn]
		br, bi := f[(u<<1)+1], f[(u<<1)+1+hn]
		f0[u] = a.Half(a.Add(ar, br))
		f0[u+qn] = a.Half(a.Add(ai, bi))
		gr, gi := a.GM((u+hn)<<1), a.GM(((u+hn)<<1)+1)
		if logn == 2 {
			tr, ti := fcmul(a, fu, a.Sub(ar, br), a.Sub(ai, bi), gr, a.Neg(gi))
			f1[u], f1[u+qn] = a.Half(tr), a.Half(ti)
			continue
		}
		tr, ti := a.Half(a.Sub(ar, br)), a.Half(a.Sub(ai, bi))
		f1[u] = a.Add(a.Mul(tr, gr), a.Mul(ti, gi))
		f1[u+qn] = a.Sub(a.Mul(ti, gr), a.Mul(tr, gi))
	}
	return true
}

// fusedPolyMergeFFT is polyMergeFFT for n >= 16: w f1(w^2) by fcmul.
func fusedPolyMergeFFT[F any, A arith.Arith[F]](a A, f, f0, f1 []F, logn uint) bool {
	fu, ok := fusedOf[F](a)
	if !ok || logn < 4 {
		return false
	}
	hn := 1 << logn >> 1
	qn := hn >> 1
	for u := range qn {
		ar, ai := f0[u], f0[u+qn]
		br, bi := fcmul(a, fu, f1[u], f1[u+qn], a.GM((u+hn)<<1), a.GM(((u+hn)<<1)+1))
		f[u<<1], f[(u<<1)+hn] = a.Add(ar, br), a.Add(ai, bi)
		f[(u<<1)+1], f[(u<<1)+1+hn] = a.Sub(ar, br), a.Sub(ai, bi)
	}
	return true
}
