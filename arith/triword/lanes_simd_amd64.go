//go:build goexperiment.simd && amd64

package triword

import (
	"simd/archsimd"
	"unsafe"
)

// Eight triple words at a time: the sum and the fast product of this
// package over slices, on 256-bit AVX2 vectors of eight binary32 lanes
// (GOEXPERIMENT=simd build, amd64 with AVX2 and FMA).
//
// Bit-identity with add and mul33 (the scalar operations) rests on three
// rules:
//
//   - each lane performs the scalar operation's binary32 operations on
//     the same operands in the same order, each rounded once: VADDPS,
//     VSUBPS, VMULPS; the scalar code's FMAs (the error of 2Prod, fma32)
//     are correctly rounded binary32 FMAs, VFMADD of the same operands,
//     which rounds the exact a*b + c once as fma32 and twoProd do;
//   - the scalar code's branches become selections: the merge's pairwise
//     order (add's conditional moves) selects per lane; VSEB's emission
//     of a term into output slot k, with k running per lane, is a
//     selection into each slot on (error nonzero, k = slot); add's two
//     shortcuts (VSEB's first step and its early return once three terms
//     are out) are the steps they shortcut, which the scalar code shows
//     leave every result as it was;
//   - a lane the vector code does not cover exactly -- add's merge out of
//     pairwise order (which takes mergeLimbs), and any lane with a limb
//     large enough for a sum or product to overflow (where NaN error
//     terms would meet VSEB's zero test) -- makes its whole group of
//     eight run through the scalar operation instead.
//
// The triple words stay in memory as the slices hold them (Hi, Mid, Lo
// of each element in turn); a group of eight is three vector loads,
// regrouped into a vector of heads, one of middle limbs and one of last
// limbs by permutations and blends (no rounding), and back for the store.
// As in package falcon's vector kernels, each kernel ends its vector work
// with VZEROUPPER before any scalar floating-point code or call runs
// (internal/avxcheck checks the compiled code).

type (
	f32x8 = archsimd.Float32x8
	i32x8 = archsimd.Int32x8
	u32x8 = archsimd.Uint32x8
	m32x8 = archsimd.Mask32x8
)

// HasLanes reports whether AddN, SubN and MulN run eight lanes at a time:
// the CPU has AVX2 and FMA.
var HasLanes = archsimd.X86.AVX2() && archsimd.X86.FMA()

// Index vectors of the regrouping. Loading eight triple words gives the
// floats 0..23 in three vectors v0, v1, v2; permuting each with perm*
// puts the limb of element i in lane i of the vector holding it (heads:
// lanes 0-2 from v0, 3-5 from v1, 6-7 from v2; middle limbs: 0-2, 3-4,
// 5-7; last limbs 0-1, 2-4, 5-7). Storing, output vector k takes lane j
// from element store*[k][j] of the heads, middle limbs or last limbs, as
// lane j's position 8k+j is 0, 1 or 2 modulo 3.
var (
	permHi    = [8]uint32{0, 3, 6, 1, 4, 7, 2, 5}
	permMid   = [8]uint32{1, 4, 7, 2, 5, 0, 3, 6}
	permLo    = [8]uint32{2, 5, 0, 3, 6, 1, 4, 7}
	storeIdx  = [3][8]uint32{{0, 0, 0, 1, 1, 1, 2, 2}, {2, 3, 3, 3, 4, 4, 4, 5}, {5, 5, 6, 6, 6, 7, 7, 7}}
	laneIota  = [8]int32{0, 1, 2, 3, 4, 5, 6, 7}
	laneMod3  = [8]int32{0, 1, 2, 0, 1, 2, 0, 1}
	magBits   = [8]int32{1<<31 - 1, 1<<31 - 1, 1<<31 - 1, 1<<31 - 1, 1<<31 - 1, 1<<31 - 1, 1<<31 - 1, 1<<31 - 1}
	signBit32 = [8]int32{-1 << 31, -1 << 31, -1 << 31, -1 << 31, -1 << 31, -1 << 31, -1 << 31, -1 << 31}
	smallInts = func() (t [8][8]int32) {
		for j := range 7 {
			for l := range 8 {
				t[j][l] = int32(j)
			}
		}
		t[7] = [8]int32{-1, -1, -1, -1, -1, -1, -1, -1}
		return t
	}()
)

