package falcon

import (
	"fmt"
	"math/bits"

	"github.com/fprlab/fprlab/internal/fxr"
)

// NTRUSolve of FN-DSA (the FIPS 206 draft; FIPS 206 is not final), as
// pornin's go-fn-dsa computes it at commit e24833f (kgen_ntru.go,
// kgen_poly.go), whose keys package fndsa reproduces bit for bit.
//
// The recursion is round 3's (ntru_solve.go; Pornin and Prest, "More
// efficient algorithms for the NTRU key generation using the field norm",
// PKC 2019): field norms down to the resultants, the extended GCD there,
// and on the way up the lift F = F'(X^2) g(-X), G = G'(X^2) f(-X) followed
// by Babai's rounding against (f, g). Everything exact -- the residue
// number system over the same 31-bit primes, the NTT, the CRT, the binary
// GCD (whose solution u < y is unique) -- is shared with round 3: only
// canonical residues cross from one step to the next, so the choice of
// Montgomery factor or root of unity does not show in the results. What
// differs, and decides which (f, g) fail and which F, G come out:
//
//   - the word lengths (fips206BlSmall, fips206BlLarge: go-fn-dsa's, not
//     round 3's), which bound every intermediate value;
//   - the Babai rounding is computed in 32.32 fixed point (package fxr)
//     instead of floating point, on the top word_win words of (f, g) and a
//     sliding window of (F, G) scaled by scale_x, and k is subtracted
//     from the full-width values at a scale that decreases by a fixed
//     number of bits per round (fips206ReduceBits);
//   - at depth 1, the subtraction of k (f, g) is computed modulo one or
//     two primes and normalised around 0, not truncated;
//   - depth 0 divides the exact numerator by the exact denominator in
//     fixed point (both scaled by 2^-10);
//   - f must be invertible modulo the first prime (checked before
//     anything else), and at every intermediate depth but the first the
//     reduced solution must satisfy f G - g F = q modulo the first prime.
//
// The Babai coefficients k enter the NTT as go-fn-dsa sets them
// (fips206KNTT): for k < -p (p the first prime, 2^31 - 10239; only the
// 10239 values from -2^31 to -p - 1) its modular code takes k + 2^32
// instead of k, and so does this one. Over the test data (464 candidates
// through NTRUSolve) the largest |k| is about 1.5*10^9 at the intermediate
// depths (2^30.5) and 8051 at depth 0: no key of the test data depends on
// that case, which TestFIPS206KNTTEdge checks on crafted coefficients.

// fips206BlSmall[depth] is the word length of f and g at that depth (and of
// the reduced F and G); the last entry is the resultants'.
var fips206BlSmall = []int{1, 1, 2, 3, 4, 8, 14, 27, 53, 104, 207}

// fips206BlLarge[depth] is the word length of the unreduced F and G.
var fips206BlLarge = []int{1, 2, 3, 6, 11, 21, 40, 78, 155, 308}

// fips206WordWin[depth] is how many top words of f and g the fixed-point
// approximation reads.
var fips206WordWin = []int{1, 1, 2, 2, 2, 3, 3, 4, 5, 7}

// fips206MinLognSubNTT is the smallest degree (log) at which k f is
// computed with the NTT at depths >= 2 (below, the schoolbook product).
const fips206MinLognSubNTT = 4

// fips206ReduceBits is by how many bits each Babai round assumes F and G
// shrink, for the top degree 2^logTop.
func fips206ReduceBits(logTop uint) int {
	switch logTop {
	case 9:
		return 13
	case 10:
		return 11
	}
	return 16
}

