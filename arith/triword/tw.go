package triword

import "math"

// TW is a triple-word number: the unevaluated sum Hi + Mid + Lo of three
// binary32 limbs, P-nonoverlapping in the sense of the paper's
// Definition 5: |Mid| < ulp(Hi) and |Lo| < ulp(Mid), with zero limbs only
// at the end. The conversions of this package produce the stronger
// half-ulp separation (|Mid| <= ulp(Hi)/2, |Lo| <= ulp(Mid)/2); the
// arithmetic guarantees the P-nonoverlapping form. The representation of
// a value is not unique, so TW values are compared by value (Arith.Lt),
// never limb by limb.
type TW struct{ Hi, Mid, Lo float32 }

// Constants of the Newton iterations, all exact binary32 values
// (u = 2^-24).
const (
	onePlus2u  float32 = 1 + 0x1p-23 // successor of 1: the reciprocal's seed numerator
	oneMinus2u float32 = 1 - 0x1p-23 // the virtual h0 of Algorithm 13
	onePlus4u  float32 = 1 + 0x1p-22 // the square root's seed numerator
)

// neg negates limb by limb (exact).
func neg(x TW) TW { return TW{-x.Hi, -x.Mid, -x.Lo} }

// toTW is Algorithm 6 (ToTW): the triple word with the exact sum a+b+c
// (2Sum, VecSum, VSEB(3)). Tests use it to normalise random limbs.
func toTW(a, b, c float32) TW {
	d0, d1 := twoSum(a, b)
	e := [3]float32{d0, d1, c}
	vecSum(e[:])
	var r [3]float32
	vseb(e[:], r[:])
	return TW{r[0], r[1], r[2]}
}

// add is Algorithm 8 (TWSum): merge the six limbs by decreasing
// magnitude, VecSum them, and keep the first three terms of VSEB. The
// result is a triple word within 2u^3 + 4.2u^4 of the exact sum
// (Theorem 6 and Theorem 3 with k = 3).
//
// The merge runs without data-dependent branches in the usual case, the
// pairwise order: the larger and then the smaller of the heads (x's on a
// tie), of the middle limbs, and of the last limbs. Follow the merge
// (mergeLimbs) from its state (i, j) = (k, k), pair k not yet taken: it
// takes x's limb a_k when |b_k| <= |a_k| and b_k otherwise, which is the
// pair's first element. If it took a_k, the next step compares b_k with
// a_{k+1} and takes b_k exactly when |b_k| > |a_{k+1}|; if it took b_k,
// the next step takes a_k exactly when |b_{k+1}| <= |a_k|. Either way it
// is then back at (k+1, k+1). At k = 2 the remaining limb follows whatever
// the magnitudes (one list is exhausted). So the merge is the pairwise
// order exactly when that condition holds at k = 0 and k = 1; add checks
// it, for any limbs, and runs mergeLimbs when it fails.
//
// Magnitudes are compared as the integers of their bit patterns without
// the sign, which orders non-NaN binary32 values by absolute value as the
// floating-point comparison does (-0 and +0 both 0); a NaN limb takes
// mergeLimbs. Selecting on those integers compiles to conditional moves,
// where the merge's comparisons of random limbs are unpredictable
// branches.
func add(x, y TW) TW {
	const mag, inf = 1<<31 - 1, 0x7f800000
	xh, xm, xl := math.Float32bits(x.Hi), math.Float32bits(x.Mid), math.Float32bits(x.Lo)
	yh, ym, yl := math.Float32bits(y.Hi), math.Float32bits(y.Mid), math.Float32bits(y.Lo)
	ah, am, al := xh&mag, xm&mag, xl&mag
	bh, bm, bl := yh&mag, ym&mag, yl&mag
	// Pair k's first element: x's limb when |b_k| <= |a_k|.
	t0, t1, t2 := bh <= ah, bm <= am, bl <= al
	// The condition at k = 0 and k = 1, as one comparison each of
	// selected operands: |a_{k+1}| < |b_k| after a_k, !(|a_k| < |b_{k+1}|)
	// after b_k.
	l0, r0 := ah, bm
	if t0 {
		l0, r0 = am, bh
	}
	l1, r1 := am, bl
	if t1 {
		l1, r1 = al, bm
	}
	c0, c1 := (l0 < r0) == t0, (l1 < r1) == t1
	p0, p1 := yh, xh
	if t0 {
		p0, p1 = xh, yh
	}
	p2, p3 := ym, xm
	if t1 {
		p2, p3 = xm, ym
	}
	p4, p5 := yl, xl
	if t2 {
		p4, p5 = xl, yl
	}
	z0, z1, z2 := math.Float32frombits(p0), math.Float32frombits(p1), math.Float32frombits(p2)
	z3, z4, z5 := math.Float32frombits(p3), math.Float32frombits(p4), math.Float32frombits(p5)
	if !c0 || !c1 || max(ah, am, al, bh, bm, bl) > inf {
		z := mergeLimbs(x, y)
		z0, z1, z2, z3, z4, z5 = z[0], z[1], z[2], z[3], z[4], z[5]
	}
	// VecSum(z) then VSEB(3), unrolled: the operations of vecSum and
	// vseb, in their order, without their loops (which do not inline),
	// less two shortcuts that leave every result as it was.
	s, z5 := twoSum(z4, z5)
	s, z4 = twoSum(z3, s)
	s, z3 = twoSum(z2, s)
	s, z2 = twoSum(z1, s)
	z0, z1 = twoSum(z0, s)
	var r [3]float32
	// VSEB's first step is the 2Sum of z0 and z1, themselves a 2Sum's
	// result: RN(z0+z1) = z0 and the error is z1. When z1 is finite and
	// nonzero that step emits z0 and carries z1, exactly the values it
	// would compute; otherwise (zero, or a NaN after an overflow) it runs.
	eps, k := z1, 1
	if v := math.Float32bits(z1) &^ (1 << 31); v-1 < 0x7f800000-1 {
		r[0] = z0
	} else {
		eps, k = vsebStep(r[:], 0, z0, z1)
	}
	eps, k = vsebStep(r[:], k, eps, z2)
	eps, k = vsebStep(r[:], k, eps, z3)
	if k == len(r) {
		// All three terms are out: VSEB's remaining steps would emit
		// only terms past the third, which are dropped.
		return TW{r[0], r[1], r[2]}
	}
	eps, k = vsebStep(r[:], k, eps, z4)
	vsebEnd(r[:], k, eps, z5)
	return TW{r[0], r[1], r[2]}
}

