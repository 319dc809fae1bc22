//go:build goexperiment.simd && amd64

package samplerprng

import "simd/archsimd"

// The GOEXPERIMENT=simd build computes a refill's eight ChaCha20 blocks in
// parallel, one block per 32-bit lane of 256-bit AVX2 vectors: vector v
// holds word v of the eight blocks, so the vector's eight lanes are
// exactly the eight consecutive words that the buffer's interleaved layout
// puts at bytes 32v..32v+31 (word v of block u at word index u + 8v; see
// the package comment). This is the layout of the reference's AVX2 code,
// which is why the portable refill mimics it. Each lane performs the
// portable code's 32-bit additions, XORs and rotations, so the bytes are
// the same; TestVectorRefill compares the two refills.

// avx2 is whether the CPU has AVX2; without it refill stays portable.
var avx2 = archsimd.X86.AVX2()

// refill computes the next eight blocks into the buffer (with AVX2 when
// the CPU has it) and rewinds the read position.
func (p *PRNG) refill() {
	if avx2 {
		p.refillAVX2()
		return
	}
	p.refillPortable()
}

// Vectorized reports whether refills run the eight ChaCha20 blocks in
// parallel in vector registers (GOEXPERIMENT=simd build, AVX2 CPU).
func Vectorized() bool { return avx2 }

// rot16 and rot8 are VPSHUFB byte indices rotating every 32-bit lane left
// by 16 and by 8 bits (a byte shuffle instead of two shifts and an OR).
var (
	rot16 = [32]int8{2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
		2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13}
	rot8 = [32]int8{3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
		3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14}
)

// shift20 and shift25 are the count vectors of the rotations' right
// shifts (VPSRLVD). A constant count given to ShiftAllRight would be
// moved into an X register by a legacy (non-VEX) MOVQ, which on Intel
// cores stalls inside AVX code: Go 1.26 folds constant counts into the
// immediate form only for the left and arithmetic shifts (the left shifts
// below are immediates).
var (
	shift20 = [8]uint32{20, 20, 20, 20, 20, 20, 20, 20}
	shift25 = [8]uint32{25, 25, 25, 25, 25, 25, 25, 25}
)

// refillAVX2 is refillPortable with the eight blocks in the lanes of
// sixteen vectors (RFC 8439, section 2.3: ten double rounds, then the input
// added back; block u's counter is cc+u). It ends with VZEROUPPER
// (archsimd.ClearAVXUpperBits), which the compiler does not insert: with
// the upper halves of the vector registers left dirty, every legacy-SSE
// instruction after it (all of Go's scalar floating-point code) is slow
// on Intel cores.
func (p *PRNG) refillAVX2() {
	// The counters first: zeroing lo and hi takes legacy MOVUPS stores of
	// X15, harmless only before the first 256-bit instruction.
	var lo, hi [8]uint32
	for u := range 8 {
		c := p.cc + uint64(u)
		lo[u] = p.key[10] ^ uint32(c)
		hi[u] = p.key[11] ^ uint32(c>>32)
	}
	p.cc += 8
	r16 := archsimd.LoadInt8x32(&rot16)
	r8 := archsimd.LoadInt8x32(&rot8)
	s20 := archsimd.LoadUint32x8(&shift20)
	s25 := archsimd.LoadUint32x8(&shift25)
	in14 := archsimd.LoadUint32x8(&lo)
	in15 := archsimd.LoadUint32x8(&hi)
	b := archsimd.BroadcastUint32x8
	x0, x1, x2, x3 := b(chachaConst[0]), b(chachaConst[1]), b(chachaConst[2]), b(chachaConst[3])
	x4, x5, x6, x7 := b(p.key[0]), b(p.key[1]), b(p.key[2]), b(p.key[3])
	x8, x9, x10, x11 := b(p.key[4]), b(p.key[5]), b(p.key[6]), b(p.key[7])
	x12, x13, x14, x15 := b(p.key[8]), b(p.key[9]), in14, in15

	// qr is the quarter round (RFC 8439, section 2.1) on eight lanes.
	qr := func(a, b, c, d archsimd.Uint32x8) (archsimd.Uint32x8, archsimd.Uint32x8, archsimd.Uint32x8, archsimd.Uint32x8) {
		a = a.Add(b)
		d = d.Xor(a).AsUint8x32().PermuteOrZeroGrouped(r16).AsUint32x8()
		c = c.Add(d)
		b = b.Xor(c)
		b = b.ShiftAllLeft(12).Or(b.ShiftRight(s20))
		a = a.Add(b)
		d = d.Xor(a).AsUint8x32().PermuteOrZeroGrouped(r8).AsUint32x8()
		c = c.Add(d)
		b = b.Xor(c)
		b = b.ShiftAllLeft(7).Or(b.ShiftRight(s25))
		return a, b, c, d
	}
	for range 10 {
		x0, x4, x8, x12 = qr(x0, x4, x8, x12)
		x1, x5, x9, x13 = qr(x1, x5, x9, x13)
		x2, x6, x10, x14 = qr(x2, x6, x10, x14)
		x3, x7, x11, x15 = qr(x3, x7, x11, x15)
		x0, x5, x10, x15 = qr(x0, x5, x10, x15)
		x1, x6, x11, x12 = qr(x1, x6, x11, x12)
		x2, x7, x8, x13 = qr(x2, x7, x8, x13)
		x3, x4, x9, x14 = qr(x3, x4, x9, x14)
	}
	put := func(v int, w archsimd.Uint32x8) { w.AsUint8x32().Store((*[32]byte)(p.buf[32*v:])) }
	put(0, x0.Add(b(chachaConst[0])))
	put(1, x1.Add(b(chachaConst[1])))
	put(2, x2.Add(b(chachaConst[2])))
	put(3, x3.Add(b(chachaConst[3])))
	put(4, x4.Add(b(p.key[0])))
	put(5, x5.Add(b(p.key[1])))
	put(6, x6.Add(b(p.key[2])))
	put(7, x7.Add(b(p.key[3])))
	put(8, x8.Add(b(p.key[4])))
	put(9, x9.Add(b(p.key[5])))
	put(10, x10.Add(b(p.key[6])))
	put(11, x11.Add(b(p.key[7])))
	put(12, x12.Add(b(p.key[8])))
	put(13, x13.Add(b(p.key[9])))
	put(14, x14.Add(in14))
	put(15, x15.Add(in15))
	archsimd.ClearAVXUpperBits()
	p.ptr = 0
}
