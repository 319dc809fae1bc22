package falcon

// Big integers for NTRUSolve.
//
// A big integer is a little-endian slice of 31-bit words held in uint32s
// whose top bit is kept clear, which makes carries easy to extract. Signed
// values use two's complement over the 31*len bits, so bit 30 of the top
// word is the sign. Polynomials with big coefficients are stored word-
// interleaved with a stride: coefficient i starts at index i*stride. The
// same layout holds coefficients in RNS form, where word j is the residue
// modulo primes[j].
//
// Only the operations NTRUSolve needs exist: CRT reconstruction from RNS,
// the binary extended GCD of the two resultants, and the scaled additions
// of the Babai reduction. They are branch-free like the reference's and
// reproduce its truncations exactly: fixed word lengths decide the results
// when values overflow, which is how failed key candidates are detected.

// zintSub subtracts b from a (same length) when ctl = 1 and returns the
// borrow; when ctl = 0, a is unchanged and the borrow is still computed.
func zintSub(a, b []uint32, n int, ctl uint32) uint32 {
	var cc uint32
	m := -ctl
	for u := range n {
		aw := a[u]
		w := aw - b[u] - cc
		cc = w >> 31
		aw ^= ((w & 0x7FFFFFFF) ^ aw) & m
		a[u] = aw
	}
	return cc
}

// zintMulSmall multiplies m by x < 2^31 in place and returns the carry word.
func zintMulSmall(m []uint32, n int, x uint32) uint32 {
	var cc uint32
	for u := range n {
		z := uint64(m[u])*uint64(x) + uint64(cc)
		m[u] = uint32(z) & 0x7FFFFFFF
		cc = uint32(z >> 31)
	}
	return cc
}

// zintModSmallUnsigned reduces the unsigned d[0:n] modulo p by Horner's
// rule from the top word: x <- x*2^31 + word (x*2^31 is one Montgomery
// multiplication by R2 = 2^62 mod p).
func zintModSmallUnsigned(d []uint32, n int, p, p0i, r2 uint32, mc *modpCounter) uint32 {
	mc.add(n)
	var x uint32
	for u := n - 1; u >= 0; u-- {
		x = modpMontymul(x, r2, p, p0i)
		w := d[u] - p
		w += p & -(w >> 31)
		x = modpAdd(x, w, p)
	}
	return x
}

// zintModSmallSigned reduces the signed d[0:n] modulo p;
// rx = 2^(31*n) mod p corrects for a negative value.
func zintModSmallSigned(d []uint32, n int, p, p0i, r2, rx uint32, mc *modpCounter) uint32 {
	if n == 0 {
		return 0
	}
	z := zintModSmallUnsigned(d, n, p, p0i, r2, mc)
	return modpSub(z, rx&-(d[n-1]>>30), p)
}

// zintAddMulSmall adds y*s to x (both n words, s < 2^31); x grows to
// n+1 words.
func zintAddMulSmall(x, y []uint32, n int, s uint32) {
	var cc uint32
	for u := range n {
		z := uint64(y[u])*uint64(s) + uint64(x[u]) + uint64(cc)
		x[u] = uint32(z) & 0x7FFFFFFF
		cc = uint32(z >> 31)
	}
	x[n] = cc
}

// zintNormZero replaces x with x-p when x > (p-1)/2 (both n words, p
// odd), mapping 0..p-1 onto the signed range around 0.
func zintNormZero(x, p []uint32, n int) {
	// Compare x with p/2 from the top word, shifting p right by one on the
	// fly; r ends as -1, 0 or 1 for (p-1)/2 lower than, equal to, or
	// greater than x.
	var r, bb uint32
	for u := n - 1; u >= 0; u-- {
		wx := x[u]
		wp := (p[u] >> 1) | (bb << 30)
		bb = p[u] & 1
		cc := wp - wx
		cc = ((-cc) >> 31) | -(cc >> 31)
		r |= cc & ((r & 1) - 1)
	}
	zintSub(x, p, n, r>>31)
}

