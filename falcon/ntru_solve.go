package falcon

import "github.com/fprlab/fprlab/arith"

// NTRUSolve: given small f, g, find small F, G with f*G - g*F = q modulo
// X^n+1, by the reference's recursion over the field norm.
//
// Going down, f and g are replaced by their field norms N(f) = f0^2 - X f1^2
// (f = f0(X^2) + X f1(X^2)), halving the degree each time. At the bottom
// (degree 1) the values are the resultants Res(f, X^n+1), Res(g, X^n+1),
// and the extended GCD gives F, G for q = 1, then multiplied by q. Going
// up, a solution (F', G') at degree n/2 lifts to F = F'(X^2) g(-X),
// G = G'(X^2) f(-X) at degree n, which is then shortened by Babai rounding
// against (f, g): F -= k f, G -= k g with k = round((F adj f + G adj g) /
// (f adj f + g adj g)). The rounding is where floating point enters
// (ntru_reduce.go); everything else is exact, in a residue number system
// over the 31-bit primes of ntru_modp.go and big integers of ntru_zint.go.
//
// The word lengths below are the reference's: they were sized from
// measured coefficient lengths, and because they bound every intermediate
// value they also decide, together with the range checks, which (f, g)
// candidates fail and are resampled.

// maxBlSmall[depth] is the word length of f and g at that depth (and of the
// reduced F and G returned from it); the last entry is the resultants'.
var maxBlSmall = [11]int{1, 1, 2, 2, 4, 7, 14, 27, 53, 106, 209}

// maxBlLarge[depth] is the word length of the unreduced F and G.
var maxBlLarge = [10]int{2, 2, 5, 7, 12, 21, 40, 78, 157, 308}

// bitLength[depth] is the measured mean and standard deviation of the
// maximum bit length of the coefficients of (f, g) at that depth; the
// Babai reduction assumes mean +- 6 deviations.
var bitLength = [11]struct{ avg, std int }{
	{4, 0}, {11, 1}, {24, 1}, {50, 1}, {102, 1}, {202, 2},
	{401, 4}, {794, 5}, {1577, 8}, {3138, 13}, {6308, 25},
}

// depthIntFG is the largest depth at which k*f and k*g are computed with
// the NTT (deeper, with fewer and longer coefficients, the schoolbook
// product is used).
const depthIntFG = 4

// makeFgStep computes the field norms of f and g (n = 2^logn coefficients
// of slen words, RNS form, NTT form if inNTT) and returns them as hn
// coefficients of tlen >= slen words (NTT form if outNTT).
// The first slen residues come directly from the inputs; the inputs are
// then rebuilt as big integers (CRT) and reduced modulo the extra primes
// the longer output needs.
func makeFgStep(fs, gs []uint32, logn uint, slen, tlen int, inNTT, outNTT bool, mc *modpCounter) (fd, gd []uint32) {
	n := 1 << logn
	hn := n >> 1
	fd = make([]uint32, hn*tlen)
	gd = make([]uint32, hn*tlen)
	gm := make([]uint32, n)
	igm := make([]uint32, n)
	t1 := make([]uint32, max(n, slen))

	// norm writes the field norm of t1 (NTT form, degree n) into column u
	// of dst: the norm at w^2 is t1(w)*t1(-w), the product of a slot pair.
	norm := func(dst []uint32, u int, p, p0i, r2 uint32) {
		mc.add(2 * hn)
		for v := range hn {
			dst[v*tlen+u] = modpMontymul(modpMontymul(t1[2*v], t1[2*v+1], p, p0i), r2, p, p0i)
		}
	}

	for u := range slen {
		p, p0i, r2 := primeData(u, mc)
		modpMkgm2(gm, igm, logn, primes[u].g, p, p0i, mc)
		for _, pair := range [2]struct{ src, dst []uint32 }{{fs, fd}, {gs, gd}} {
			for v := range n {
				t1[v] = pair.src[v*slen+u]
			}
			if !inNTT {
				modpNTT2(t1, gm, logn, p, p0i, mc)
			}
			norm(pair.dst, u, p, p0i, r2)
			if inNTT {
				// The source is needed in plain RNS form for the CRT below.
				modpINTT2Ext(pair.src[u:], slen, igm, logn, p, p0i, mc)
			}
		}
		if !outNTT {
			modpINTT2Ext(fd[u:], tlen, igm, logn-1, p, p0i, mc)
			modpINTT2Ext(gd[u:], tlen, igm, logn-1, p, p0i, mc)
		}
	}

	zintRebuildCRT(fs, slen, slen, n, true, t1, mc)
	zintRebuildCRT(gs, slen, slen, n, true, t1, mc)

	for u := slen; u < tlen; u++ {
		p, p0i, r2 := primeData(u, mc)
		rx := modpRx(uint(slen), p, p0i, r2, mc)
		modpMkgm2(gm, igm, logn, primes[u].g, p, p0i, mc)
		for _, pair := range [2]struct{ src, dst []uint32 }{{fs, fd}, {gs, gd}} {
			for v := range n {
				t1[v] = zintModSmallSigned(pair.src[v*slen:], slen, p, p0i, r2, rx, mc)
			}
			modpNTT2(t1, gm, logn, p, p0i, mc)
			norm(pair.dst, u, p, p0i, r2)
		}
		if !outNTT {
			modpINTT2Ext(fd[u:], tlen, igm, logn-1, p, p0i, mc)
			modpINTT2Ext(gd[u:], tlen, igm, logn-1, p, p0i, mc)
		}
	}
	return fd, gd
}