// Limits of the lanes covered: a sum's limbs below 2^125 in magnitude
// (six of them sum to less than 2^128, so no 2Sum overflows), a
// product's heads below 2^62 (their product, and every partial product,
// below 2^124).
var (
	sumLimits = [8]int32{0x7e000000, 0x7e000000, 0x7e000000, 0x7e000000, 0x7e000000, 0x7e000000, 0x7e000000, 0x7e000000} // bits of 2^125
	mulLimits = [8]int32{0x5e800000, 0x5e800000, 0x5e800000, 0x5e800000, 0x5e800000, 0x5e800000, 0x5e800000, 0x5e800000} // bits of 2^62
)

// consts are the kernels' constant vectors, loaded once per call by
// initA, initB and initMod3. Every helper here must inline (a call would
// pass vectors in dirty registers), hence the loading in pieces small
// enough for the inliner.
type consts struct {
	pHi, pMid, pLo   u32x8
	s0, s1, s2       u32x8
	lt2, lt3         m32x8
	lt5, lt6         m32x8
	modA, modB, modC m32x8 // lanes whose index is 0, 1, 2 modulo 3
	mag, sign        i32x8
	k                [8]i32x8 // k[j]: j in every lane (k[7]: -1)
}

// initA, initB and initMod3 load every constant (initA first: the masks
// are built from c.k).
func (c *consts) initA() {
	c.initPerm()
	c.initInts()
}

func (c *consts) initB() {
	c.initMasks()
	c.initMasks2()
}

func (c *consts) initPerm() {
	c.pHi, c.pMid, c.pLo = archsimd.LoadUint32x8(&permHi), archsimd.LoadUint32x8(&permMid), archsimd.LoadUint32x8(&permLo)
	c.s0, c.s1, c.s2 = archsimd.LoadUint32x8(&storeIdx[0]), archsimd.LoadUint32x8(&storeIdx[1]), archsimd.LoadUint32x8(&storeIdx[2])
	c.mag, c.sign = archsimd.LoadInt32x8(&magBits), archsimd.LoadInt32x8(&signBit32)
}

func (c *consts) initMasks() {
	iota := archsimd.LoadInt32x8(&laneIota)
	c.lt2, c.lt3 = iota.Less(c.k[2]), iota.Less(c.k[3])
}

func (c *consts) initMasks2() {
	iota := archsimd.LoadInt32x8(&laneIota)
	c.lt5, c.lt6 = iota.Less(c.k[5]), iota.Less(c.k[6])
}

func (c *consts) initInts() {
	for j := range c.k {
		c.k[j] = archsimd.LoadInt32x8(&smallInts[j])
	}
}

func (c *consts) initMod3() {
	mod3 := archsimd.LoadInt32x8(&laneMod3)
	c.modA, c.modB = mod3.Equal(c.k[0]), mod3.Equal(c.k[1])
	c.modC = mod3.Equal(c.k[2])
}

// ld3 loads the 24 floats of the eight triple words at f[3i:].
func ld3(f []float32, i int) (v0, v1, v2 f32x8) {
	return archsimd.LoadFloat32x8Slice(f[3*i:]), archsimd.LoadFloat32x8Slice(f[3*i+8:]), archsimd.LoadFloat32x8Slice(f[3*i+16:])
}

// st3 is ld3's store.
func st3(f []float32, i int, v0, v1, v2 f32x8) {
	v0.StoreSlice(f[3*i:])
	v1.StoreSlice(f[3*i+8:])
	v2.StoreSlice(f[3*i+16:])
}

// gather takes lanes 0..m1-1 from v0, m1..m2-1 from v1 and the rest from
// v2, each permuted by p.
func gather(v0, v1, v2 f32x8, p u32x8, m1, m2 m32x8) f32x8 {
	return v0.Permute(p).Merge(v1.Permute(p).Merge(v2.Permute(p), m2), m1)
}

// heads, mids and lows regroup ld3's vectors into the eight elements'
// heads, middle limbs and last limbs.
func (c *consts) heads(v0, v1, v2 f32x8) f32x8 { return gather(v0, v1, v2, c.pHi, c.lt3, c.lt6) }
func (c *consts) mids(v0, v1, v2 f32x8) f32x8  { return gather(v0, v1, v2, c.pMid, c.lt3, c.lt5) }
func (c *consts) lows(v0, v1, v2 f32x8) f32x8  { return gather(v0, v1, v2, c.pLo, c.lt2, c.lt5) }