// zintRebuildCRT converts num integers from RNS to binary in place. Integer
// v occupies xx[v*xstride : v*xstride+xlen] and its word j is its residue
// modulo primes[j]. Garner's method adds one prime at a time: with q the
// product of the primes already processed and x mod q known, the new value
// is (x mod q) + q*(s*(xp - (x mod q)) mod p), s = 1/q mod p. With
// normalizeSigned the results are mapped to -m/2..m/2 (m the product of
// all xlen primes). tmp must hold xlen words.
func zintRebuildCRT(xx []uint32, xlen, xstride, num int, normalizeSigned bool, tmp []uint32, mc *modpCounter) {
	tmp[0] = primes[0].p
	for u := 1; u < xlen; u++ {
		p, p0i, r2 := primeData(u, mc)
		s := primes[u].s
		mc.add(num)
		for v := range num {
			x := xx[v*xstride:]
			xp := x[u]
			xq := zintModSmallUnsigned(x, u, p, p0i, r2, mc)
			xr := modpMontymul(s, modpSub(xp, xq, p), p, p0i)
			zintAddMulSmall(x, tmp, u, xr)
		}
		tmp[u] = zintMulSmall(tmp, u, p)
	}
	if normalizeSigned {
		for v := range num {
			zintNormZero(xx[v*xstride:], tmp, xlen)
		}
	}
}

// zintNegate replaces a with -a when ctl = 1 (a unchanged when ctl = 0).
func zintNegate(a []uint32, n int, ctl uint32) {
	cc := ctl
	m := -ctl >> 1
	for u := range n {
		aw := (a[u] ^ m) + cc
		a[u] = aw & 0x7FFFFFFF
		cc = aw >> 31
	}
}

// zintCoReduce replaces a with (a*xa + b*xb)/2^31 and b with
// (a*ya + b*yb)/2^31 (the dropped low bits are zero by construction of the
// coefficients), negating each result that came out negative. It returns
// bit 0 set if a was negated and bit 1 set if b was.
func zintCoReduce(a, b []uint32, n int, xa, xb, ya, yb int64) uint32 {
	var cca, ccb int64
	for u := range n {
		wa, wb := uint64(a[u]), uint64(b[u])
		za := wa*uint64(xa) + wb*uint64(xb) + uint64(cca)
		zb := wa*uint64(ya) + wb*uint64(yb) + uint64(ccb)
		if u > 0 {
			a[u-1] = uint32(za) & 0x7FFFFFFF
			b[u-1] = uint32(zb) & 0x7FFFFFFF
		}
		cca = int64(za) >> 31
		ccb = int64(zb) >> 31
	}
	a[n-1] = uint32(cca)
	b[n-1] = uint32(ccb)
	nega := uint32(uint64(cca) >> 63)
	negb := uint32(uint64(ccb) >> 63)
	zintNegate(a, n, nega)
	zintNegate(b, n, negb)
	return nega | negb<<1
}

// zintFinishMod brings a into 0..m-1 after a Montgomery-style reduction:
// with neg = 1, -m <= a < 0 and m is added; with neg = 0, 0 <= a < 2m (the
// top word may use 32 bits) and m is subtracted if a >= m.
func zintFinishMod(a []uint32, n int, m []uint32, neg uint32) {
	// Compare a with m (borrow of a - m).
	var cc uint32
	for u := range n {
		cc = (a[u] - m[u] - cc) >> 31
	}
	// Subtract m (neg = 0, a >= m), add m (neg = 1: subtract -m), or
	// subtract 0.
	xm := -neg >> 1
	ym := -(neg | (1 - cc))
	cc = neg
	for u := range n {
		mw := (m[u] ^ xm) & ym
		aw := a[u] - mw - cc
		a[u] = aw & 0x7FFFFFFF
		cc = aw >> 31
	}
}

