package falcon

import "github.com/fprlab/fprlab/arith"

// Babai reduction of NTRUSolve: the only floating-point part of the solver.
//
// Given the unreduced (F, G) and the basis row (f, g) at one depth, the
// reduction subtracts k*(f, g) with k the rounding of
//
//	(F adj(f) + G adj(g)) / (f adj(f) + g adj(g))
//
// computed in FFT form over the backend. The floating-point steps and the
// range checks follow the reference operation by operation, because k,
// and through k the final (F, G), depend on every rounding. The integer
// side (scaled subtraction of k*f from F) is exact.

// polyBigToFp converts n = 2^logn big signed coefficients to floating point:
// coefficient u is f[u*stride : u*stride+flen]. Each word is converted as
// an int32 and accumulated with weight 2^(31*v), the weights being built
// by repeated multiplication by 2^31, as the reference does (every one of
// these operations is exact for binary64 within its range, but the
// operation sequence is part of the backend contract). Negative values
// are converted through their absolute value, word by word.
func polyBigToFp[F any, A arith.Arith[F]](a A, d []F, f []uint32, flen, stride int, logn uint) {
	n := 1 << logn
	if flen == 0 {
		zero := a.Const(arith.Zero)
		for u := range n {
			d[u] = zero
		}
		return
	}
	p31 := a.Const(arith.PTwo31)
	for u := range n {
		c := f[u*stride:]
		neg := -(c[flen-1] >> 30)
		xm := neg >> 1
		cc := neg & 1
		x := a.Const(arith.Zero)
		fsc := a.Const(arith.One)
		for v := range flen {
			w := (c[v] ^ xm) + cc
			cc = w >> 31
			w &= 0x7FFFFFFF
			w -= (w << 1) & neg
			x = a.Add(x, a.Mul(a.Of(int64(int32(w))), fsc))
			fsc = a.Mul(fsc, p31)
		}
		d[u] = x
	}
}

// polySubScaled subtracts k*f*2^sc from F (polynomials mod X^n+1; F has
// Flen-word coefficients at stride Fstride, f has flen-word coefficients at
// stride fstride, k small signed), by the schoolbook product: used at
// depths with few, long coefficients.
func polySubScaled(F []uint32, Flen, Fstride int, f []uint32, flen, fstride int, k []int32, sch, scl uint32, logn uint) {
	n := 1 << logn
	for u := range n {
		kf := -k[u]
		x := u * Fstride
		y := 0
		for v := range n {
			zintAddScaledMulSmall(F[x:], Flen, f[y:], flen, kf, sch, scl)
			if u+v == n-1 {
				// X^n = -1: wrap around with a sign change.
				x = 0
				kf = -kf
			} else {
				x += Fstride
			}
			y += fstride
		}
	}
}

// polySubScaledNTT is polySubScaled with the product k*f computed in RNS
// over flen+1 primes with the NTT, then rebuilt (CRT) and subtracted.
func polySubScaledNTT(F []uint32, Flen, Fstride int, f []uint32, flen, fstride int, k []int32, sch, scl uint32, logn uint, mc *modpCounter) {
	polySubScaledNTTWith(kNTTRound3, F, Flen, Fstride, f, flen, fstride, k, sch, scl, logn, mc)
}

// kNTTFunc writes into t the NTT modulo p of the reduction coefficients
// k (n = 2^logn of them), as canonical residues in the slot order of
// modpNTT2 with the twiddles gm of modpMkgm2.
type kNTTFunc func(t []uint32, k []int32, gm []uint32, logn uint, p, p0i uint32, mc *modpCounter)

// kNTTRound3 is round 3's: each k modulo p by modpSet, then modpNTT2.
func kNTTRound3(t []uint32, k []int32, gm []uint32, logn uint, p, p0i uint32, mc *modpCounter) {
	for v := range 1 << logn {
		t[v] = modpSet(k[v], p)
	}
	modpNTT2(t, gm, logn, p, p0i, mc)
}