// scatter is gather's inverse for output vector k: lane j takes the head
// where mh, the middle limb where mm, the last limb elsewhere, each at
// element p[j]. Lane j of output vector k holds float 8k+j, a head when
// 8k+j = 0 mod 3, a middle limb when 1, a last limb when 2 (8k = 0, 2, 1
// mod 3).
func scatter(hi, mid, lo f32x8, p u32x8, mh, mm m32x8) f32x8 {
	return hi.Permute(p).Merge(mid.Permute(p).Merge(lo.Permute(p), mm), mh)
}

func (c *consts) out0(hi, mid, lo f32x8) f32x8 { return scatter(hi, mid, lo, c.s0, c.modA, c.modB) }
func (c *consts) out1(hi, mid, lo f32x8) f32x8 { return scatter(hi, mid, lo, c.s1, c.modB, c.modC) }
func (c *consts) out2(hi, mid, lo f32x8) f32x8 { return scatter(hi, mid, lo, c.s2, c.modC, c.modA) }

// pick is v where r = k, else z.
func pick(z, v f32x8, r, k i32x8) f32x8 { return v.Merge(z, r.Equal(k)) }

// twoSum8 is twoSum on eight lanes.
func twoSum8(a, b f32x8) (s, e f32x8) {
	s = a.Add(b)
	a1 := s.Sub(b)
	b1 := s.Sub(a1)
	return s, a.Sub(a1).Add(b.Sub(b1))
}

// twoProd8 is twoProd on eight lanes: the error is the FMA a*b - p.
func (c *consts) twoProd8(a, b f32x8) (p, e f32x8) {
	p = a.Mul(b)
	return p, a.MulAdd(b, c.neg8(p))
}

func (c *consts) neg8(x f32x8) f32x8 { return x.AsInt32x8().Xor(c.sign).AsFloat32x8() }

// VSEB's state on eight lanes is the three output slots r0, r1, r2
// (r_j final where k > j) and the count k of terms emitted, per lane,
// kept in variables: a struct or array of vectors is copied and cleared
// with legacy-SSE moves inside the vector code. Its start is +0 in every
// slot and k = 0 (c.k[0], all zero bits). A product's VSEB(2) runs the
// same steps and leaves r2 unused.

// step is vsebStep on eight lanes: a nonzero error emits the sum into slot
// k (kept if k < 3) and carries the error; a zero one carries the sum.
// The operands are finite here, so the error's zero test is exact.
func (c *consts) step(r0, r1, r2 f32x8, k i32x8, eps, x f32x8) (f32x8, f32x8, f32x8, i32x8, f32x8) {
	s, t := twoSum8(eps, x)
	emit := t.NotEqual(c.k[0].AsFloat32x8())
	r0 = s.Merge(r0, emit.And(k.Equal(c.k[0])))
	r1 = s.Merge(r1, emit.And(k.Equal(c.k[1])))
	r2 = s.Merge(r2, emit.And(k.Equal(c.k[2])))
	return r0, r1, r2, k.Sub(emit.ToInt32x8()), t.Merge(s, emit)
}

// end is vsebEnd on eight lanes: the final 2Sum's two results into slots
// k and k+1 (those below 3).
func (c *consts) end(r0, r1, r2 f32x8, k i32x8, eps, x f32x8) (f32x8, f32x8, f32x8) {
	y0, y1 := twoSum8(eps, x)
	k0, k1, k2 := k.Equal(c.k[0]), k.Equal(c.k[1]), k.Equal(c.k[2])
	return y0.Merge(r0, k0), y0.Merge(y1.Merge(r1, k0), k1), y0.Merge(y1.Merge(r2, k1), k2)
}

// flat is the slice's floats, Hi, Mid, Lo of each element in turn (TW
// has no padding).
func flat(s []TW) []float32 {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice(&s[0].Hi, 3*len(s))
}

// AddN sets dst[i] = x[i] + y[i] (add, Algorithm 8) for every i < len(dst),
// eight at a time where HasLanes, bit for bit the scalar sums. The slices
// have the same length; dst may be x or y but must not overlap them
// otherwise (arith.Vector's contract).
func AddN(dst, x, y []TW) { addN(dst, x, y, false) }

// SubN sets dst[i] = x[i] - y[i], as AddN of the negated y.
func SubN(dst, x, y []TW) { addN(dst, x, y, true) }