// zintCoReduceMod replaces a with (a*xa + b*xb)/2^31 mod m and b with
// (a*ya + b*yb)/2^31 mod m: two linear combinations each fused with a
// Montgomery reduction modulo the odd m; m0i = -1/m[0] mod 2^31.
func zintCoReduceMod(a, b, m []uint32, n int, m0i uint32, xa, xb, ya, yb int64) {
	var cca, ccb int64
	fa := ((a[0]*uint32(xa) + b[0]*uint32(xb)) * m0i) & 0x7FFFFFFF
	fb := ((a[0]*uint32(ya) + b[0]*uint32(yb)) * m0i) & 0x7FFFFFFF
	for u := range n {
		wa, wb := uint64(a[u]), uint64(b[u])
		za := wa*uint64(xa) + wb*uint64(xb) + uint64(m[u])*uint64(fa) + uint64(cca)
		zb := wa*uint64(ya) + wb*uint64(yb) + uint64(m[u])*uint64(fb) + uint64(ccb)
		if u > 0 {
			a[u-1] = uint32(za) & 0x7FFFFFFF
			b[u-1] = uint32(zb) & 0x7FFFFFFF
		}
		cca = int64(za) >> 31
		ccb = int64(zb) >> 31
	}
	a[n-1] = uint32(cca)
	b[n-1] = uint32(ccb)
	// Now -m <= a, b < 2m.
	zintFinishMod(a, n, m, uint32(uint64(cca)>>63))
	zintFinishMod(b, n, m, uint32(uint64(ccb)>>63))
}

// zintBezout computes, for odd positive x and y of n words, u and v with
// x*u - y*v = 1, 0 <= u <= y, 0 <= v <= x. It returns false if gcd(x, y)
// is not 1 or either input is even (then u, v are meaningless). tmp must
// hold 4*n words.
//
// The algorithm is the binary extended GCD on (a, b) = (x, y) with
// a = x*u0 - y*v0 and b = x*u1 - y*v1, starting from (u0, v0) = (1, 0)
// and (u1, v1) = (y, x-1). Each step halves an even value, or replaces
// the larger of two odd values by half their difference, updating the
// (u, v) pairs modulo y and x. Since every decision depends only on the
// low and high bits of a and b, 31 steps at a time are computed on
// two-word approximations of the top and the low word, giving
// coefficients (pa, pb, qa, qb) that are then applied to the full values
// at once: a' = (a*pa + b*pb)/2^31 and b' = (a*qa + b*qb)/2^31. An
// approximation may make a' or b' negative; the sign is then flipped
// together with the coefficients. Each outer round removes at least 30
// bits from len(a)+len(b), so 62*n+30 bits worth of rounds suffice.
func zintBezout(u, v, x, y []uint32, n int, tmp []uint32) bool {
	if n == 0 {
		return false
	}
	u0, v0 := u[:n], v[:n]
	u1 := tmp[0:n]
	v1 := tmp[n : 2*n]
	a := tmp[2*n : 3*n]
	b := tmp[3*n : 4*n]

	x0i := modpNinv31(x[0])
	y0i := modpNinv31(y[0])

	copy(a, x[:n])
	copy(b, y[:n])
	clear(u0)
	u0[0] = 1
	clear(v0)
	copy(u1, y[:n])
	copy(v1, x[:n])
	v1[0]--

	for num := 62*uint32(n) + 30; num >= 30; num -= 30 {
		// Extract the top two nonzero-position words of a and b (the
		// highest index j >= 1 where a[j] or b[j] is nonzero, and j-1),
		// or the single word when both are down to one word.
		c0 := ^uint32(0)
		c1 := ^uint32(0)
		var a0, a1, b0, b1 uint32
		for j := n - 1; j >= 0; j-- {
			aw, bw := a[j], b[j]
			a0 ^= (a0 ^ aw) & c0
			a1 ^= (a1 ^ aw) & c1
			b0 ^= (b0 ^ bw) & c0
			b1 ^= (b1 ^ bw) & c1
			c1 = c0
			c0 &= (((aw | bw) + 0x7FFFFFFF) >> 31) - 1
		}
		a1 |= a0 & c1
		a0 &^= c1
		b1 |= b0 & c1
		b0 &^= c1
		aHi := uint64(a0)<<31 + uint64(a1)
		bHi := uint64(b0)<<31 + uint64(b1)
		aLo, bLo := a[0], b[0]

		// 31 binary-GCD steps on the approximations. A division by 2
		// is done by not doubling the low word (the low words are
		// doubled at each step instead), so that the final a*pa + b*pb
		// is exactly divisible by 2^31.
		var pa, pb, qa, qb int64 = 1, 0, 0, 1
		for i := range 31 {
			// rt = 1 iff aHi > bHi.
			rz := bHi - aHi
			rt := uint32((rz ^ ((aHi ^ bHi) & (aHi ^ rz))) >> 63)
			oa := (aLo >> uint(i)) & 1
			ob := (bLo >> uint(i)) & 1
			cAB := oa & ob & rt
			cBA := oa & ob & ^rt
			cA := cAB | (oa ^ 1)

			aLo -= bLo & -cAB
			aHi -= bHi & -uint64(cAB)
			pa -= qa & -int64(cAB)
			pb -= qb & -int64(cAB)
			bLo -= aLo & -cBA
			bHi -= aHi & -uint64(cBA)
			qa -= pa & -int64(cBA)
			qb -= pb & -int64(cBA)

			aLo += aLo & (cA - 1)
			pa += pa & (int64(cA) - 1)
			pb += pb & (int64(cA) - 1)
			aHi ^= (aHi ^ (aHi >> 1)) & -uint64(cA)
			bLo += bLo & -cA
			qa += qa & -int64(cA)
			qb += qb & -int64(cA)
			bHi ^= (bHi ^ (bHi >> 1)) & (uint64(cA) - 1)
		}

		// Apply to the full values, fixing signs.
		r := zintCoReduce(a, b, n, pa, pb, qa, qb)
		pa -= (pa + pa) & -int64(r&1)
		pb -= (pb + pb) & -int64(r&1)
		qa -= (qa + qa) & -int64(r>>1)
		qb -= (qb + qb) & -int64(r>>1)
		zintCoReduceMod(u0, u1, y, n, y0i, pa, pb, qa, qb)
		zintCoReduceMod(v0, v1, x, n, x0i, pa, pb, qa, qb)
	}

	// a holds the GCD; it must be 1, and x, y must be odd.
	rc := a[0] ^ 1
	for j := 1; j < n; j++ {
		rc |= a[j]
	}
	return (1-((rc|-rc)>>31))&x[0]&y[0] != 0
}