// solveNTRUFIPS206 implements fips206.SolveNTRU: it solves f G - g F = q modulo X^n+1 (n = 2^logn, logn 2
// to 10) for FN-DSA key generation as go-fn-dsa does, with F and G in
// -127..127. ok = false means the candidate (f, g) is rejected (go-fn-dsa
// then draws the next one); err reports arguments of the wrong size.
func solveNTRUFIPS206(logn uint, f, g []int8) (F, G []int8, ok bool, err error) {
	if logn < 2 || logn > 10 {
		return nil, nil, false, fmt.Errorf("falcon: FN-DSA NTRUSolve: logn %d outside 2..10", logn)
	}
	if n := 1 << logn; len(f) != n || len(g) != n {
		return nil, nil, false, fmt.Errorf("falcon: FN-DSA NTRUSolve: f, g have %d, %d coefficients, want %d", len(f), len(g), n)
	}
	if !fips206Invertible(f, logn) {
		return nil, nil, false, nil
	}
	Fd, Gd, ok := solveDeepest(f, g, logn, fips206BlSmall, nil)
	for depth := int(logn) - 1; ok && depth > 0; depth-- {
		Fd, Gd, ok = fips206Intermediate(f, g, logn, depth, Fd, Gd)
	}
	if !ok {
		return nil, nil, false, nil
	}
	Fd, Gd = fips206Depth0(f, g, logn, Fd, Gd)
	F, G, ok = finishNTRU(f, g, logn, Fd, Gd, 127, nil)
	return F, G, ok, nil
}

// fips206Invertible reports whether f is invertible modulo X^n+1 and the
// first prime: no NTT slot is zero. go-fn-dsa (make_fg_deepest) rejects
// the candidate otherwise, a test kept from its predecessor ntrugen for
// the sake of identical keys.
func fips206Invertible(f []int8, logn uint) bool {
	n := 1 << logn
	p, p0i := primeP(0)
	gm := make([]uint32, n)
	igm := make([]uint32, n)
	modpMkgm2(gm, igm, logn, primes[0].g, p, p0i, nil)
	ft := polyModp(f, p)
	modpNTT2(ft, gm, logn, p, p0i, nil)
	for _, x := range ft {
		if x == 0 {
			return false
		}
	}
	return true
}