func addN(dst, x, y []TW, sub bool) {
	run := func(fd, fx, fy []float32, i, n int) int { return addRun(fd, fx, fy, i, n, sub) }
	lanesN(dst, x, y, run, func(x, y TW) TW { return addScalar(x, y, sub) })
}

// lanesN runs an operation over the slices: groups of eight through run
// (a kernel that stops at the first group it does not cover and returns
// its index, or the index past the last group), every group run does not
// cover and the tail of fewer than eight through the scalar operation.
func lanesN(dst, x, y []TW, run func(fd, fx, fy []float32, i, n int) int, scalar func(x, y TW) TW) {
	n := len(dst)
	x, y = x[:n], y[:n]
	i := 0
	if HasLanes {
		fd, fx, fy := flat(dst), flat(x), flat(y)
		for i+8 <= n {
			i = run(fd, fx, fy, i, n)
			if i+8 > n {
				break
			}
			for j := i; j < i+8; j++ {
				dst[j] = scalar(x[j], y[j])
			}
			i += 8
		}
	}
	for ; i < n; i++ {
		dst[i] = scalar(x[i], y[i])
	}
}

func addScalar(x, y TW, sub bool) TW {
	if sub {
		y = neg(y)
	}
	return add(x, y)
}

// addRun sums the groups of eight from element i on until one is not
// covered (returned, not stored) or fewer than eight elements are left
// (the index past the last group done is returned).
func addRun(fd, fx, fy []float32, i, n int, sub bool) int {
	var c consts
	c.initA()
	c.initB()
	c.initMod3()
	limit := archsimd.LoadInt32x8(&sumLimits)
	for ; i+8 <= n; i += 8 {
		v0, v1, v2 := ld3(fx, i)
		xh, xm, xl := c.heads(v0, v1, v2), c.mids(v0, v1, v2), c.lows(v0, v1, v2)
		v0, v1, v2 = ld3(fy, i)
		yh, ym, yl := c.heads(v0, v1, v2), c.mids(v0, v1, v2), c.lows(v0, v1, v2)
		if sub {
			yh, ym, yl = c.neg8(yh), c.neg8(ym), c.neg8(yl)
		}
		ah, am, al := xh.AsInt32x8().And(c.mag), xm.AsInt32x8().And(c.mag), xl.AsInt32x8().And(c.mag)
		bh, bm, bl := yh.AsInt32x8().And(c.mag), ym.AsInt32x8().And(c.mag), yl.AsInt32x8().And(c.mag)
		// mergeLimbs by ranks. On lists sorted by magnitude, its merge
		// puts a_i before b_j exactly when |b_j| <= |a_i|: a_i lands at
		// i plus the number of b_j with |b_j| > |a_i|, b_j at j plus the
		// number of a_i with |a_i| >= |b_j|, that is j + 3 less the
		// number with |b_j| > |a_i|. gIJ is -1 where |b_J| > |a_I|.
		g00, g01, g02 := ah.Less(bh).ToInt32x8(), ah.Less(bm).ToInt32x8(), ah.Less(bl).ToInt32x8()
		g10, g11, g12 := am.Less(bh).ToInt32x8(), am.Less(bm).ToInt32x8(), am.Less(bl).ToInt32x8()
		g20, g21, g22 := al.Less(bh).ToInt32x8(), al.Less(bm).ToInt32x8(), al.Less(bl).ToInt32x8()
		// Lanes covered: both lists sorted, every limb below the limit.
		ok := ah.Less(am).Or(am.Less(al)).Or(bh.Less(bm)).Or(bm.Less(bl)).ToInt32x8().Xor(c.k[7])
		big := ah.Max(am).Max(al).Max(bh).Max(bm).Max(bl).Less(limit).ToInt32x8()
		if ok.And(big).ToMask().ToBits() != 0xff {
			archsimd.ClearAVXUpperBits()
			return i
		}
		ra0 := c.k[0].Sub(g00.Add(g01).Add(g02))
		ra1 := c.k[1].Sub(g10.Add(g11).Add(g12))
		ra2 := c.k[2].Sub(g20.Add(g21).Add(g22))
		rb0 := c.k[3].Add(g00.Add(g10).Add(g20))
		rb1 := c.k[4].Add(g01.Add(g11).Add(g21))
		// Position k holds the one limb of rank k; the candidates are
		// those whose rank can be k (a_i's and b_j's lie in [i, i+3]);
		// b_2 is taken where no other has rank k.
		z0 := pick(yh, xh, ra0, c.k[0])
		z1 := pick(pick(pick(yh, xh, ra0, c.k[1]), xm, ra1, c.k[1]), ym, rb1, c.k[1])
		z2 := pick(pick(pick(pick(pick(yl, xh, ra0, c.k[2]), xm, ra1, c.k[2]), xl, ra2, c.k[2]), yh, rb0, c.k[2]), ym, rb1, c.k[2])
		z3 := pick(pick(pick(pick(pick(yl, xh, ra0, c.k[3]), xm, ra1, c.k[3]), xl, ra2, c.k[3]), yh, rb0, c.k[3]), ym, rb1, c.k[3])
		z4 := pick(pick(pick(yl, xm, ra1, c.k[4]), xl, ra2, c.k[4]), ym, rb1, c.k[4])
		z5 := pick(yl, xl, ra2, c.k[5])
		// VecSum, then VSEB(3) (add's order).
		s, z5 := twoSum8(z4, z5)
		s, z4 = twoSum8(z3, s)
		s, z3 = twoSum8(z2, s)
		s, z2 = twoSum8(z1, s)
		z0, z1 = twoSum8(z0, s)
		zero := c.k[0].AsFloat32x8()
		r0, r1, r2, k, eps := c.step(zero, zero, zero, c.k[0], z0, z1)
		r0, r1, r2, k, eps = c.step(r0, r1, r2, k, eps, z2)
		r0, r1, r2, k, eps = c.step(r0, r1, r2, k, eps, z3)
		r0, r1, r2, k, eps = c.step(r0, r1, r2, k, eps, z4)
		r0, r1, r2 = c.end(r0, r1, r2, k, eps, z5)
		st3(fd, i, c.out0(r0, r1, r2), c.out1(r0, r1, r2), c.out2(r0, r1, r2))
	}
	archsimd.ClearAVXUpperBits()
	return i
}