// makeFg returns f and g taken down to the given depth by repeated field
// norms, in RNS form with small[depth] words per coefficient (NTT form if
// outNTT); small is the word-length table (maxBlSmall for round 3).
func makeFg(f, g []int8, logn uint, depth int, small []int, outNTT bool, mc *modpCounter) (ft, gt []uint32) {
	n := 1 << logn
	ft = make([]uint32, n)
	gt = make([]uint32, n)
	p0 := primes[0].p
	for u := range n {
		ft[u] = modpSet(int32(f[u]), p0)
		gt[u] = modpSet(int32(g[u]), p0)
	}
	if depth == 0 && outNTT {
		p, p0i := primeP(0)
		gm := make([]uint32, n)
		igm := make([]uint32, n)
		modpMkgm2(gm, igm, logn, primes[0].g, p, p0i, mc)
		modpNTT2(ft, gm, logn, p, p0i, mc)
		modpNTT2(gt, gm, logn, p, p0i, mc)
		return ft, gt
	}
	for d := range depth {
		ft, gt = makeFgStep(ft, gt, logn-uint(d), small[d], small[d+1], d != 0, d+1 < depth || outNTT, mc)
	}
	return ft, gt
}

// ntruSolver solves the NTRU equation for one (f, g) of degree 2^logn over
// the arithmetic a (used only by the Babai reductions).
type ntruSolver[T any, A arith.Arith[T]] struct {
	a    A
	logn uint
	f, g []int8
	obs  Observer[T]  // nil for none
	mc   *modpCounter // nil for none
}

// babai reports the end of a Babai reduction step (see StageBabai).
func (s *ntruSolver[T, A]) babai(depth, iter int, values []T) {
	if s.obs != nil {
		s.obs.Stage(StageBabai, depth, iter, values)
	}
}

// deepest computes the resultants of f and g with X^n+1 and solves
// Res(f)*G - Res(g)*F = q with the binary extended GCD. It returns F and
// G as one coefficient of maxBlSmall[logn] words each, or ok = false if the
// resultants are not coprime or the products overflow.
func (s *ntruSolver[T, A]) deepest() (Fd, Gd []uint32, ok bool) {
	return solveDeepest(s.f, s.g, s.logn, maxBlSmall[:], s.mc)
}

// solveDeepest is deepest for the word-length table small (small[logn]
// words for the resultants, F and G).
func solveDeepest(f, g []int8, logn uint, small []int, mc *modpCounter) (Fd, Gd []uint32, ok bool) {
	n := small[logn]
	f1, g1 := makeFg(f, g, logn, int(logn), small, false, mc)
	// The two resultants side by side, rebuilt in one CRT pass as the
	// reference does (one set of per-prime constants for both).
	fg := make([]uint32, 2*n)
	copy(fg, f1)
	copy(fg[n:], g1)
	fp, gp := fg[:n], fg[n:]
	t1 := make([]uint32, 4*n)
	// The resultants are nonnegative: no signed normalisation.
	zintRebuildCRT(fg, n, n, 2, false, t1, mc)

	Fd = make([]uint32, n)
	Gd = make([]uint32, n)
	if !zintBezout(Gd, Fd, fp, gp, n, t1) {
		return nil, nil, false
	}
	if zintMulSmall(Fd, n, Q) != 0 || zintMulSmall(Gd, n, Q) != 0 {
		return nil, nil, false
	}
	return Fd, Gd, true
}