// fips206Intermediate lifts the solution from depth+1 (n/2 coefficients of
// fips206BlSmall[depth+1] words) to depth and reduces it; it returns n
// coefficients of fips206BlSmall[depth] words each, or ok = false if the
// check modulo the first prime fails.
func fips206Intermediate(f, g []int8, logTop uint, depth int, Fd, Gd []uint32) (Fo, Go []uint32, ok bool) {
	logn := logTop - uint(depth)
	n := 1 << logn
	hn := n >> 1
	slen := fips206BlSmall[depth]
	llen := fips206BlLarge[depth]
	Ft, Gt, ft, gt := liftUnreduced(f, g, logTop, depth, fips206BlSmall, llen, Fd, Gd, nil)

	// (f, g) in fixed point from their top rlen words, scaled down by
	// 2^(scaleFg + scaleX): scaleX is their bit length, lowered by up to
	// scaleT = 15 - logn bits so that f adj f + g adj g stays below 2^31
	// (n |f|^2 <= 2^30 per FFT slot), the 2^scaleT being put back after
	// the norm.
	rlen := min(fips206WordWin[depth], slen)
	blen := slen - rlen
	scaleFg := 31 * blen
	scaleX := max(polyMaxBitlen(ft, n, slen, blen, rlen), polyMaxBitlen(gt, n, slen, blen, rlen))
	scaleT := min(15-int(logn), scaleX)
	rt3 := polyBigToFxr(ft, n, slen, blen, rlen, scaleX-scaleT)
	rt4 := polyBigToFxr(gt, n, slen, blen, rlen, scaleX-scaleT)

	// rt3 <- adj(f)/(f adj f + g adj g), rt4 <- adj(g)/(f adj f + g adj g).
	fxr.FFT(logn, rt3)
	fxr.FFT(logn, rt4)
	nrm := make([]fxr.Value, hn)
	for i := range hn {
		nrm[i] = fxr.Mul(rt3[i], rt3[i]) + fxr.Mul(rt3[i+hn], rt3[i+hn]) +
			fxr.Mul(rt4[i], rt4[i]) + fxr.Mul(rt4[i+hn], rt4[i+hn])
	}
	for i := range n {
		rt3[i] <<= scaleT
		rt4[i] <<= scaleT
	}
	for i := range hn {
		rt3[i], rt3[i+hn] = fxr.Div(rt3[i], nrm[i]), fxr.Div(-rt3[i+hn], nrm[i])
		rt4[i], rt4[i+hn] = fxr.Div(rt4[i], nrm[i]), fxr.Div(-rt4[i+hn], nrm[i])
	}

	// Babai rounds: k = round((F adj f + G adj g)/(f adj f + g adj g)) at
	// the scale 2^(scaleFG - scaleFg), then (F, G) -= 2^scaleK k (f, g).
	// scaleFG starts at the full width of (F, G) and drops by reduceBits
	// per round down to scaleFg; F and G are read through the words that
	// hold bits scaleFG and up, and the words above the expected length
	// are dropped (FGlen). The first round, at the full width, reads no
	// word and subtracts k = 0, as go-fn-dsa's does.
	useSubNTT := depth > 1 && logn >= fips206MinLognSubNTT
	reduceBits := fips206ReduceBits(logTop)
	FGlen := llen
	scaleFG := 31 * llen
	k := make([]int32, n)
	for {
		tlen, toff := scaleFG/31, scaleFG%31
		rt1 := polyBigToFxr(Ft, n, llen, tlen, FGlen-tlen, scaleX+toff)
		rt2 := polyBigToFxr(Gt, n, llen, tlen, FGlen-tlen, scaleX+toff)
		fxr.FFT(logn, rt1)
		fxr.FFT(logn, rt2)
		fxr.MulFFT(logn, rt1, rt3)
		fxr.MulFFT(logn, rt2, rt4)
		for i := range n {
			rt2[i] += rt1[i]
		}
		fxr.IFFT(logn, rt2)
		for i := range n {
			k[i] = fxr.Round(rt2[i])
		}

		scaleK := scaleFG - scaleFg
		sch, scl := uint32(scaleK/31), uint32(scaleK%31)
		switch {
		case depth == 1:
			fips206SubDepth1(f, g, logTop, Ft, Gt, llen, FGlen, k, scaleK, false)
		case useSubNTT:
			polySubScaledNTTWith(fips206KNTT, Ft, FGlen, llen, ft, slen, slen, k, sch, scl, logn, nil)
			polySubScaledNTTWith(fips206KNTT, Gt, FGlen, llen, gt, slen, slen, k, sch, scl, logn, nil)
		default:
			polySubScaled(Ft, FGlen, llen, ft, slen, slen, k, sch, scl, logn)
			polySubScaled(Gt, FGlen, llen, gt, slen, slen, k, sch, scl, logn)
		}

		if scaleFG <= scaleFg {
			break
		}
		scaleFG = max(scaleFG-reduceBits, scaleFg)
		for FGlen > slen && 31*(FGlen-slen) > scaleFG-scaleFg+30 {
			FGlen--
		}
	}

	// The reduced F and G are the low slen words of each coefficient.
	Fo = make([]uint32, n*slen)
	Go = make([]uint32, n*slen)
	for u := range n {
		copy(Fo[u*slen:(u+1)*slen], Ft[u*llen:])
		copy(Go[u*slen:(u+1)*slen], Gt[u*llen:])
	}
	// At depth 1 go-fn-dsa has no f, g of this depth at hand and leaves
	// the check to depth 0.
	if depth == 1 {
		return Fo, Go, true
	}
	return Fo, Go, fips206Check(ft, gt, Fo, Go, logn, slen)
}