// polySubScaledNTTWith is polySubScaledNTT with k taken into NTT form by
// kNTT.
func polySubScaledNTTWith(kNTT kNTTFunc, F []uint32, Flen, Fstride int, f []uint32, flen, fstride int, k []int32, sch, scl uint32, logn uint, mc *modpCounter) {
	n := 1 << logn
	tlen := flen + 1
	gm := make([]uint32, n)
	igm := make([]uint32, n)
	fk := make([]uint32, n*tlen)
	t1 := make([]uint32, max(n, tlen))
	for u := range tlen {
		p, p0i, r2 := primeData(u, mc)
		rx := modpRx(uint(flen), p, p0i, r2, mc)
		modpMkgm2(gm, igm, logn, primes[u].g, p, p0i, mc)
		kNTT(t1, k, gm, logn, p, p0i, mc)
		for v := range n {
			fk[v*tlen+u] = zintModSmallSigned(f[v*fstride:], flen, p, p0i, r2, rx, mc)
		}
		modpNTT2Ext(fk[u:], tlen, gm, logn, p, p0i, mc)
		mc.add(2 * n)
		for v := range n {
			x := v*tlen + u
			fk[x] = modpMontymul(modpMontymul(t1[v], fk[x], p, p0i), r2, p, p0i)
		}
		modpINTT2Ext(fk[u:], tlen, igm, logn, p, p0i, mc)
	}
	zintRebuildCRT(fk, tlen, tlen, n, true, t1, mc)
	for u := range n {
		zintSubScaled(F[u*Fstride:], Flen, fk[u*tlen:], tlen, sch, scl)
	}
}

// reduceIntermediate runs the Babai reduction of an intermediate depth in
// place on Ft, Gt (n coefficients of llen words) against ft, gt (n
// coefficients of slen words). It returns the word length to which (F, G)
// was reduced, or ok = false if a reduction coefficient left the int32
// range (the candidate (f, g) is then discarded).
//
// Only the top 10 words (310 bits) of each value are converted to floating
// point, and k is computed at a scale 2^scale_k that starts at the
// expected length difference between (F, G) and (f, g) and decreases by
// 25 bits per round: the lengths are estimated from bitLength rather than
// measured, so that the sequence of operations does not depend on the
// secret values.
func (s *ntruSolver[T, A]) reduceIntermediate(depth int, Ft, Gt, ft, gt []uint32) (FGlen int, ok bool) {
	a := s.a
	logn := s.logn - uint(depth)
	n := 1 << logn
	slen := maxBlSmall[depth]
	llen := maxBlLarge[depth]

	rt1 := make([]T, n)
	rt2 := make([]T, n)
	rt3 := make([]T, n)
	rt4 := make([]T, n)
	rt5 := make([]T, n>>1)
	k := make([]int32, n)

	// (f, g) in floating point, scaled down by 2^scaleFg, then in FFT
	// form: keep adj(f), adj(g) and 1/(f adj f + g adj g).
	rlen := min(slen, 10)
	polyBigToFp(a, rt3, ft[slen-rlen:], rlen, slen, logn)
	polyBigToFp(a, rt4, gt[slen-rlen:], rlen, slen, logn)
	scaleFg := 31 * (slen - rlen)
	minblFg := bitLength[depth].avg - 6*bitLength[depth].std
	maxblFg := bitLength[depth].avg + 6*bitLength[depth].std
	fft(a, rt3, logn)
	fft(a, rt4, logn)
	polyInvnorm2FFT(a, rt5, rt3, rt4, logn)
	polyAdjFFT(a, rt3, logn)
	polyAdjFFT(a, rt4, logn)

	FGlen = llen
	maxblFG := 31 * llen
	scaleK := maxblFG - minblFg
	lo, hi := a.Const(arith.MTwo31m1), a.Const(arith.PTwo31m1)
	for iter := 0; ; iter++ {
		// (F, G) in floating point, scaled down by 2^scaleFG; then
		// rt2 = (F adj f + G adj g)/(f adj f + g adj g).
		rlen := min(FGlen, 10)
		scaleFG := 31 * (FGlen - rlen)
		polyBigToFp(a, rt1, Ft[FGlen-rlen:], rlen, llen, logn)
		polyBigToFp(a, rt2, Gt[FGlen-rlen:], rlen, llen, logn)
		fft(a, rt1, logn)
		fft(a, rt2, logn)
		polyMulFFT(a, rt1, rt3, logn)
		polyMulFFT(a, rt2, rt4, logn)
		polyAdd(a, rt2, rt1, logn)
		polyMulAutoadjFFT(a, rt2, rt5, logn)
		ifft(a, rt2, logn)

		// Rescale to 2^scaleK: multiply by pdc = 2^-dc, computed by
		// square-and-multiply from 2 or 1/2.
		dc := scaleK - scaleFG + scaleFg
		var pt T
		if dc < 0 {
			dc = -dc
			pt = a.Const(arith.Two)
		} else {
			pt = a.Const(arith.OneHalf)
		}
		pdc := a.Const(arith.One)
		for dc != 0 {
			if dc&1 != 0 {
				pdc = a.Mul(pdc, pt)
			}
			dc >>= 1
			pt = a.Sqr(pt)
		}
		for u := range n {
			xv := a.Mul(rt2[u], pdc)
			// Out of range means the candidate failed; rounding is
			// only defined inside.
			if !a.Lt(lo, xv) || !a.Lt(xv, hi) {
				s.babai(depth, iter, rt2)
				return 0, false
			}
			k[u] = int32(a.Rint(xv))
		}
		s.babai(depth, iter, rt2)

		// F -= k f 2^scaleK, G -= k g 2^scaleK.
		sch := uint32(scaleK / 31)
		scl := uint32(scaleK % 31)
		if depth <= depthIntFG {
			polySubScaledNTT(Ft, FGlen, llen, ft, slen, slen, k, sch, scl, logn, s.mc)
			polySubScaledNTT(Gt, FGlen, llen, gt, slen, slen, k, sch, scl, logn, s.mc)
		} else {
			polySubScaled(Ft, FGlen, llen, ft, slen, slen, k, sch, scl, logn)
			polySubScaled(Gt, FGlen, llen, gt, slen, slen, k, sch, scl, logn)
		}

		// New length estimate of (F, G), assuming (f, g) is as long as
		// it may be; drop a word when it is no longer needed.
		if newMaxbl := scaleK + maxblFg + 10; newMaxbl < maxblFG {
			maxblFG = newMaxbl
			if FGlen*31 >= maxblFG+31 {
				FGlen--
			}
		}

		// Stop after a round with an unscaled k.
		if scaleK <= 0 {
			break
		}
		scaleK = max(scaleK-25, 0)
	}
	return FGlen, true
}