// mergeLimbs is the merge of Algorithm 8: the six limbs of x and y by
// decreasing magnitude, as the formal proof merges them (a two-way merge
// of the limb lists that takes x's limb on ties). It is defined for any
// limbs, ordered or not, NaN included.
func mergeLimbs(x, y TW) [6]float32 {
	a := [3]float32{x.Hi, x.Mid, x.Lo}
	b := [3]float32{y.Hi, y.Mid, y.Lo}
	var z [6]float32
	i, j := 0, 0
	for k := range z {
		if j == 3 || (i < 3 && abs32(b[j]) <= abs32(a[i])) {
			z[k] = a[i]
			i++
		} else {
			z[k] = b[j]
			j++
		}
	}
	return z
}

// mul33 is Algorithm 9 (3Prod^acc_{3,3}) when accurate is set and
// Algorithm 10 (3Prod^fast_{3,3}) otherwise. Both share the partial
// products down to z3; the fast variant rounds c+z3 once instead of
// carrying its error through a fifth VecSum term. The FMAs of the paper
// are fma32.
func mul33(x, y TW, accurate bool) TW {
	z00p, z00m := twoProd(x.Hi, y.Hi)
	z01p, z01m := twoProd(x.Hi, y.Mid)
	z10p, z10m := twoProd(x.Mid, y.Hi)
	// VecSum(z00-, z01+, z10+), unrolled as in add.
	s, b2 := twoSum(z01p, z10p)
	b0, b1 := twoSum(z00m, s)
	c, ok0 := fma32Fast(x.Mid, y.Mid, b2)
	z31, ok1 := fma32Fast(x.Hi, y.Lo, z10m)
	z32, ok2 := fma32Fast(x.Lo, y.Hi, z01m)
	if !(ok0 && ok1 && ok2) {
		c, z31, z32 = fma32(x.Mid, y.Mid, b2), fma32(x.Hi, y.Lo, z10m), fma32(x.Lo, y.Hi, z01m)
	}
	z3 := z31 + z32
	var r [2]float32
	if accurate {
		// VecSum(z00+, b0, b1, c, z3), then VSEB(2) of its last four.
		s, e4 := twoSum(c, z3)
		s, e3 := twoSum(b1, s)
		s, e2 := twoSum(b0, s)
		e0, e1 := twoSum(z00p, s)
		eps, k := vsebStep(r[:], 0, e1, e2)
		eps, k = vsebStep(r[:], k, eps, e3)
		if k < len(r) { // otherwise the last step would emit only dropped terms
			vsebEnd(r[:], k, eps, e4)
		}
		return TW{e0, r[0], r[1]}
	}
	// VecSum(z00+, b0, b1, c+z3), then VSEB(2) of its last three.
	s3 := c + z3
	s, e3 := twoSum(b1, s3)
	s, e2 := twoSum(b0, s)
	e0, e1 := twoSum(z00p, s)
	eps, k := vsebStep(r[:], 0, e1, e2)
	vsebEnd(r[:], k, eps, e3)
	return TW{e0, r[0], r[1]}
}