// zintAddScaledMulSmall adds k*y*2^sc to x (signed, two's complement;
// x has xlen >= ylen words and the result is truncated to xlen words).
// sc is given as sch = sc/31 and scl = sc%31.
func zintAddScaledMulSmall(x []uint32, xlen int, y []uint32, ylen int, k int32, sch, scl uint32) {
	if ylen == 0 {
		return
	}
	ysign := -(y[ylen-1] >> 30) >> 1
	var tw uint32
	var cc int32
	for u := int(sch); u < xlen; u++ {
		// Next word of y scaled by 2^scl (sign-extended beyond ylen).
		v := u - int(sch)
		wy := ysign
		if v < ylen {
			wy = y[v]
		}
		wys := ((wy << scl) & 0x7FFFFFFF) | tw
		tw = wy >> (31 - scl)

		z := uint64(int64(wys)*int64(k) + int64(x[u]) + int64(cc))
		x[u] = uint32(z) & 0x7FFFFFFF
		cc = int32(uint32(z >> 31))
	}
}

// zintSubScaled subtracts y*2^sc from x (signed, two's complement; x has
// xlen >= ylen words and the result is truncated to xlen words).
func zintSubScaled(x []uint32, xlen int, y []uint32, ylen int, sch, scl uint32) {
	if ylen == 0 {
		return
	}
	ysign := -(y[ylen-1] >> 30) >> 1
	var tw, cc uint32
	for u := int(sch); u < xlen; u++ {
		v := u - int(sch)
		wy := ysign
		if v < ylen {
			wy = y[v]
		}
		wys := ((wy << scl) & 0x7FFFFFFF) | tw
		tw = wy >> (31 - scl)

		w := x[u] - wys - cc
		x[u] = w & 0x7FFFFFFF
		cc = w >> 31
	}
}

// zintOneToPlain returns the signed value of a one-word big integer.
func zintOneToPlain(x uint32) int32 {
	x |= (x & 0x40000000) << 1
	return int32(x)
}