// fips206Check reports whether f G - g F = q modulo X^n+1 and the first
// prime, for n coefficients of slen words each.
func fips206Check(ft, gt, Ft, Gt []uint32, logn uint, slen int) bool {
	n := 1 << logn
	p, p0i, r2 := primeData(0, nil)
	rx := modpRx(uint(slen), p, p0i, r2, nil)
	gm := make([]uint32, n)
	igm := make([]uint32, n)
	modpMkgm2(gm, igm, logn, primes[0].g, p, p0i, nil)
	var r [4][]uint32
	for j, x := range [4][]uint32{ft, gt, Ft, Gt} {
		r[j] = make([]uint32, n)
		for u := range n {
			r[j][u] = zintModSmallSigned(x[u*slen:], slen, p, p0i, r2, rx, nil)
		}
		modpNTT2(r[j], gm, logn, p, p0i, nil)
	}
	q := modpMontymul(Q, 1, p, p0i)
	for u := range n {
		if modpSub(modpMontymul(r[0][u], r[3][u], p, p0i), modpMontymul(r[1][u], r[2][u], p, p0i), p) != q {
			return false
		}
	}
	return true
}

// fips206SubDepth1 replaces F and G (n = 2^(logTop-1) coefficients at
// stride llen, FGlen = 1 or 2 words used) with F - 2^sc k N(f) and
// G - 2^sc k N(g), N the field norm of the top-level f and g, computed
// modulo the first FGlen primes and normalised around 0 (one word: modulo
// p0 into -p0/2..p0/2; two words: the CRT value modulo p0 p1 into
// -p0 p1/2..p0 p1/2 as 62-bit two's complement), as go-fn-dsa's
// poly_sub_kfg_scaled_depth1 does. k is reduced modulo p0 first and, for
// p1, taken as the normalised residue modulo p0 (what go-fn-dsa's
// restoration of k between the two primes gives; draft2026 selects
// rust-fn-dsa 0.4.0's restoration, which differs when sc is a multiple
// of 32).
func fips206SubDepth1(f, g []int8, logTop uint, Ft, Gt []uint32, llen, FGlen int, k []int32, sc int, draft2026 bool) {
	logn := logTop - 1
	n := 1 << logn
	nTop := 1 << logTop
	var res [2][2][]uint32 // [prime][F or G] residues
	kr := make([]int32, n)
	copy(kr, k)
	gm := make([]uint32, nTop)
	igm := make([]uint32, nTop)
	kx := make([]uint32, n)
	for i := range FGlen {
		p, p0i, r2 := primeData(i, nil)
		rx := modpRx(uint(FGlen), p, p0i, r2, nil)
		modpMkgm2(gm, igm, logTop, primes[i].g, p, p0i, nil)
		s := uint64(1)
		for range sc {
			s = s * 2 % uint64(p)
		}
		for j := range n {
			x := uint64(modpSet(kr[j], p)) % uint64(p)
			kx[j] = uint32(x * s % uint64(p))
		}
		modpNTT2(kx, gm, logn, p, p0i, nil)
		for c, pair := range [2]struct {
			X []uint32
			x []int8
		}{{Ft, f}, {Gt, g}} {
			xr := make([]uint32, n)
			for j := range n {
				xr[j] = zintModSmallSigned(pair.X[j*llen:], FGlen, p, p0i, r2, rx, nil)
			}
			modpNTT2(xr, gm, logn, p, p0i, nil)
			// N(x) in NTT form: the top-degree NTT, then one field norm.
			xn := polyModp(pair.x, p)
			modpNTT2(xn, gm, logTop, p, p0i, nil)
			modpPolyRecRes(xn, logTop, p, p0i, r2, nil)
			for j := range n {
				kxn := modpMontymul(modpMontymul(kx[j], xn[j], p, p0i), r2, p, p0i)
				xr[j] = modpSub(xr[j], kxn, p)
			}
			modpINTT2(xr, igm, logn, p, p0i, nil)
			res[i][c] = xr
		}
		if i == 0 {
			// rust-fn-dsa 0.4.0 restores k for the second prime with a
			// factor 2^((-sc) mod 32) / 2^(32 (sc/32 + 1)) meant to undo
			// the 2^sc: when sc is a multiple of 32 that leaves k / 2^32
			// modulo the first prime, which the draft's keys depend on.
			var unscale uint64 = 1
			if draft2026 && sc%32 == 0 {
				unscale = powModP(powModP(2, 32, uint64(p)), uint64(p)-2, uint64(p))
			}
			for j := range n {
				x := uint64(modpSet(k[j], p)) % uint64(p)
				kr[j] = modpNorm(uint32(x*unscale%uint64(p)), p)
			}
		}
	}

	p0 := primes[0].p
	for c, X := range [2][]uint32{Ft, Gt} {
		if FGlen == 1 {
			for j := range n {
				X[j*llen] = uint32(modpNorm(res[0][c][j], p0)) & 0x7FFFFFFF
			}
			continue
		}
		p1, p1i := primeP(1)
		pp := uint64(p0) * uint64(p1)
		for j := range n {
			x0, x1 := res[0][c][j], res[1][c][j]
			x0m1 := x0
			if x0m1 >= p1 {
				x0m1 -= p1
			}
			y := modpMontymul(modpSub(x1, x0m1, p1), primes[1].s, p1, p1i)
			z := uint64(x0) + uint64(p0)*uint64(y)
			if z > pp>>1 {
				z -= pp
			}
			X[j*llen] = uint32(z) & 0x7FFFFFFF
			X[j*llen+1] = uint32(z>>31) & 0x7FFFFFFF
		}
	}
}

