package falcon

import "math/bits"

// Arithmetic modulo the 31-bit primes of NTRUSolve's residue number system,
// and the NTT over Z_p[X]/(X^n+1).
//
// Every prime p satisfies 2^30 < p < 2^31 and p = 1 mod 2048, so that
// X^n+1 splits completely for n <= 1024 and a value mod p fits a uint32 with
// its top bit clear. Products use Montgomery representation with R = 2^31:
// the Montgomery form of x is x*R mod p, and modpMontymul(a, b) returns
// a*b/R mod p. Mixing one Montgomery operand with one plain operand
// therefore yields a plain result, which the code below uses constantly.
//
// The functions are branch-free like the reference's: key generation
// handles secret values, and the exact bit-level behaviour (including on
// inputs outside the documented ranges) is what makes the keys match.

//go:generate go run gen_primes.go

// modpCounter counts the Montgomery products modulo the RNS primes
// (the reference's modp_montymul) that NTRUSolve makes, for package
// accel's operation counts. The count is taken per routine -- an NTT adds
// its (n/2) logn products at once -- so that a nil counter, the normal
// case, costs one predictable branch per routine call and nothing per
// product.
type modpCounter struct{ n uint64 }

// add records k products (nothing for a nil c).
func (c *modpCounter) add(k int) {
	if c != nil {
		c.n += uint64(k)
	}
}

// smallPrime is one RNS modulus with its precomputed data.
type smallPrime struct {
	p uint32 // the prime, 2^30 < p < 2^31, p = 1 mod 2048
	g uint32 // a primitive 2048-th root of unity mod p
	s uint32 // 1/(product of all previous primes) mod p, Montgomery form
}

// modpSet reduces a signed x with -p < x < p into 0..p-1.
func modpSet(x int32, p uint32) uint32 {
	w := uint32(x)
	w += p & -(w >> 31)
	return w
}

// modpNorm maps x in 0..p-1 to the signed representative in -p/2..p/2.
func modpNorm(x, p uint32) int32 {
	return int32(x - (p & (((x - ((p + 1) >> 1)) >> 31) - 1)))
}

// modpNinv31 returns -1/p mod 2^31 for odd p (Newton iteration on the
// 2-adic inverse: each step doubles the number of correct low bits).
func modpNinv31(p uint32) uint32 {
	y := 2 - p
	y *= 2 - p*y
	y *= 2 - p*y
	y *= 2 - p*y
	y *= 2 - p*y
	return 0x7FFFFFFF & -y
}

// modpR returns R = 2^31 mod p, i.e. 1 in Montgomery form; for
// 2^30 < p < 2^31 that is simply 2^31 - p.
func modpR(p uint32) uint32 { return 1<<31 - p }

// modpAdd returns a+b mod p for a, b in 0..p-1.
func modpAdd(a, b, p uint32) uint32 {
	d := a + b - p
	d += p & -(d >> 31)
	return d
}

// modpSub returns a-b mod p for a, b in 0..p-1.
func modpSub(a, b, p uint32) uint32 {
	d := a - b
	d += p & -(d >> 31)
	return d
}

// modpMontymul returns a*b/2^31 mod p (Montgomery multiplication);
// p0i = -1/p mod 2^31.
func modpMontymul(a, b, p, p0i uint32) uint32 {
	z := uint64(a) * uint64(b)
	w := ((z * uint64(p0i)) & 0x7FFFFFFF) * uint64(p)
	d := uint32((z+w)>>31) - p
	d += p & -(d >> 31)
	return d
}

// modpR2 returns 2^62 mod p, the factor that converts a plain value into
// Montgomery form in one modpMontymul. It starts from 2 in Montgomery form
// (2^32 mod p), squares five times to reach 2^32 in Montgomery form, that
// is 2^63 mod p, and halves.
func modpR2(p, p0i uint32, mc *modpCounter) uint32 {
	mc.add(5)
	z := modpR(p)
	z = modpAdd(z, z, p)
	for range 5 {
		z = modpMontymul(z, z, p, p0i)
	}
	return (z + (p & -(z & 1))) >> 1
}

// modpRx returns 2^(31*x) mod p for 1 <= x <= 2^11, by square-and-multiply
// on R2 (which is 2^31 in Montgomery form) with exponent x-1.
func modpRx(x uint, p, p0i, r2 uint32, mc *modpCounter) uint32 {
	x--
	r := r2
	z := modpR(p)
	k := 0
	for i := uint(0); 1<<i <= x; i++ {
		if x&(1<<i) != 0 {
			z = modpMontymul(z, r, p, p0i)
			k++
		}
		r = modpMontymul(r, r, p, p0i)
		k++
	}
	mc.add(k)
	return z
}

// modpDiv returns a/b mod p (0 if b = 0) by Fermat exponentiation b^(p-2);
// r = 2^31 mod p. The ladder treats the plain b as if it were in Montgomery
// form, so it yields R^2/b, and two Montgomery multiplications (by 1, then
// by a) remove both factors R.
func modpDiv(a, b, p, p0i, r uint32, mc *modpCounter) uint32 {
	mc.add(2*31 + 2)
	e := p - 2
	z := r
	for i := 30; i >= 0; i-- {
		z = modpMontymul(z, z, p, p0i)
		z2 := modpMontymul(z, b, p, p0i)
		z ^= (z ^ z2) & -((e >> uint(i)) & 1)
	}
	z = modpMontymul(z, 1, p, p0i)
	return modpMontymul(a, z, p, p0i)
}