// reduceDepth1 is the Babai reduction at depth 1, where (F, G) (llen words)
// and (f, g) (slen words) convert to floating point without scaling and one
// pass suffices; the subtraction itself is done in FFT form and the results
// rounded back to one-word integers.
func (s *ntruSolver[T, A]) reduceDepth1(Ft, Gt, ft, gt []uint32, llen, slen int) (Fo, Go []uint32, ok bool) {
	a := s.a
	logn := s.logn - 1
	n := 1 << logn
	rt1 := make([]T, n)
	rt2 := make([]T, n)
	rt3 := make([]T, n)
	rt4 := make([]T, n)
	rt5 := make([]T, n)
	rt6 := make([]T, n>>1)
	polyBigToFp(a, rt1, Ft, llen, llen, logn)
	polyBigToFp(a, rt2, Gt, llen, llen, logn)
	polyBigToFp(a, rt3, ft, slen, slen, logn)
	polyBigToFp(a, rt4, gt, slen, slen, logn)
	fft(a, rt1, logn)
	fft(a, rt2, logn)
	fft(a, rt3, logn)
	fft(a, rt4, logn)

	// k = round((F adj f + G adj g)/(f adj f + g adj g)).
	polyAddMuladjFFT(a, rt5, rt1, rt2, rt3, rt4, logn)
	polyInvnorm2FFT(a, rt6, rt3, rt4, logn)
	polyMulAutoadjFFT(a, rt5, rt6, logn)
	ifft(a, rt5, logn)
	hi, lo := a.Const(arith.PTwo63m1), a.Const(arith.MTwo63m1)
	for u := range n {
		z := rt5[u]
		if !a.Lt(z, hi) || !a.Lt(lo, z) {
			s.babai(1, 0, nil)
			return nil, nil, false
		}
		rt5[u] = a.Of(a.Rint(z))
	}
	s.babai(1, 0, rt5)

	// (F, G) -= k (f, g) in FFT form.
	fft(a, rt5, logn)
	polyMulFFT(a, rt3, rt5, logn)
	polyMulFFT(a, rt4, rt5, logn)
	polySub(a, rt1, rt3, logn)
	polySub(a, rt2, rt4, logn)
	ifft(a, rt1, logn)
	ifft(a, rt2, logn)

	Fo = make([]uint32, n)
	Go = make([]uint32, n)
	for u := range n {
		Fo[u] = uint32(a.Rint(rt1[u]))
		Go[u] = uint32(a.Rint(rt2[u]))
	}
	s.babai(1, 1, nil)
	return Fo, Go, true
}

// roundQuotient returns k = round(num/den) for the exact depth-0 Babai
// numerator num = F adj f + G adj g and denominator den = f adj f + g adj g
// (auto-adjoint, so only the real half of its FFT is kept).
func (s *ntruSolver[T, A]) roundQuotient(num, den []int32) []int32 {
	a := s.a
	logn := s.logn
	n := 1 << logn
	rden := make([]T, n)
	rnum := make([]T, n)
	for u := range n {
		rden[u] = a.Of(int64(den[u]))
	}
	fft(a, rden, logn)
	for u := range n {
		rnum[u] = a.Of(int64(num[u]))
	}
	fft(a, rnum, logn)
	polyDivAutoadjFFT(a, rnum, rden, logn)
	ifft(a, rnum, logn)
	k := make([]int32, n)
	for u := range n {
		k[u] = int32(a.Rint(rnum[u]))
	}
	s.babai(0, 0, rnum)
	return k
}
