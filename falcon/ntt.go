package falcon

// Arithmetic in Z_q[X]/(X^n + 1), q = 12289, through the number-theoretic
// transform. Everything here is integer-only: verification, public-key
// computation and the recomputation of G never touch floating point.
//
// Elements of Z_q are uint16 values in 0..q-1. The reference keeps its NTT
// operands in Montgomery form; the transform is a linear map determined by
// q, n and the choice of roots, so working in plain representation (with
// products reduced by %, which the compiler turns into a multiply-shift)
// gives the same polynomials and keeps the code readable.

// mqElem is an element of Z_q in 0..q-1, widened for arithmetic.
type mqElem = uint32

// mqGenerator is a primitive 2048-th root of unity modulo q: its powers
// g^(2k+1), k = 0..n-1, are the roots of X^n + 1 for every n <= 1024.
const mqGenerator = 7

// mqAdd, mqSub and mqMul compute in Z_q; operands must be in 0..q-1.
func mqAdd(x, y mqElem) mqElem {
	z := x + y
	if z >= Q {
		z -= Q
	}
	return z
}

func mqSub(x, y mqElem) mqElem {
	z := x + Q - y
	if z >= Q {
		z -= Q
	}
	return z
}

func mqMul(x, y mqElem) mqElem { return x * y % Q }

// mqPow returns x^e mod q.
func mqPow(x mqElem, e uint32) mqElem {
	r := mqElem(1)
	for ; e != 0; e >>= 1 {
		if e&1 != 0 {
			r = mqMul(r, x)
		}
		x = mqMul(x, x)
	}
	return r
}

// mqInv returns 1/x mod q by Fermat's little theorem (x^(q-2)); the inverse
// of 0 is reported as 0, which callers rule out beforehand.
func mqInv(x mqElem) mqElem { return mqPow(x, Q-2) }

// mqFromSmall maps a small signed integer (|x| < q) to 0..q-1.
func mqFromSmall(x int32) uint16 {
	if x < 0 {
		x += Q
	}
	return uint16(x)
}

// mqCentre maps 0..q-1 to the centred representative in -(q-1)/2..(q-1)/2:
// values above q/2 (6144) become negative, as in the reference's
// verify_raw normalisation.
func mqCentre(x uint16) int16 {
	if x > Q/2 {
		return int16(int32(x) - Q)
	}
	return int16(x)
}

// Twiddle tables for the NTT of degree up to 1024, in the bit-reversed order
// the iterative transform walks them:
//
//	mqGM[k]  = g^rev10(k)  mod q
//	mqIGM[k] = g^-rev10(k) mod q
//
// where rev10 reverses 10 bits. One table serves every degree n = 2^logn:
// for k < n, rev10(k) = rev_logn(k) * 1024/n, so mqGM[k] = psi^rev_logn(k)
// with psi = g^(1024/n) a primitive 2n-th root of unity, which is the
// standard twiddle of butterfly group k-m at the level with m groups.
// The tables are computed once from g rather than stored.
var mqGM, mqIGM [1024]uint16

func init() {
	gInv := mqInv(mqGenerator)
	for k := 0; k < 1024; k++ {
		r := uint32(0)
		for b := 0; b < 10; b++ {
			r |= uint32(k>>b&1) << (9 - b)
		}
		mqGM[k] = uint16(mqPow(mqGenerator, r))
		mqIGM[k] = uint16(mqPow(gInv, r))
	}
}

// mqNTT transforms a (n = 2^logn coefficients, 0..q-1) in place into its
// evaluations at the roots of X^n + 1, in bit-reversed order. It is the
// Cooley-Tukey decimation in time: at the level with m groups of
// half-width ht, the pair (a[j], a[j+ht]) becomes (a[j]+s a[j+ht],
// a[j]-s a[j+ht]) with s the group's twiddle.
func mqNTT(a []uint16, logn uint) {
	n := 1 << logn
	ht := n
	for m := 1; m < n; m <<= 1 {
		ht >>= 1
		for i, j1 := 0, 0; i < m; i, j1 = i+1, j1+2*ht {
			s := mqElem(mqGM[m+i])
			lo := a[j1 : j1+ht]
			hi := a[j1+ht : j1+2*ht]
			hi = hi[:len(lo)]
			for j := range lo {
				u := mqElem(lo[j])
				v := mqMul(mqElem(hi[j]), s)
				lo[j] = uint16(mqAdd(u, v))
				hi[j] = uint16(mqSub(u, v))
			}
		}
	}
}

// mqINTT inverts mqNTT in place (Gentleman-Sande butterflies with the
// inverse twiddles, then division by n).
func mqINTT(a []uint16, logn uint) {
	n := 1 << logn
	t := 1
	for m := n; m > 1; m >>= 1 {
		hm := m >> 1
		for i, j1 := 0, 0; i < hm; i, j1 = i+1, j1+2*t {
			s := mqElem(mqIGM[hm+i])
			lo := a[j1 : j1+t]
			hi := a[j1+t : j1+2*t]
			hi = hi[:len(lo)]
			for j := range lo {
				u := mqElem(lo[j])
				v := mqElem(hi[j])
				lo[j] = uint16(mqAdd(u, v))
				hi[j] = uint16(mqMul(mqSub(u, v), s))
			}
		}
		t <<= 1
	}
	ni := mqInv(mqElem(n))
	for j := range a[:n] {
		a[j] = uint16(mqMul(mqElem(a[j]), ni))
	}
}

// mqPolyFromSmall reduces small signed coefficients into a fresh mod-q
// polynomial.
func mqPolyFromSmall[T int8 | int16](x []T) []uint16 {
	out := make([]uint16, len(x))
	for i, v := range x {
		out[i] = mqFromSmall(int32(v))
	}
	return out
}

// mqPolyMulNTT sets a[i] = a[i]*b[i], both in NTT representation.
func mqPolyMulNTT(a, b []uint16) {
	for i := range a {
		a[i] = uint16(mqMul(mqElem(a[i]), mqElem(b[i])))
	}
}

// mqPolyDivNTT sets a[i] = a[i]/b[i], both in NTT representation. It
// reports false, leaving a unchanged, when some b[i] is zero, i.e. when b
// is not invertible modulo (q, X^n + 1).
//
// The n inverses cost one exponentiation (Montgomery's simultaneous
// inversion): with prefix products p_i = b_0 ... b_{i-1}, one inverse of
// p_n gives every 1/b_i = p_i / p_{i+1} walking back down, at three
// multiplications per coefficient instead of an exponentiation each.
func mqPolyDivNTT(a, b []uint16) bool {
	var buf [1024]uint16
	prefix := buf[:]
	if len(b) > len(buf) {
		prefix = make([]uint16, len(b))
	}
	acc := mqElem(1)
	for i, v := range b {
		if v == 0 {
			return false
		}
		prefix[i] = uint16(acc)
		acc = mqMul(acc, mqElem(v))
	}
	inv := mqInv(acc) // 1/(b_0 ... b_{n-1})
	for i := len(b) - 1; i >= 0; i-- {
		bi := mqMul(inv, mqElem(prefix[i])) // 1/b_i
		inv = mqMul(inv, mqElem(b[i]))      // 1/(b_0 ... b_{i-1})
		a[i] = uint16(mqMul(mqElem(a[i]), bi))
	}
	return true
}