// MulN sets dst[i] = x[i] * y[i] with the fast product (Algorithm 10,
// mul33), eight at a time where HasLanes, bit for bit the scalar
// products; the slices as for AddN. The accurate product has no vector
// path here: Arith{Accurate: true} runs its scalar loop.
func MulN(dst, x, y []TW) {
	lanesN(dst, x, y, mulRun, func(x, y TW) TW { return mul33(x, y, false) })
}

// mulRun is addRun for the fast product.
func mulRun(fd, fx, fy []float32, i, n int) int {
	var c consts
	c.initA()
	c.initB()
	c.initMod3()
	limit := archsimd.LoadInt32x8(&mulLimits)
	for ; i+8 <= n; i += 8 {
		v0, v1, v2 := ld3(fx, i)
		xh, xm, xl := c.heads(v0, v1, v2), c.mids(v0, v1, v2), c.lows(v0, v1, v2)
		v0, v1, v2 = ld3(fy, i)
		yh, ym, yl := c.heads(v0, v1, v2), c.mids(v0, v1, v2), c.lows(v0, v1, v2)
		ah, bh := xh.AsInt32x8().And(c.mag), yh.AsInt32x8().And(c.mag)
		if ah.Max(bh).Less(limit).ToBits() != 0xff {
			archsimd.ClearAVXUpperBits()
			return i
		}
		// mul33 with accurate false, operation for operation.
		z00p, z00m := c.twoProd8(xh, yh)
		z01p, z01m := c.twoProd8(xh, ym)
		z10p, z10m := c.twoProd8(xm, yh)
		s, b2 := twoSum8(z01p, z10p)
		b0, b1 := twoSum8(z00m, s)
		cc := xm.MulAdd(ym, b2)
		z31 := xh.MulAdd(yl, z10m)
		z32 := xl.MulAdd(yh, z01m)
		z3 := z31.Add(z32)
		s3 := cc.Add(z3)
		s, e3 := twoSum8(b1, s3)
		s, e2 := twoSum8(b0, s)
		e0, e1 := twoSum8(z00p, s)
		zero := c.k[0].AsFloat32x8()
		r0, r1, r2, k, eps := c.step(zero, zero, zero, c.k[0], e1, e2)
		r0, r1, _ = c.end(r0, r1, r2, k, eps, e3)
		st3(fd, i, c.out0(e0, r0, r1), c.out1(e0, r0, r1), c.out2(e0, r0, r1))
	}
	archsimd.ClearAVXUpperBits()
	return i
}