// liftRNS reduces the deeper solution F', G' (hn coefficients of dlen
// words each) modulo the first llen primes into column form: coefficient
// v's residue modulo primes[u] goes to Ft[v*llen+u] (Gt likewise). Both
// are reduced in one pass over the primes, as in the reference.
func liftRNS(Ft, Gt, Fd, Gd []uint32, hn, dlen, llen int, mc *modpCounter) {
	for u := range llen {
		p, p0i, r2 := primeData(u, mc)
		rx := modpRx(uint(dlen), p, p0i, r2, mc)
		for v := range hn {
			Ft[v*llen+u] = zintModSmallSigned(Fd[v*dlen:], dlen, p, p0i, r2, rx, mc)
			Gt[v*llen+u] = zintModSmallSigned(Gd[v*dlen:], dlen, p, p0i, r2, rx, mc)
		}
	}
}

// liftColumn computes residue u of the unreduced F = F'(X^2) g(-X) and
// G = G'(X^2) f(-X) in NTT form: in slot pair (w, -w), F(w) = F'(w^2) g(-w)
// and F(-w) = F'(w^2) g(w). fx, gx are f, g mod p in NTT form (degree n);
// Ft, Gt hold F', G' mod p in column u (hn coefficients, stride llen) on
// input and receive F, G mod p in column u (n coefficients) on output.
func liftColumn(Ft, Gt []uint32, u, llen int, fx, gx, gm, igm []uint32, logn uint, p, p0i, r2 uint32, mc *modpCounter) {
	hn := 1 << logn >> 1
	Fp := make([]uint32, hn)
	Gp := make([]uint32, hn)
	for v := range hn {
		Fp[v] = Ft[v*llen+u]
		Gp[v] = Gt[v*llen+u]
	}
	modpNTT2(Fp, gm, logn-1, p, p0i, mc)
	modpNTT2(Gp, gm, logn-1, p, p0i, mc)
	mc.add(6 * hn)
	for v := range hn {
		ftA, ftB := fx[2*v], fx[2*v+1]
		gtA, gtB := gx[2*v], gx[2*v+1]
		mFp := modpMontymul(Fp[v], r2, p, p0i)
		mGp := modpMontymul(Gp[v], r2, p, p0i)
		x := 2*v*llen + u
		Ft[x] = modpMontymul(gtB, mFp, p, p0i)
		Ft[x+llen] = modpMontymul(gtA, mFp, p, p0i)
		Gt[x] = modpMontymul(ftB, mGp, p, p0i)
		Gt[x+llen] = modpMontymul(ftA, mGp, p, p0i)
	}
	modpINTT2Ext(Ft[u:], llen, igm, logn, p, p0i, mc)
	modpINTT2Ext(Gt[u:], llen, igm, logn, p, p0i, mc)
}

