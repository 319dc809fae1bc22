//go:build goexperiment.simd && amd64

package falcon

import (
	"math"
	"simd/archsimd"
	"sync"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// The native instance's vector hooks (fft_vec.go) in the GOEXPERIMENT=simd
// build: the FFT-domain kernels of fft.go on 256-bit AVX2 vectors of four
// float64 lanes.
//
// Bit-identity with the scalar loops rests on three rules, kept by every
// kernel below:
//
//   - each lane computes one iteration of the scalar loop with the same
//     binary64 operations on the same operands in the same order: a
//     product, a sum and a difference are VMULPD, VADDPD, VSUBPD, each
//     rounded once (archsimd has no implicit contraction; the explicit
//     MulAdd is never used), the inversion of polyLDLFFT is a correctly
//     rounded VDIVPD of 1.0, negation flips the sign bit as the scalar
//     code's -x does, halving is a product by 0.5;
//   - lanes only regroup data: where the scalar loop pairs neighbouring
//     elements (the last two FFT layers, the first two inverse layers,
//     split and merge, which read f[2u] and f[2u+1]), the vectors are
//     transposed with shuffles (VSHUFPD, VPERM2F128), which move values
//     without rounding;
//   - below the sizes where four lanes fit (logn < 4 for the transforms,
//     split and merge), the hook returns false and the scalar loop runs.
//
// And no kernel may leave the CPU in the state where the upper halves of
// the vector registers are dirty, or run a legacy-encoded (non-VEX) SSE
// instruction inside its vector code: on Intel cores every such
// instruction then waits for, and merges with, the dirty upper halves,
// and all of Go's scalar floating-point code is legacy SSE -- one kernel
// returning dirty made the whole simd build 4-6x slower on an Intel Xeon.
// So every kernel ends its vector work with archsimd.ClearAVXUpperBits
// (VZEROUPPER), which the compiler does not insert by itself; scalar
// float64 values enter the vector code only as broadcasts from memory
// (bcAt) or from an argument register (bc), constants are vectors in
// memory, and scalar work (the IFFT's scale factor) is done before the
// first vector instruction and carried as integer bits. The helpers
// below take and return vectors, so they must always be inlined (an
// out-of-line call would pass vectors in Y registers: dirty by the ABI);
// internal/avxcheck's test checks the compiled code for all of it.
//
// The reference's AVX2 build (Falcon-impl-20211101 fft.c with
// FALCON_AVX2) vectorizes the same loops; with FALCON_FMA it contracts
// products into FMA and is then not bit-identical to its own scalar build.
// These kernels never do.

type f64x4 = archsimd.Float64x4

// hasAVX2 is whether the CPU runs the vector kernels.
var hasAVX2 = archsimd.X86.AVX2()

// vectorFFT reports whether the FFT-domain kernels of the native instance
// run in vector registers (GOEXPERIMENT=simd build, AVX2 CPU).
func vectorFFT() bool { return hasAVX2 }

// gmTable is the reference's twiddle table (arith.GMBinary64) as an array,
// for vector loads of consecutive entries.
var gmTable = sync.OnceValue(func() *[2048]float64 {
	var t [2048]float64
	for k := range t {
		t[k] = arith.GMBinary64(k)
	}
	return &t
})

func ld(s []float64, i int) f64x4        { return archsimd.LoadFloat64x4Slice(s[i:]) }
func st(s []float64, i int, v f64x4)     { v.StoreSlice(s[i:]) }
func st2(s []float64, i int, v, w f64x4) { st(s, i, v); st(s, i+4, w) }

// bc broadcasts a float64 argument (in an X register: VBROADCASTSD).
func bc(x float64) f64x4 { return archsimd.BroadcastFloat64x4(x) }

// bcAt broadcasts s[i] from memory (a scalar load into an X register
// would be a legacy MOVSD inside the vector code).
func bcAt(s []float64, i int) f64x4 {
	return archsimd.LoadFloat64x2((*[2]float64)(s[i : i+2])).Broadcast1To4()
}

// Constant vectors, loaded from memory. signBits flips the sign of every
// lane, as the scalar -x does (also of zeros and NaNs).
var (
	signBits = [4]uint64{1 << 63, 1 << 63, 1 << 63, 1 << 63}
	ones     = [4]float64{1, 1, 1, 1}
	halves4  = [4]float64{0.5, 0.5, 0.5, 0.5}
)

func neg(x f64x4) f64x4 {
	return x.AsUint64x4().Xor(archsimd.LoadUint64x4(&signBits)).AsFloat64x4()
}

// vcmul is cmul (fft.go) on four lanes: re = xr*yr - xi*yi,
// im = xr*yi + xi*yr.
func vcmul(xr, xi, yr, yi f64x4) (f64x4, f64x4) {
	return xr.Mul(yr).Sub(xi.Mul(yi)), xr.Mul(yi).Add(xi.Mul(yr))
}

// deint splits the eight values (a0, b0, a1, b1), (a2, b2, a3, b3) of two
// vectors into (a0, a1, a2, a3) and (b0, b1, b2, b3).
func deint(v0, v1 f64x4) (f64x4, f64x4) {
	p := v0.Select128FromPair(0, 2, v1) // a0 b0 a2 b2
	q := v0.Select128FromPair(1, 3, v1) // a1 b1 a3 b3
	return p.SelectFromPairGrouped(0, 2, q), p.SelectFromPairGrouped(1, 3, q)
}

// inter is the inverse of deint: (a0..a3), (b0..b3) become
// (a0, b0, a1, b1), (a2, b2, a3, b3).
func inter(a, b f64x4) (f64x4, f64x4) {
	p := a.SelectFromPairGrouped(0, 2, b) // a0 b0 a2 b2
	q := a.SelectFromPairGrouped(1, 3, b) // a1 b1 a3 b3
	return p.Select128FromPair(0, 2, q), p.Select128FromPair(1, 3, q)
}

// halves exchanges the upper 128 bits of v0 with the lower 128 bits of
// v1: (x0, x1, y0, y1), (x2, x3, y2, y3) become (x0, x1, x2, x3),
// (y0, y1, y2, y3), and back.
func halves(v0, v1 f64x4) (f64x4, f64x4) {
	return v0.Select128FromPair(0, 2, v1), v0.Select128FromPair(1, 3, v1)
}

// twiddles4 returns the real and imaginary parts of the four consecutive
// twiddles at table entries k, k+2, k+4, k+6 (k even).
func twiddles4(gm *[2048]float64, k int) (f64x4, f64x4) {
	return deint(ld(gm[:], k), ld(gm[:], k+4))
}

// twiddles2 returns the two consecutive twiddles at entries k and k+2,
// each repeated in two lanes: (r0, r0, r1, r1), (i0, i0, i1, i1).
func twiddles2(gm *[2048]float64, k int) (f64x4, f64x4) {
	g := ld(gm[:], k) // r0 i0 r1 i1
	return g.SelectFromPairGrouped(0, 2, g), g.SelectFromPairGrouped(1, 3, g)
}

// The conversions of integer coefficients have no vector form: native's
// loops convert each with one instruction.
func vecOfInt8Native(native.Arith, []float64, []int8) bool     { return false }
func vecOfUint16Native(native.Arith, []float64, []uint16) bool { return false }

// vecFFTNative is fft's loop (fft.go). Layers whose butterflies pair
// elements at least 4 apart run four butterflies of one twiddle per step;
// the layer pairing elements 2 apart runs two twiddles of two butterflies;
// the last layer, pairing neighbours, four twiddles of one.
func vecFFTNative(_ native.Arith, f []float64, logn uint) bool {
	if !hasAVX2 || logn < 4 {
		return false
	}
	n := 1 << logn
	hn := n >> 1
	f = f[:n]
	gm := gmTable()
	t := hn
	for u, m := uint(1), 2; u < logn; u, m = u+1, m<<1 {
		ht := t >> 1
		hm := m >> 1
		switch ht {
		case 1:
			for i1 := 0; i1 < hm; i1 += 4 {
				j := i1 << 1
				sr, si := twiddles4(gm, (m+i1)<<1)
				xr, yr := deint(ld(f, j), ld(f, j+4))
				xi, yi := deint(ld(f, j+hn), ld(f, j+hn+4))
				yr, yi = vcmul(yr, yi, sr, si)
				v0, v1 := inter(xr.Add(yr), xr.Sub(yr))
				st2(f, j, v0, v1)
				v0, v1 = inter(xi.Add(yi), xi.Sub(yi))
				st2(f, j+hn, v0, v1)
			}
		case 2:
			for i1 := 0; i1 < hm; i1 += 2 {
				j := i1 << 2
				sr, si := twiddles2(gm, (m+i1)<<1)
				xr, yr := halves(ld(f, j), ld(f, j+4))
				xi, yi := halves(ld(f, j+hn), ld(f, j+hn+4))
				yr, yi = vcmul(yr, yi, sr, si)
				v0, v1 := halves(xr.Add(yr), xr.Sub(yr))
				st2(f, j, v0, v1)
				v0, v1 = halves(xi.Add(yi), xi.Sub(yi))
				st2(f, j+hn, v0, v1)
			}
		default:
			for i1, j1 := 0, 0; i1 < hm; i1, j1 = i1+1, j1+t {
				sr, si := bcAt(gm[:], (m+i1)<<1), bcAt(gm[:], ((m+i1)<<1)+1)
				for j := j1; j < j1+ht; j += 4 {
					xr, xi := ld(f, j), ld(f, j+hn)
					yr, yi := vcmul(ld(f, j+ht), ld(f, j+ht+hn), sr, si)
					st(f, j, xr.Add(yr))
					st(f, j+hn, xi.Add(yi))
					st(f, j+ht, xr.Sub(yr))
					st(f, j+ht+hn, xi.Sub(yi))
				}
			}
		}
		t = ht
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// vecIFFTNative is ifft's loop (fft.go), its layers grouped as in
// vecFFTNative, then the scaling by 2^(1-logn).
func vecIFFTNative(a native.Arith, f []float64, logn uint) bool {
	if !hasAVX2 || logn < 4 {
		return false
	}
	niBits := math.Float64bits(a.Const(arith.P2(logn))) // the final scaling, before any vector code
	n := 1 << logn
	hn := n >> 1
	f = f[:n]
	gm := gmTable()
	t := 1
	m := n
	for u := logn; u > 1; u-- {
		hm := m >> 1
		dt := t << 1
		switch t {
		case 1:
			for i1 := 0; i1 < hn>>1; i1 += 4 {
				j := i1 << 1
				sr, si := twiddles4(gm, (hm+i1)<<1)
				si = neg(si)
				xr, yr := deint(ld(f, j), ld(f, j+4))
				xi, yi := deint(ld(f, j+hn), ld(f, j+hn+4))
				br, bi := vcmul(xr.Sub(yr), xi.Sub(yi), sr, si)
				v0, v1 := inter(xr.Add(yr), br)
				st2(f, j, v0, v1)
				v0, v1 = inter(xi.Add(yi), bi)
				st2(f, j+hn, v0, v1)
			}
		case 2:
			for i1 := 0; i1 < hn>>2; i1 += 2 {
				j := i1 << 2
				sr, si := twiddles2(gm, (hm+i1)<<1)
				si = neg(si)
				xr, yr := halves(ld(f, j), ld(f, j+4))
				xi, yi := halves(ld(f, j+hn), ld(f, j+hn+4))
				br, bi := vcmul(xr.Sub(yr), xi.Sub(yi), sr, si)
				v0, v1 := halves(xr.Add(yr), br)
				st2(f, j, v0, v1)
				v0, v1 = halves(xi.Add(yi), bi)
				st2(f, j+hn, v0, v1)
			}
		default:
			for i1, j1 := 0, 0; j1 < hn; i1, j1 = i1+1, j1+dt {
				sr, si := bcAt(gm[:], (hm+i1)<<1), neg(bcAt(gm[:], ((hm+i1)<<1)+1))
				for j := j1; j < j1+t; j += 4 {
					xr, xi := ld(f, j), ld(f, j+hn)
					yr, yi := ld(f, j+t), ld(f, j+t+hn)
					st(f, j, xr.Add(yr))
					st(f, j+hn, xi.Add(yi))
					br, bi := vcmul(xr.Sub(yr), xi.Sub(yi), sr, si)
					st(f, j+t, br)
					st(f, j+t+hn, bi)
				}
			}
		}
		t = dt
		m = hm
	}
	ni := archsimd.BroadcastUint64x4(niBits).AsFloat64x4()
	for u := 0; u < n; u += 4 {
		st(f, u, ld(f, u).Mul(ni))
	}
	archsimd.ClearAVXUpperBits()
	return true
}

func vecPolyAddNative(_ native.Arith, x, y []float64, logn uint) bool {
	if !hasAVX2 || logn < 2 {
		return false
	}
	n := 1 << logn
	x, y = x[:n], y[:n]
	for u := 0; u < n; u += 4 {
		st(x, u, ld(x, u).Add(ld(y, u)))
	}
	archsimd.ClearAVXUpperBits()
	return true
}

func vecPolySubNative(_ native.Arith, x, y []float64, logn uint) bool {
	if !hasAVX2 || logn < 2 {
		return false
	}
	n := 1 << logn
	x, y = x[:n], y[:n]
	for u := 0; u < n; u += 4 {
		st(x, u, ld(x, u).Sub(ld(y, u)))
	}
	archsimd.ClearAVXUpperBits()
	return true
}

func vecPolyNegNative(_ native.Arith, x []float64, logn uint) bool {
	if !hasAVX2 || logn < 2 {
		return false
	}
	n := 1 << logn
	x = x[:n]
	for u := 0; u < n; u += 4 {
		st(x, u, neg(ld(x, u)))
	}
	archsimd.ClearAVXUpperBits()
	return true
}

func vecPolyMulFFTNative(_ native.Arith, x, y []float64, logn uint) bool {
	if !hasAVX2 || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	x, y = x[:2*hn], y[:2*hn]
	for u := 0; u < hn; u += 4 {
		re, im := vcmul(ld(x, u), ld(x, u+hn), ld(y, u), ld(y, u+hn))
		st(x, u, re)
		st(x, u+hn, im)
	}
	archsimd.ClearAVXUpperBits()
	return true
}

func vecPolyMuladjFFTNative(_ native.Arith, x, y []float64, logn uint) bool {
	if !hasAVX2 || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	x, y = x[:2*hn], y[:2*hn]
	for u := 0; u < hn; u += 4 {
		re, im := vcmul(ld(x, u), ld(x, u+hn), ld(y, u), neg(ld(y, u+hn)))
		st(x, u, re)
		st(x, u+hn, im)
	}
	archsimd.ClearAVXUpperBits()
	return true
}

func vecPolyMulselfadjFFTNative(_ native.Arith, x []float64, logn uint) bool {
	if !hasAVX2 || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	x = x[:2*hn]
	var zero f64x4 // +0 in every lane (arith.Zero)
	for u := 0; u < hn; u += 4 {
		r, i := ld(x, u), ld(x, u+hn)
		st(x, u, r.Mul(r).Add(i.Mul(i)))
		st(x, u+hn, zero)
	}
	archsimd.ClearAVXUpperBits()
	return true
}

func vecPolyMulconstNative(_ native.Arith, x []float64, c float64, logn uint) bool {
	if !hasAVX2 || logn < 2 {
		return false
	}
	n := 1 << logn
	x = x[:n]
	vc := bc(c)
	for u := 0; u < n; u += 4 {
		st(x, u, ld(x, u).Mul(vc))
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// vldl is ldlStep (fft.go) on four lanes: mu = g01/g00 with the
// reference's complex division (cdiv: one inversion of |g00|^2, then
// products), d11 = g11 - mu*adj(g01), l10 = adj(mu).
func vldl(g00r, g00i, g01r, g01i, g11r, g11i f64x4) (d11r, d11i, l10r, l10i f64x4) {
	m := archsimd.LoadFloat64x4(&ones).Div(g00r.Mul(g00r).Add(g00i.Mul(g00i)))
	yr := g00r.Mul(m)
	yi := neg(g00i).Mul(m)
	mur, mui := vcmul(g01r, g01i, yr, yi)
	xr, xi := vcmul(mur, mui, g01r, neg(g01i))
	return g11r.Sub(xr), g11i.Sub(xi), mur, neg(mui)
}

// vecPolyLDLFFTNative is polyLDLFFT: polyLDLmvFFT writing d11 over g11
// and l10 over g01, which is safe here because each step loads all its
// operands before it stores.
func vecPolyLDLFFTNative(a native.Arith, g00, g01, g11 []float64, logn uint) bool {
	return vecPolyLDLmvFFTNative(a, g11, g01, g00, g01, g11, logn)
}

func vecPolyLDLmvFFTNative(_ native.Arith, d11, l10, g00, g01, g11 []float64, logn uint) bool {
	if !hasAVX2 || logn < 3 {
		return false
	}
	hn := 1 << logn >> 1
	d11, l10, g00, g01, g11 = d11[:2*hn], l10[:2*hn], g00[:2*hn], g01[:2*hn], g11[:2*hn]
	for u := 0; u < hn; u += 4 {
		dr, di, lr, li := vldl(ld(g00, u), ld(g00, u+hn), ld(g01, u), ld(g01, u+hn), ld(g11, u), ld(g11, u+hn))
		st(d11, u, dr)
		st(d11, u+hn, di)
		st(l10, u, lr)
		st(l10, u+hn, li)
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// vecPolySplitFFTNative is polySplitFFT's loop (fft.go), four roots per
// step: the pairs f[2u], f[2u+1] and the twiddles are deinterleaved into
// lanes first. (The scalar code's initial copies of f[0] and f[hn] are
// overwritten by its loop whenever it runs, so they are not repeated.)
func vecPolySplitFFTNative(_ native.Arith, f0, f1, f []float64, logn uint) bool {
	if !hasAVX2 || logn < 4 {
		return false
	}
	n := 1 << logn
	hn := n >> 1
	qn := hn >> 1
	f, f0, f1 = f[:n], f0[:hn], f1[:hn]
	gm := gmTable()
	half := archsimd.LoadFloat64x4(&halves4)
	for u := 0; u < qn; u += 4 {
		ar, br := deint(ld(f, u<<1), ld(f, (u<<1)+4))
		ai, bi := deint(ld(f, (u<<1)+hn), ld(f, (u<<1)+hn+4))
		st(f0, u, ar.Add(br).Mul(half))
		st(f0, u+qn, ai.Add(bi).Mul(half))
		sr, si := twiddles4(gm, (u+hn)<<1)
		tr, ti := vcmul(ar.Sub(br), ai.Sub(bi), sr, neg(si))
		st(f1, u, tr.Mul(half))
		st(f1, u+qn, ti.Mul(half))
	}
	archsimd.ClearAVXUpperBits()
	return true
}

// vecPolyMergeFFTNative is polyMergeFFT's loop (fft.go), four roots per
// step, the results interleaved back into f[2u], f[2u+1].
func vecPolyMergeFFTNative(_ native.Arith, f, f0, f1 []float64, logn uint) bool {
	if !hasAVX2 || logn < 4 {
		return false
	}
	n := 1 << logn
	hn := n >> 1
	qn := hn >> 1
	f, f0, f1 = f[:n], f0[:hn], f1[:hn]
	gm := gmTable()
	for u := 0; u < qn; u += 4 {
		ar, ai := ld(f0, u), ld(f0, u+qn)
		sr, si := twiddles4(gm, (u+hn)<<1)
		br, bi := vcmul(ld(f1, u), ld(f1, u+qn), sr, si)
		v0, v1 := inter(ar.Add(br), ar.Sub(br))
		st2(f, u<<1, v0, v1)
		v0, v1 = inter(ai.Add(bi), ai.Sub(bi))
		st2(f, (u<<1)+hn, v0, v1)
	}
	archsimd.ClearAVXUpperBits()
	return true
}
