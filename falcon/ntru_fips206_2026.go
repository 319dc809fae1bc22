package falcon

import (
	"fmt"

	"github.com/fprlab/fprlab/internal/fxr"
)

// NTRUSolve of the July 2026 FN-DSA draft, as rust-fn-dsa 0.4.0 computes
// it (fn-dsa-kgen/src/ntru.rs at commit 0629bb1). It is the 2025
// solver (ntru_fips206.go) with three changes that decide which F and G
// come out:
//
//   - only F is carried up the recursion (lifted as F'(X^2) g(-X));
//     G follows from F through the NTRU equation at depth 0;
//   - at every intermediate depth the Babai rounding reduces F against f
//     alone, k = round(F/f) in 32.32 fixed point (the 2025 solver takes
//     k = round((F adj f + G adj g)/(f adj f + g adj g))), and each round
//     assumes F shrinks by 10 bits (9 at degree 512, 8 at 1024) instead of
//     16, 13 or 11; a top word dropped while F shrinks must be a pure sign
//     extension, or the candidate is rejected; there is no check modulo
//     the first prime at the intermediate depths;
//   - depth 0 computes G = (q + g F)/f modulo the first prime, then
//     reduces (F, G) against (f, g) once, as the 2025 solver does.
//
// The deepest level, the lift, the fixed-point FFT and the subtraction of
// k f are the 2025 solver's.

// fips206ReduceBits2026 is by how many bits each Babai round assumes F
// shrinks, for the top degree 2^logTop.
func fips206ReduceBits2026(logTop uint) int {
	switch logTop {
	case 9:
		return 9
	case 10:
		return 8
	}
	return 10
}

// solveNTRUFIPS206Draft2026 implements fips206.SolveNTRU2026: it solves f G - g F = q modulo X^n+1 (n = 2^logn, logn
// 2 to 10) as rust-fn-dsa 0.4.0 does, with F and G in -127..127; ok =
// false rejects the candidate (f, g).
func solveNTRUFIPS206Draft2026(logn uint, f, g []int8) (F, G []int8, ok bool, err error) {
	if logn < 2 || logn > 10 {
		return nil, nil, false, fmt.Errorf("falcon: FN-DSA NTRUSolve: logn %d outside 2..10", logn)
	}
	if n := 1 << logn; len(f) != n || len(g) != n {
		return nil, nil, false, fmt.Errorf("falcon: FN-DSA NTRUSolve: f, g have %d, %d coefficients, want %d", len(f), len(g), n)
	}
	// rust-fn-dsa rejects an f with a zero NTT slot modulo the first
	// prime at depth 0; checking first rejects the same candidates.
	if !fips206Invertible(f, logn) {
		return nil, nil, false, nil
	}
	Fd, _, ok := solveDeepest(f, g, logn, fips206BlSmall, nil)
	for depth := int(logn) - 1; ok && depth > 0; depth-- {
		Fd, ok = fips206Intermediate2026(f, g, logn, depth, Fd)
	}
	if !ok {
		return nil, nil, false, nil
	}
	Gd := fips206GOfF(f, g, logn, Fd)
	Fd, Gd = fips206Depth0(f, g, logn, Fd, Gd)
	F, G, ok = finishNTRU(f, g, logn, Fd, Gd, 127, nil)
	return F, G, ok, nil
}