// liftUnreduced computes, at the given depth of a solver over the
// word-length table small, f and g (n = 2^(logTop-depth) coefficients of
// slen = small[depth] words, plain signed integers) and the unreduced
// F = F'(X^2) g(-X), G = G'(X^2) f(-X) (n coefficients of llen words) from
// the deeper solution F', G' (n/2 coefficients of small[depth+1] words).
// The residues of f and g taken out of NTT form while F and G are lifted
// prime by prime are rebuilt once the first slen primes are done.
func liftUnreduced(f, g []int8, logTop uint, depth int, small []int, llen int, Fd, Gd []uint32, mc *modpCounter) (Ft, Gt, ft, gt []uint32) {
	logn := logTop - uint(depth)
	n := 1 << logn
	hn := n >> 1
	slen := small[depth]
	dlen := small[depth+1]

	// f and g at this depth, in RNS and NTT form.
	ft, gt = makeFg(f, g, logTop, depth, small, true, mc)

	Ft = make([]uint32, n*llen)
	Gt = make([]uint32, n*llen)
	liftRNS(Ft, Gt, Fd, Gd, hn, dlen, llen, mc)

	gm := make([]uint32, n)
	igm := make([]uint32, n)
	fx := make([]uint32, n)
	gx := make([]uint32, n)
	t1 := make([]uint32, max(llen, slen))
	for u := range llen {
		p, p0i, r2 := primeData(u, mc)
		if u == slen {
			// All slen residues of f and g have been taken out of NTT
			// form below: rebuild them as big integers.
			zintRebuildCRT(ft, slen, slen, n, true, t1, mc)
			zintRebuildCRT(gt, slen, slen, n, true, t1, mc)
		}
		modpMkgm2(gm, igm, logn, primes[u].g, p, p0i, mc)
		if u < slen {
			for v := range n {
				fx[v] = ft[v*slen+u]
				gx[v] = gt[v*slen+u]
			}
			modpINTT2Ext(ft[u:], slen, igm, logn, p, p0i, mc)
			modpINTT2Ext(gt[u:], slen, igm, logn, p, p0i, mc)
		} else {
			rx := modpRx(uint(slen), p, p0i, r2, mc)
			for v := range n {
				fx[v] = zintModSmallSigned(ft[v*slen:], slen, p, p0i, r2, rx, mc)
				gx[v] = zintModSmallSigned(gt[v*slen:], slen, p, p0i, r2, rx, mc)
			}
			modpNTT2(fx, gm, logn, p, p0i, mc)
			modpNTT2(gx, gm, logn, p, p0i, mc)
		}
		liftColumn(Ft, Gt, u, llen, fx, gx, gm, igm, logn, p, p0i, r2, mc)
	}
	if llen == slen {
		// No extra prime: f and g are still residues (never the case for
		// round 3's tables, whose F, G are always longer than f, g).
		zintRebuildCRT(ft, slen, slen, n, true, t1, mc)
		zintRebuildCRT(gt, slen, slen, n, true, t1, mc)
	}
	zintRebuildCRT(Ft, llen, llen, n, true, t1, mc)
	zintRebuildCRT(Gt, llen, llen, n, true, t1, mc)
	return Ft, Gt, ft, gt
}

// intermediate lifts the solution from depth+1 (Fd, Gd: n/2 coefficients
// of maxBlSmall[depth+1] words) to depth and reduces it; it returns n
// coefficients of maxBlSmall[depth] words each.
func (s *ntruSolver[T, A]) intermediate(depth int, Fd, Gd []uint32) (Ft, Gt []uint32, ok bool) {
	n := 1 << (s.logn - uint(depth))
	slen := maxBlSmall[depth]
	llen := maxBlLarge[depth]

	Ft, Gt, ft, gt := liftUnreduced(s.f, s.g, s.logn, depth, maxBlSmall[:], llen, Fd, Gd, s.mc)

	FGlen, ok := s.reduceIntermediate(depth, Ft, Gt, ft, gt)
	if !ok {
		return nil, nil, false
	}

	// If the reduction shortened (F, G) below slen words, sign-extend, then
	// keep slen words per coefficient.
	if FGlen < slen {
		for u := range n {
			for _, X := range [2][]uint32{Ft[u*llen:], Gt[u*llen:]} {
				sw := -(X[FGlen-1] >> 30) >> 1
				for v := FGlen; v < slen; v++ {
					X[v] = sw
				}
			}
		}
	}
	F := make([]uint32, n*slen)
	G := make([]uint32, n*slen)
	for u := range n {
		copy(F[u*slen:(u+1)*slen], Ft[u*llen:])
		copy(G[u*slen:(u+1)*slen], Gt[u*llen:])
	}
	return F, G, true
}

