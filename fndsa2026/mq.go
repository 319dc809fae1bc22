package fndsa2026

import "math/bits"

// Arithmetic modulo q = 12289 for keys and verification: plain integer
// products reduced with %, which is all a measurement tool needs (no
// constant-time claim).

// ntt tables: gm[k] = 7^rev10(k) mod q and igm[k] = 7^-rev10(k) mod q,
// 7 being the primitive 2048-th root of unity of round 3 and of the
// draft. The draft's NTT form of a polynomial is the output of ntt below
// (its values in the bit-reversed order of the roots).
var gm, igm = func() (g, ig [1024]uint16) {
	const root, iroot = 7, 8778 // 7 * 8778 = 1 mod q
	for k := range 1024 {
		e := uint32(bits.Reverse16(uint16(k)) >> 6)
		g[k] = uint16(powMod(root, e))
		ig[k] = uint16(powMod(iroot, e))
	}
	return
}()

func powMod(x, e uint32) uint32 {
	r := uint32(1)
	for ; e > 0; e >>= 1 {
		if e&1 != 0 {
			r = r * x % q
		}
		x = x * x % q
	}
	return r
}

// ntt transforms a (values in [0, q)) in place into NTT form.
func ntt(a []uint16) {
	n := len(a)
	t := n
	for m := 1; m < n; m <<= 1 {
		ht := t >> 1
		for i, j0 := 0, 0; i < m; i, j0 = i+1, j0+t {
			s := uint32(gm[i+m])
			for j := j0; j < j0+ht; j++ {
				x1, x2 := uint32(a[j]), uint32(a[j+ht])*s%q
				a[j] = uint16((x1 + x2) % q)
				a[j+ht] = uint16((x1 + q - x2) % q)
			}
		}
		t = ht
	}
}

// intt inverts ntt in place.
func intt(a []uint16) {
	n := len(a)
	t := 1
	for m := n >> 1; m >= 1; m >>= 1 {
		dt := t << 1
		for i, j0 := 0, 0; i < m; i, j0 = i+1, j0+dt {
			s := uint32(igm[i+m])
			for j := j0; j < j0+t; j++ {
				x1, x2 := uint32(a[j]), uint32(a[j+t])
				a[j] = uint16((x1 + x2) % q)
				a[j+t] = uint16((x1 + q - x2) * s % q)
			}
		}
		t = dt
	}
	ni := powMod(uint32(n), q-2)
	for i := range a {
		a[i] = uint16(uint32(a[i]) * ni % q)
	}
}

// modQ returns the small polynomial f modulo q.
func modQ(f []int8) []uint16 {
	a := make([]uint16, len(f))
	for i, x := range f {
		a[i] = uint16((int32(x) + q) % q)
	}
	return a
}

// modQ16 returns the polynomial s (coefficients within +-q) modulo q.
func modQ16(s []int16) []uint16 {
	a := make([]uint16, len(s))
	for i, x := range s {
		a[i] = uint16((int32(x) + q) % q)
	}
	return a
}

// centered returns x in (-q/2, q/2].
func centered(x uint16) int32 {
	v := int32(x)
	if v > q/2 {
		v -= q
	}
	return v
}

// publicNTT returns h = g/f mod (q, X^n+1) in NTT form, or ok = false
// when f is not invertible.
func publicNTT(f, g []int8) (h []uint16, ok bool) {
	fn, gn := modQ(f), modQ(g)
	ntt(fn)
	ntt(gn)
	for i := range gn {
		if fn[i] == 0 {
			return nil, false
		}
		gn[i] = uint16(uint32(gn[i]) * powMod(uint32(fn[i]), q-2) % q)
	}
	return gn, true
}

// mulNTT returns a*b pointwise (both in NTT form).
func mulNTT(a, b []uint16) []uint16 {
	c := make([]uint16, len(a))
	for i := range a {
		c[i] = uint16(uint32(a[i]) * uint32(b[i]) % q)
	}
	return c
}