// fips206Intermediate2026 lifts F from depth+1 to depth and reduces it
// against f; it returns n coefficients of fips206BlSmall[depth] words, or
// ok = false when a dropped top word is not a sign extension.
func fips206Intermediate2026(f, g []int8, logTop uint, depth int, Fd []uint32) (Fo []uint32, ok bool) {
	logn := logTop - uint(depth)
	n := 1 << logn
	hn := n >> 1
	slen := fips206BlSmall[depth]
	llen := fips206BlLarge[depth]
	Gd := make([]uint32, len(Fd))
	Ft, _, ft, _ := liftUnreduced(f, g, logTop, depth, fips206BlSmall, llen, Fd, Gd, nil)

	// f in fixed point from its top rlen words, scaled by
	// 2^-(scaleFg + scaleX + scaleT), then rt3 = 2^scaleT / f in FFT form.
	rlen := min(fips206WordWin[depth], slen)
	blen := slen - rlen
	scaleFg := 31 * blen
	scaleX := polyMaxBitlen(ft, n, slen, blen, rlen)
	scaleT := min(15-int(logn), scaleX)
	rt3 := polyBigToFxr(ft, n, slen, blen, rlen, scaleX-scaleT)
	fxr.FFT(logn, rt3)
	for i := range hn {
		re, im := rt3[i], rt3[i+hn]
		z := fxr.Mul(re, re) + fxr.Mul(im, im)
		rt3[i] = fxr.Div(re<<scaleT, z)
		rt3[i+hn] = fxr.Div((-im)<<scaleT, z)
	}

	useSubNTT := depth > 1 && logn >= fips206MinLognSubNTT
	reduceBits := fips206ReduceBits2026(logTop)
	FGlen := llen
	scaleFG := 31 * llen
	k := make([]int32, n)
	var dummy []uint32
	if depth == 1 {
		dummy = make([]uint32, len(Ft))
	}
	for {
		tlen, toff := scaleFG/31, scaleFG%31
		rt1 := polyBigToFxr(Ft, n, llen, tlen, FGlen-tlen, scaleX+toff)
		fxr.FFT(logn, rt1)
		fxr.MulFFT(logn, rt1, rt3)
		fxr.IFFT(logn, rt1)
		for i := range n {
			k[i] = fxr.Round(rt1[i])
		}

		scaleK := scaleFG - scaleFg
		sch, scl := uint32(scaleK/31), uint32(scaleK%31)
		switch {
		case depth == 1:
			// The 2025 subtraction at depth 1 reduces G too: here G is a
			// scratch copy, discarded.
			clear(dummy)
			fips206SubDepth1(f, g, logTop, Ft, dummy, llen, FGlen, k, scaleK, true)
		case useSubNTT:
			polySubScaledNTTWith(fips206KNTT, Ft, FGlen, llen, ft, slen, slen, k, sch, scl, logn, nil)
		default:
			polySubScaled(Ft, FGlen, llen, ft, slen, slen, k, sch, scl, logn)
		}

		if scaleFG <= scaleFg {
			break
		}
		scaleFG = max(scaleFG-reduceBits, scaleFg)
		for FGlen > slen && 31*(FGlen-slen) > scaleFG-scaleFg+30 {
			FGlen--
			for u := range n {
				top := Ft[u*llen+FGlen-1]
				if Ft[u*llen+FGlen] != -(top>>30)>>1 {
					return nil, false
				}
			}
		}
	}

	Fo = make([]uint32, n*slen)
	for u := range n {
		copy(Fo[u*slen:(u+1)*slen], Ft[u*llen:])
	}
	return Fo, true
}

// fips206GOfF returns G' = (q + N(g) F') / N(f) modulo the first prime at
// depth 1 (n/2 one-word coefficients, N the field norm), normalised
// around 0: the G that goes with F' there, which depth 0 lifts as the
// 2025 solver lifts its own G'. Lifted, it is rust-fn-dsa's
// G = (q + g F)/f modulo the prime at depth 0 (f(X) f(-X) G'(X^2) -
// g(X) g(-X) F'(X^2) = q).
func fips206GOfF(f, g []int8, logTop uint, Fd []uint32) []uint32 {
	n := 1 << logTop
	hn := n >> 1
	p, p0i, r2 := primeData(0, nil)
	gm := make([]uint32, n)
	igm := make([]uint32, n)
	modpMkgm2(gm, igm, logTop, primes[0].g, p, p0i, nil)
	nf, ng := polyModp(f, p), polyModp(g, p)
	modpNTT2(nf, gm, logTop, p, p0i, nil)
	modpNTT2(ng, gm, logTop, p, p0i, nil)
	modpPolyRecRes(nf, logTop, p, p0i, r2, nil)
	modpPolyRecRes(ng, logTop, p, p0i, r2, nil)
	t := make([]uint32, hn)
	for j := range hn {
		t[j] = modpSet(int32(Fd[j]<<1)>>1, p)
	}
	modpNTT2(t, gm, logTop-1, p, p0i, nil)
	P := uint64(p)
	for j := range hn {
		num := (Q + uint64(ng[j])*uint64(t[j])) % P
		t[j] = uint32(num * powModP(uint64(nf[j]), P-2, P) % P)
	}
	modpINTT2(t, igm, logTop-1, p, p0i, nil)
	Gd := make([]uint32, hn)
	for j := range hn {
		Gd[j] = uint32(modpNorm(t[j], p)) & 0x7FFFFFFF
	}
	return Gd
}

// powModP returns x^e mod p.
func powModP(x, e, p uint64) uint64 {
	r := uint64(1)
	for x %= p; e > 0; e >>= 1 {
		if e&1 != 0 {
			r = r * x % p
		}
		x = x * x % p
	}
	return r
}