// depth1 lifts the solution from depth 2 to depth 1 (binary case, degree
// at least 8) and reduces it in a single floating-point pass: at this depth
// the unreduced F and G fit in 53 bits. It returns n = 2^(logn-1)
// coefficients of one word each.
func (s *ntruSolver[T, A]) depth1(Fd, Gd []uint32) (Fo, Go []uint32, ok bool) {
	const depth = 1
	logTop := s.logn
	nTop := 1 << logTop
	logn := logTop - depth
	n := 1 << logn
	hn := n >> 1
	slen := maxBlSmall[depth]
	dlen := maxBlSmall[depth+1]
	llen := maxBlLarge[depth]

	mc := s.mc
	// F, G (and f, g) side by side, so that each pair is rebuilt from RNS
	// in one CRT pass, as in the reference.
	FGt := make([]uint32, 2*n*llen)
	Ft, Gt := FGt[:n*llen], FGt[n*llen:]
	liftRNS(Ft, Gt, Fd, Gd, hn, dlen, llen, mc)

	fgt := make([]uint32, 2*n*slen)
	ft, gt := fgt[:n*slen], fgt[n*slen:]
	gm := make([]uint32, nTop)
	igm := make([]uint32, nTop)
	fx := make([]uint32, nTop)
	gx := make([]uint32, nTop)
	for u := range llen {
		p, p0i, r2 := primeData(u, mc)
		// f and g at depth 1 mod p, from the full-degree f and g: NTT at
		// the top degree, then one field norm in NTT form. The twiddle
		// tables of degree 2^logTop also serve the smaller degrees (their
		// first entries are the smaller tables).
		modpMkgm2(gm, igm, logTop, primes[u].g, p, p0i, mc)
		for v := range nTop {
			fx[v] = modpSet(int32(s.f[v]), p)
			gx[v] = modpSet(int32(s.g[v]), p)
		}
		modpNTT2(fx, gm, logTop, p, p0i, mc)
		modpNTT2(gx, gm, logTop, p, p0i, mc)
		for e := logTop; e > logn; e-- {
			modpPolyRecRes(fx, e, p, p0i, r2, mc)
			modpPolyRecRes(gx, e, p, p0i, r2, mc)
		}
		liftColumn(Ft, Gt, u, llen, fx, gx, gm, igm, logn, p, p0i, r2, mc)
		if u < slen {
			modpINTT2(fx, igm, logn, p, p0i, mc)
			modpINTT2(gx, igm, logn, p, p0i, mc)
			for v := range n {
				ft[v*slen+u] = fx[v]
				gt[v*slen+u] = gx[v]
			}
		}
	}
	t1 := make([]uint32, max(llen, slen))
	zintRebuildCRT(FGt, llen, llen, 2*n, true, t1, mc)
	zintRebuildCRT(fgt, slen, slen, 2*n, true, t1, mc)

	return s.reduceDepth1(Ft, Gt, ft, gt, llen, slen)
}

// depth0 lifts the one-word solution from depth 1 to the full degree and
// reduces it. All values fit modulo the first prime, so the lift and the
// Babai numerator and denominator are computed exactly with one NTT; only
// the division is done in floating point.
func (s *ntruSolver[T, A]) depth0(Fd, Gd []uint32) (Fo, Go []uint32, ok bool) {
	F, G, num, den := depth0Quotient(s.f, s.g, s.logn, Fd, Gd, s.mc)
	k := s.roundQuotient(num, den)
	F, G = depth0Subtract(s.f, s.g, s.logn, F, G, k, s.mc)
	return F, G, true
}