// fips206Depth0 lifts the one-word solution from depth 1 to the full
// degree and reduces it once: the exact numerator and denominator
// (depth0Quotient) are scaled by 2^-10 into fixed point, divided in FFT
// form (the denominator is self-adjoint: real slots) and rounded.
func fips206Depth0(f, g []int8, logn uint, Fd, Gd []uint32) (Fo, Go []uint32) {
	n := 1 << logn
	hn := n >> 1
	F, G, num, den := depth0Quotient(f, g, logn, Fd, Gd, nil)
	d := make([]fxr.Value, n)
	v := make([]fxr.Value, n)
	for i := range n {
		d[i] = fxr.Value(uint64(int64(den[i])) << 22)
		v[i] = fxr.Value(uint64(int64(num[i])) << 22)
	}
	fxr.FFT(logn, d)
	fxr.FFT(logn, v)
	for i := range hn {
		v[i] = fxr.Div(v[i], d[i])
		v[i+hn] = fxr.Div(v[i+hn], d[i])
	}
	fxr.IFFT(logn, v)
	k := make([]int32, n)
	for i := range n {
		k[i] = fxr.Round(v[i])
	}
	return depth0SubtractWith(fips206KNTT, f, g, logn, F, G, k, nil)
}

// polyMaxBitlen returns the largest bit length, sign excluded (that of
// x XOR its sign mask), of the n signed integers read as flen words from
// x[i*stride+off]. Unlike go-fn-dsa's, it branches on the values: the
// result is the same, not the timing (this repository measures
// arithmetic; it is no side-channel-hardened implementation).
func polyMaxBitlen(x []uint32, n, stride, off, flen int) int {
	best := 0
	if flen == 0 {
		return 0
	}
	for i := range n {
		c := x[i*stride+off : i*stride+off+flen]
		m := -(c[flen-1] >> 30) & 0x7FFFFFFF
		for j := flen - 1; j >= 0; j-- {
			if w := c[j] ^ m; w != 0 {
				best = max(best, 31*j+bits.Len32(w))
				break
			}
		}
	}
	return best
}