// mulDW is Algorithm 11 (3Prod^acc_{2,3}): the double word (x0, x1) times
// the triple word y. It is Algorithm 9 with x2 = 0, so z32 = z01-.
func mulDW(x0, x1 float32, y TW) TW {
	z00p, z00m := twoProd(x0, y.Hi)
	z01p, z01m := twoProd(x0, y.Mid)
	z10p, z10m := twoProd(x1, y.Hi)
	b := [3]float32{z00m, z01p, z10p}
	vecSum(b[:])
	c, ok0 := fma32Fast(x1, y.Mid, b[2])
	z31, ok1 := fma32Fast(x0, y.Lo, z10m)
	if !(ok0 && ok1) {
		c, z31 = fma32(x1, y.Mid, b[2]), fma32(x0, y.Lo, z10m)
	}
	z3 := z31 + z01m
	e := [5]float32{z00p, b[0], b[1], c, z3}
	vecSum(e[:])
	var r [2]float32
	vseb(e[1:], r[:])
	return TW{e[0], r[0], r[1]}
}

// mulOne is Algorithm 20 (Algorithm 18 when x.Lo = 0): x times the triple
// word (1, y1, y2), whose head is 1 by the callers' construction and is
// not read. Both Fast2Sums are sorted first: that is the erratum found by
// the formal proof (the published algorithms, and TWFalcon's code, call
// Fast2Sum on arguments whose order is not guaranteed, which loses up to
// about 41u^3 instead of the announced u^3).
func mulOne(x TW, y1, y2 float32) TW {
	z01p, z01m := twoProd(x.Hi, y1)
	b0, b1 := fastTwoSumSorted(x.Mid, z01p)
	z31 := fma32(x.Mid, y1, z01m)
	z3 := fma32(x.Hi, y2, z31)
	s3 := b1 + z3
	s3 += x.Lo
	e := [3]float32{x.Hi, b0, s3}
	vecSum(e[:])
	r1, r2 := fastTwoSumSorted(e[1], e[2])
	return TW{e[0], r1, r2}
}

// reciSeed is the head of Algorithm 13: a double word b ~ 1/(x0+x1) from
// one binary32 division and one Newton step on (x0, x1). The seed
// a = RN((1+2u)/x0) is biased upward so that RN(a*x0) = 1+2u exactly,
// which makes (1+2u, h11) an error-free split of a*x0.
func reciSeed(x0, x1 float32) (b0, b1 float32) {
	a := onePlus2u / x0
	h11 := fma32(a, x0, -onePlus2u)
	h1 := fma32(-a, x1, -h11)
	b01, b11 := twoProd(a, oneMinus2u)
	b12 := fma32(a, h1, b11)
	return fastTwoSum(b01, b12)
}

// inv is Algorithm 13 (3Reci), accurate variant: b from reciSeed, then one
// Newton step in triple words, y = b*(2 - b*x), with Algorithm 11 for
// b*x (whose head is exactly 1, so 2 - b*x has head 1) and Algorithm 18
// for the final product. Relative error <= 11.5u^3 + 1830u^4 (Theorem 9
// as machine-checked; the paper's 1465u^4 does not hold).
func inv(x TW) TW {
	b0, b1 := reciSeed(x.Hi, x.Mid)
	m := mulDW(b0, b1, x)
	return mulOne(TW{b0, b1, 0}, -m.Mid, -m.Lo)
}

// div is Algorithm 14 (3Div), accurate variant: z/x = (b*z)*(2 - b*x)
// with b from reciSeed, both double-word products by Algorithm 11 and the
// last by Algorithm 20. Relative error <= 27u^3 + 2500u^4 (Theorem 10 as
// machine-checked; the paper states 24u^3 + 1509u^4).
func div(z, x TW) TW {
	b0, b1 := reciSeed(x.Hi, x.Mid)
	m := mulDW(b0, b1, x)
	a := mulDW(b0, b1, z)
	return mulOne(a, -m.Mid, -m.Lo)
}