// depth0Quotient lifts the one-word solution Fd, Gd from depth 1 to the
// degree 2^logn of f and g: it returns the unreduced F = F'(X^2) g(-X),
// G = G'(X^2) f(-X) in NTT form modulo the first prime, and the exact
// Babai numerator num = F adj f + G adj g and denominator
// den = f adj f + g adj g (signed coefficients).
//
// Round 3's reference builds the twiddle tables of the first prime four
// times in its depth 0 (its buffers are reused in between); depth0Quotient
// and depth0Subtract rebuild them at the same points, so that their
// Montgomery products are the reference's, one for one (the tables come
// out identical each time).
func depth0Quotient(f, g []int8, logn uint, Fd, Gd []uint32, mc *modpCounter) (F, G []uint32, num, den []int32) {
	n := 1 << logn
	hn := n >> 1
	p, p0i, r2 := primeData(0, mc)
	gm := make([]uint32, n)
	igm := make([]uint32, n)
	modpMkgm2(gm, igm, logn, primes[0].g, p, p0i, mc)

	// F', G' and f, g in NTT form.
	Fp := make([]uint32, hn)
	Gp := make([]uint32, hn)
	for u := range hn {
		Fp[u] = modpSet(zintOneToPlain(Fd[u]), p)
		Gp[u] = modpSet(zintOneToPlain(Gd[u]), p)
	}
	modpNTT2(Fp, gm, logn-1, p, p0i, mc)
	modpNTT2(Gp, gm, logn-1, p, p0i, mc)
	fn := polyModp(f, p)
	gn := polyModp(g, p)
	modpNTT2(fn, gm, logn, p, p0i, mc)
	modpNTT2(gn, gm, logn, p, p0i, mc)

	// Unreduced F = F'(X^2) g(-X), G = G'(X^2) f(-X).
	F = make([]uint32, n)
	G = make([]uint32, n)
	mc.add(3 * n)
	for u := 0; u < n; u += 2 {
		ftA, ftB := fn[u], fn[u+1]
		gtA, gtB := gn[u], gn[u+1]
		mFp := modpMontymul(Fp[u>>1], r2, p, p0i)
		mGp := modpMontymul(Gp[u>>1], r2, p, p0i)
		F[u] = modpMontymul(gtB, mFp, p, p0i)
		F[u+1] = modpMontymul(gtA, mFp, p, p0i)
		G[u] = modpMontymul(ftB, mGp, p, p0i)
		G[u+1] = modpMontymul(ftA, mGp, p, p0i)
	}
	modpINTT2(F, igm, logn, p, p0i, mc)
	modpINTT2(G, igm, logn, p, p0i, mc)

	// Back to NTT form for the products with adj(f), adj(g) and k.
	modpMkgm2(gm, igm, logn, primes[0].g, p, p0i, mc)
	modpNTT2(F, gm, logn, p, p0i, mc)
	modpNTT2(G, gm, logn, p, p0i, mc)

	// num = F adj(f) + G adj(g), den = f adj(f) + g adj(g), exactly.
	nm := make([]uint32, n)
	dn := make([]uint32, n)
	addMulAdj(nm, dn, F, f, gm, logn, p, p0i, r2, mc)
	addMulAdj(nm, dn, G, g, gm, logn, p, p0i, r2, mc)
	modpMkgm2(gm, igm, logn, primes[0].g, p, p0i, mc)
	modpINTT2(nm, igm, logn, p, p0i, mc)
	modpINTT2(dn, igm, logn, p, p0i, mc)
	num = make([]int32, n)
	den = make([]int32, n)
	for u := range n {
		num[u] = modpNorm(nm[u], p)
		den[u] = modpNorm(dn[u], p)
	}
	return F, G, num, den
}

// depth0Subtract returns F - k f and G - k g (F, G in NTT form modulo the
// first prime, from depth0Quotient) as signed one-word coefficients.
func depth0Subtract(f, g []int8, logn uint, F, G []uint32, k []int32, mc *modpCounter) (Fo, Go []uint32) {
	return depth0SubtractWith(kNTTRound3, f, g, logn, F, G, k, mc)
}

// depth0SubtractWith is depth0Subtract with k taken into NTT form by kNTT.
func depth0SubtractWith(kNTT kNTTFunc, f, g []int8, logn uint, F, G []uint32, k []int32, mc *modpCounter) (Fo, Go []uint32) {
	n := 1 << logn
	p, p0i := primeP(0)
	// 2^62 mod p again, uncounted: depth0Quotient counted its computation,
	// and the reference computes it once.
	r2 := modpR2(p, p0i, nil)
	gm := make([]uint32, n)
	igm := make([]uint32, n)
	kn := make([]uint32, n)
	fn := polyModp(f, p)
	gn := polyModp(g, p)
	modpMkgm2(gm, igm, logn, primes[0].g, p, p0i, mc)
	kNTT(kn, k, gm, logn, p, p0i, mc)
	modpNTT2(fn, gm, logn, p, p0i, mc)
	modpNTT2(gn, gm, logn, p, p0i, mc)
	mc.add(3 * n)
	Fo = make([]uint32, n)
	Go = make([]uint32, n)
	for u := range n {
		kw := modpMontymul(kn[u], r2, p, p0i)
		Fo[u] = modpSub(F[u], modpMontymul(kw, fn[u], p, p0i), p)
		Go[u] = modpSub(G[u], modpMontymul(kw, gn[u], p, p0i), p)
	}
	modpINTT2(Fo, igm, logn, p, p0i, mc)
	modpINTT2(Go, igm, logn, p, p0i, mc)
	for u := range n {
		Fo[u] = uint32(modpNorm(Fo[u], p))
		Go[u] = uint32(modpNorm(Go[u], p))
	}
	return Fo, Go
}