// polyBigToFxr returns the n signed integers read as flen words from
// x[i*stride+off] scaled by 2^-sc, in fixed point: floor(x/2^(sc-32))
// mod 2^64, taken from the three words that hold bits sc-32 to sc+61 (the
// words beyond flen are sign words, those below 0 are zero), the top one
// sign-extended from its bit 30 -- so that a value of 2^(30+sc) or more
// wraps exactly as in go-fn-dsa's poly_big_to_fixed. flen = 0 gives zeros.
func polyBigToFxr(x []uint32, n, stride, off, flen, sc int) []fxr.Value {
	d := make([]fxr.Value, n)
	if flen <= 0 {
		return d
	}
	sch, scl := sc/31, sc%31
	if scl == 0 {
		sch, scl = sch-1, 31
	}
	for i := range n {
		c := x[i*stride+off : i*stride+off+flen]
		sw := -(c[flen-1] >> 30) >> 1
		word := func(j int) uint32 {
			switch {
			case j < 0:
				return 0
			case j >= flen:
				return sw
			}
			return c[j]
		}
		w0, w1, w2 := word(sch-1), word(sch), word(sch+1)
		w2 |= (w2 & 0x40000000) << 1
		d[i] = fxr.Value(uint64(w0)>>(scl-1) | uint64(w1)<<(32-scl) | uint64(w2)<<(63-scl))
	}
	return d
}

// fips206KNTT is the kNTTFunc of FN-DSA's NTRUSolve: the NTT of the
// reduction coefficients k as go-fn-dsa computes it (poly_sub_scaled_ntt
// at the intermediate depths, solve_NTRU_depth0 at depth 0), then reduced
// to canonical residues. go-fn-dsa sets each k as uint32(k) + (p if k < 0)
// (modpSet's formula) and runs its NTT in Montgomery arithmetic with
// R = 2^32 (twiddles g^i R mod p, the same roots and slot order as
// modpMkgm2's g^i 2^31 mod p, hence gm doubled modulo p; additions and
// subtractions with modpAdd's and modpSub's formulas; the product
// montymul32). Every value it then multiplies (by NTT(f), NTT(g) or R^2)
// enters as the unsigned 32-bit integer it is, so its residue is that
// integer's modulo p, which this function returns.
//
// For -p <= k < 2^31 (every coefficient below p in magnitude, and the
// positive ones up to 2^31) that is the NTT of k mod p, as round 3's
// kNTTRound3 computes it. For k < -p (the about 10^4 values within
// 2^31 - p of -2^31), uint32(k) + p reads as 2^32 + k + p, a residue of
// k + 2^32, not of k: go-fn-dsa's subtraction then removes (k + 2^32 mod
// p) f rather than k f, and this function reproduces that.
func fips206KNTT(t []uint32, k []int32, gm []uint32, logn uint, p, _ uint32, mc *modpCounter) {
	n := 1 << logn
	mc.add(n / 2 * int(logn))
	p0i := montgomery32Inverse(p)
	for v := range n {
		t[v] = modpSet(k[v], p)
	}
	ht := n
	for m := 1; m < n; m <<= 1 {
		ht >>= 1
		for u := range m {
			s := modpAdd(gm[m+u], gm[m+u], p)
			for j := 2 * u * ht; j < (2*u+1)*ht; j++ {
				x, y := t[j], montymul32(t[j+ht], s, p, p0i)
				t[j], t[j+ht] = modpAdd(x, y, p), modpSub(x, y, p)
			}
		}
	}
	for v := range n {
		t[v] %= p
	}
}

// montymul32 is go-fn-dsa's Montgomery multiplication (mp_mmul), for p0i
// = -1/p mod 2^32 and any a < 2^32, b < p: z = a b; w = (z mod 2^32) p0i
// mod 2^32; d = floor((z + w p) / 2^32) - p mod 2^32, plus p when d's top
// bit is set. Since a b < 2^32 p, the result is a b / 2^32 mod p in 0..p-1.
func montymul32(a, b, p, p0i uint32) uint32 {
	z := uint64(a) * uint64(b)
	w := uint32(z) * p0i
	d := uint32((z+uint64(w)*uint64(p))>>32) - p
	return d + p&-(d>>31)
}

// montgomery32Inverse returns -1/p mod 2^32 for an odd p (Newton's
// iteration: each step doubles the number of correct low bits).
func montgomery32Inverse(p uint32) uint32 {
	y := p // 1/p mod 2^3, as p*p = 1 mod 8
	for range 4 {
		y *= 2 - p*y
	}
	return -y
}