// sqrt is Algorithm 15 (3SqRt), accurate variant. A double word
// b ~ 1/sqrt(x0+x1) comes from a binary32 seed a = RN((1+4u)/RN(sqrt(x0)))
// and one Newton step; then i1 = b*x ~ sqrt(x), and
// y = i1*(3/2 - (b/2)*i1), where (b/2)*i1 has head exactly 1/2, so the
// second factor has head 1 and Algorithm 20 applies. Relative error
// <= 24u^3 + 10260u^4 (Theorem 11). The input must be positive; zero
// returns zero.
func sqrt(x TW) TW {
	if x.Hi == 0 {
		return TW{}
	}
	s := float32(math.Sqrt(float64(x.Hi))) // correctly rounded: 53 >= 2*24+2
	a := onePlus4u / s
	ah := float32(0.5 * a)
	h01, h11 := twoProd(a, x.Hi)
	h1 := fma32(a, x.Mid, h11)
	h201, h211 := twoProd(ah, h01)
	h20 := 1.5 - h201
	h21 := -fma32(ah, h1, h211)
	b01, b11 := twoProd(a, h20)
	b12 := fma32(a, h21, b11)
	b0, b1 := fastTwoSum(b01, b12)
	i1 := mulDW(b0, b1, x)
	m := mulDW(float32(0.5*b0), float32(0.5*b1), i1)
	return mulOne(i1, -m.Mid, -m.Lo)
}

// mulFast4 sets r[k] = mul33(x[k], y[k], false) for the four lanes k, bit
// for bit, with the lanes' work interleaved stage by stage. A fast product
// is a few long dependency chains (2Prod, the FMAs, the 2Sum chain of its
// VecSum, then VSEB's), so one product alone keeps the core waiting on
// latencies; four independent ones computed one after the other overlap
// only as far as the processor's reordering window reaches into the next
// call. Here each stage runs its operations for the four lanes in a short
// loop, whose iterations are independent, so the four chains advance
// together. Every lane performs exactly mul33's operations on its own
// operands, in mul33's order, so the results are mul33's.
func mulFast4(r, x, y *[4]TW) {
	var z00p, b0, b1, s3 [4]float32
	// The partial products, the first VecSum and the three FMAs.
	for k := range 4 {
		xk, yk := &x[k], &y[k]
		p, z00m := twoProd(xk.Hi, yk.Hi)
		z01p, z01m := twoProd(xk.Hi, yk.Mid)
		z10p, z10m := twoProd(xk.Mid, yk.Hi)
		s, b2 := twoSum(z01p, z10p)
		b0[k], b1[k] = twoSum(z00m, s)
		c, ok0 := fma32Fast(xk.Mid, yk.Mid, b2)
		z31, ok1 := fma32Fast(xk.Hi, yk.Lo, z10m)
		z32, ok2 := fma32Fast(xk.Lo, yk.Hi, z01m)
		if !(ok0 && ok1 && ok2) {
			c, z31, z32 = fma32(xk.Mid, yk.Mid, b2), fma32(xk.Hi, yk.Lo, z10m), fma32(xk.Lo, yk.Hi, z01m)
		}
		z00p[k] = p
		s3[k] = c + (z31 + z32)
	}
	// VecSum(z00+, b0, b1, c+z3), then VSEB(2) of its last three.
	for k := range 4 {
		s, e3 := twoSum(b1[k], s3[k])
		s, e2 := twoSum(b0[k], s)
		e0, e1 := twoSum(z00p[k], s)
		var o [2]float32
		eps, j := vsebStep(o[:], 0, e1, e2)
		vsebEnd(o[:], j, eps, e3)
		r[k] = TW{e0, o[0], o[1]}
	}
}

// CMul returns the complex product (xr + i xi)(yr + i yi) in the
// reference's operation order, re = xr*yr - xi*yi and im = xr*yi + xi*yr:
// bit for bit Sub(Mul(xr, yr), Mul(xi, yi)) and Add(Mul(xr, yi), Mul(xi,
// yr)). Package falcon's FFT-domain kernels call it for every complex
// product of the triword copies of their code; with the fast product the
// four real products are computed together (mulFast4), which their
// independence allows.
func (a Arith) CMul(xr, xi, yr, yi TW) (re, im TW) {
	if a.Accurate {
		return add(mul33(xr, yr, true), neg(mul33(xi, yi, true))),
			add(mul33(xr, yi, true), mul33(xi, yr, true))
	}
	var p [4]TW
	mulFast4(&p, &[4]TW{xr, xi, xr, xi}, &[4]TW{yr, yi, yi, yr})
	return add(p[0], neg(p[1])), add(p[2], p[3])
}