// addMulAdj adds X*adj(x) to num and x*adj(x) to den (NTT form mod p; X is
// in NTT form, x a small polynomial). adj(x) = x(1/X) has coefficients
// x[0], -x[n-1], ..., -x[1].
func addMulAdj(num, den, X []uint32, x []int8, gm []uint32, logn uint, p, p0i, r2 uint32, mc *modpCounter) {
	n := 1 << logn
	xn := polyModp(x, p)
	xa := make([]uint32, n)
	xa[0] = xn[0]
	for u := 1; u < n; u++ {
		xa[n-u] = modpSet(-int32(x[u]), p)
	}
	modpNTT2(xn, gm, logn, p, p0i, mc)
	modpNTT2(xa, gm, logn, p, p0i, mc)
	mc.add(3 * n)
	for u := range n {
		w := modpMontymul(xa[u], r2, p, p0i)
		num[u] = modpAdd(num[u], modpMontymul(w, X[u], p, p0i), p)
		den[u] = modpAdd(den[u], modpMontymul(w, xn[u], p, p0i), p)
	}
}

// polyModp returns the small polynomial x reduced modulo p.
func polyModp(x []int8, p uint32) []uint32 {
	r := make([]uint32, len(x))
	for u, v := range x {
		r[u] = modpSet(int32(v), p)
	}
	return r
}

// solve runs the whole recursion and returns F and G with coefficients in
// -lim..lim, checking f*G - g*F = q modulo the first prime (enough, since
// every value is small). ok = false means (f, g) must be resampled.
func (s *ntruSolver[T, A]) solve(lim int32) (Fs, Gs []int8, ok bool) {
	logn := s.logn
	Fd, Gd, ok := s.deepest()
	if !ok {
		return nil, nil, false
	}
	// For logn <= 2 the coefficients are too large for the depth-1 and
	// depth-0 shortcuts: the generic step runs all the way up.
	stop := 2
	if logn <= 2 {
		stop = 0
	}
	for depth := int(logn) - 1; depth >= stop; depth-- {
		if Fd, Gd, ok = s.intermediate(depth, Fd, Gd); !ok {
			return nil, nil, false
		}
	}
	if logn > 2 {
		if Fd, Gd, ok = s.depth1(Fd, Gd); !ok {
			return nil, nil, false
		}
		if Fd, Gd, ok = s.depth0(Fd, Gd); !ok {
			return nil, nil, false
		}
	}

	return finishNTRU(s.f, s.g, logn, Fd, Gd, lim, s.mc)
}

// finishNTRU converts the solution F, G (one signed word per coefficient)
// to small polynomials with coefficients in -lim..lim and checks
// f*G - g*F = q modulo the first prime (enough, since every value is
// small). ok = false means (f, g) must be resampled.
func finishNTRU(f, g []int8, logn uint, Fd, Gd []uint32, lim int32, mc *modpCounter) (Fs, Gs []int8, ok bool) {
	n := 1 << logn
	// Final F and G: one word per coefficient.
	Fs, ok1 := polyBigToSmall(Fd, lim, n)
	Gs, ok2 := polyBigToSmall(Gd, lim, n)
	if !ok1 || !ok2 {
		return nil, nil, false
	}

	// Check the NTRU equation modulo the first prime, in NTT form:
	// f G - g F must be q at every root. Plain*plain Montgomery products
	// carry a factor 1/R, so the target is montymul(q, 1).
	p, p0i := primeP(0)
	gm := make([]uint32, n)
	igm := make([]uint32, n)
	modpMkgm2(gm, igm, logn, primes[0].g, p, p0i, mc)
	Gt := polyModp(Gs, p)
	ft := polyModp(f, p)
	gt := polyModp(g, p)
	Ft := polyModp(Fs, p)
	for _, x := range [4][]uint32{ft, gt, Ft, Gt} {
		modpNTT2(x, gm, logn, p, p0i, mc)
	}
	mc.add(1)
	r := modpMontymul(Q, 1, p, p0i)
	for u := range n {
		// The reference stops at the first slot that fails: count the
		// products made up to there.
		mc.add(2)
		z := modpSub(modpMontymul(ft[u], Gt[u], p, p0i), modpMontymul(gt[u], Ft[u], p, p0i), p)
		if z != r {
			return nil, nil, false
		}
	}
	return Fs, Gs, true
}

// polyBigToSmall converts one-word signed coefficients to int8, failing if
// any is outside -lim..lim.
func polyBigToSmall(s []uint32, lim int32, n int) ([]int8, bool) {
	d := make([]int8, n)
	for u := range n {
		z := zintOneToPlain(s[u])
		if z < -lim || z > lim {
			return nil, false
		}
		d[u] = int8(z)
	}
	return d, true
}