// rev10 reverses the low 10 bits of x.
func rev10(x uint) uint { return uint(bits.Reverse16(uint16(x)) >> 6) }

// modpMkgm2 fills gm[0:n] and igm[0:n] (n = 2^logn) with the NTT twiddles
// in Montgomery form: gm[rev(i)] = w^i and igm[rev(i)] = w^-i, where w is
// a primitive 2n-th root of unity obtained by squaring g (of order 2048)
// 10-logn times and rev is the 10-bit reversal scaled to n entries.
func modpMkgm2(gm, igm []uint32, logn uint, g, p, p0i uint32, mc *modpCounter) {
	n := 1 << logn
	r2 := modpR2(p, p0i, mc)
	mc.add(1 + 10 - int(logn) + 2*n)
	g = modpMontymul(g, r2, p, p0i)
	for k := logn; k < 10; k++ {
		g = modpMontymul(g, g, p, p0i)
	}
	ig := modpDiv(r2, g, p, p0i, modpR(p), mc)
	k := 10 - logn
	x1, x2 := modpR(p), modpR(p)
	for u := range n {
		v := rev10(uint(u) << k)
		gm[v] = x1
		igm[v] = x2
		x1 = modpMontymul(x1, g, p, p0i)
		x2 = modpMontymul(x2, ig, p, p0i)
	}
}

// modpNTT2Ext computes in place the NTT of the polynomial whose
// coefficients are a[0], a[stride], a[2*stride], ... (degree 2^logn). The
// output is in bit-reversed order: slots 2j and 2j+1 hold the values at
// two opposite roots w and -w, and w^2 is the root of slot j of the
// half-size NTT. NTRUSolve relies on that pairing to move between degrees.
func modpNTT2Ext(a []uint32, stride int, gm []uint32, logn uint, p, p0i uint32, mc *modpCounter) {
	if logn == 0 {
		return
	}
	n := 1 << logn
	mc.add(n / 2 * int(logn))
	t := n
	for m := 1; m < n; m <<= 1 {
		ht := t >> 1
		for u, v1 := 0, 0; u < m; u, v1 = u+1, v1+t {
			s := gm[m+u]
			r1 := v1 * stride
			r2 := r1 + ht*stride
			for range ht {
				x := a[r1]
				y := modpMontymul(a[r2], s, p, p0i)
				a[r1] = modpAdd(x, y, p)
				a[r2] = modpSub(x, y, p)
				r1 += stride
				r2 += stride
			}
		}
		t = ht
	}
}

// modpINTT2Ext is the inverse of modpNTT2Ext, including the division by n.
func modpINTT2Ext(a []uint32, stride int, igm []uint32, logn uint, p, p0i uint32, mc *modpCounter) {
	if logn == 0 {
		return
	}
	n := 1 << logn
	mc.add(n/2*int(logn) + n)
	t := 1
	for m := n; m > 1; m >>= 1 {
		hm := m >> 1
		dt := t << 1
		for u, v1 := 0, 0; u < hm; u, v1 = u+1, v1+dt {
			s := igm[hm+u]
			r1 := v1 * stride
			r2 := r1 + t*stride
			for range t {
				x, y := a[r1], a[r2]
				a[r1] = modpAdd(x, y, p)
				a[r2] = modpMontymul(modpSub(x, y, p), s, p, p0i)
				r1 += stride
				r2 += stride
			}
		}
		t = dt
	}
	// 1/n in Montgomery form is R/n = 2^(31-logn), already below p.
	ni := uint32(1) << (31 - logn)
	for k, r := 0, 0; k < n; k, r = k+1, r+stride {
		a[r] = modpMontymul(a[r], ni, p, p0i)
	}
}

// modpNTT2 and modpINTT2 transform contiguous coefficients.
func modpNTT2(a, gm []uint32, logn uint, p, p0i uint32, mc *modpCounter) {
	modpNTT2Ext(a, 1, gm, logn, p, p0i, mc)
}

func modpINTT2(a, igm []uint32, logn uint, p, p0i uint32, mc *modpCounter) {
	modpINTT2Ext(a, 1, igm, logn, p, p0i, mc)
}

// modpPolyRecRes replaces, in NTT form, f of degree 2^logn with its field
// norm f0^2 - X*f1^2 of degree 2^(logn-1) (f = f0(X^2) + X*f1(X^2)),
// written over the first half of f: the norm at w^2 is f(w)*f(-w), the
// product of each slot pair. Applied logn times it yields the resultant of
// f and X^n+1 modulo p.
func modpPolyRecRes(f []uint32, logn uint, p, p0i, r2 uint32, mc *modpCounter) {
	hn := 1 << (logn - 1)
	mc.add(2 * hn)
	for u := range hn {
		w0, w1 := f[u<<1], f[u<<1+1]
		f[u] = modpMontymul(modpMontymul(w0, w1, p, p0i), r2, p, p0i)
	}
}

// primeData returns p, -1/p mod 2^31 and 2^62 mod p for prime index i.
func primeData(i int, mc *modpCounter) (p, p0i, r2 uint32) {
	p, p0i = primeP(i)
	return p, p0i, modpR2(p, p0i, mc)
}

// primeP returns p and -1/p mod 2^31 for prime index i, for the steps
// that need no 2^62 mod p (the reference computes that factor only where
// it is used, and so does this code: the count of Montgomery products is
// part of what package accel compares with the reference).
func primeP(i int) (p, p0i uint32) {
	p = primes[i].p
	return p, modpNinv31(p)
}
