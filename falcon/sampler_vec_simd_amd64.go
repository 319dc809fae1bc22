//go:build goexperiment.simd && amd64

package falcon

import "simd/archsimd"

// rcdtVec holds the base sampler's table (rcdt48: the low 48 bits and the
// high 24 bits of each entry) in 64-bit lanes, padded with zero entries to
// 20 = 5 vectors of 4. A zero entry is never above a value, so the padding
// adds nothing to the count.
var rcdtVecLo, rcdtVecHi = func() (lo, hi [20]uint64) {
	for k, w := range rcdt48 {
		lo[k], hi[k] = w.lo, uint64(w.hi)
	}
	return lo, hi
}()

// shift63 is the count vector of the borrows' shifts. A constant count
// given to ShiftAllRight would be moved into an X register by a legacy
// (non-VEX) MOVQ, which on Intel cores stalls inside AVX code (Go 1.26
// folds constant counts into the immediate form only for the left and
// arithmetic shifts); VPSRLVQ takes its counts from a vector.
var shift63 = [4]uint64{63, 63, 63, 63}

// gaussian0 is the base sampler: gaussian0Loop (sampler.go) with four
// table entries per step in the lanes of AVX2 vectors (as the reference's
// AVX2 build does) -- the same borrows of the same subtractions, so the
// same count; integer arithmetic, exact -- or the loop itself on a CPU
// without AVX2.
func gaussian0(lo uint64, hi uint32) int {
	if !hasAVX2 {
		return gaussian0Loop(lo, hi)
	}
	u48 := archsimd.BroadcastUint64x4(lo & (1<<48 - 1))
	v2 := archsimd.BroadcastUint64x4(uint64(uint32(lo>>48) | hi<<16))
	sh := archsimd.LoadUint64x4(&shift63)
	var acc archsimd.Uint64x4
	for k := 0; k < len(rcdtVecLo); k += 4 {
		// Borrow of u48 - w.lo, then of v2 - w.hi - borrow: 1 exactly
		// when u < w (both differences fit in 64 bits with room).
		cc := u48.Sub(archsimd.LoadUint64x4Slice(rcdtVecLo[k:])).ShiftRight(sh)
		cc = v2.Sub(archsimd.LoadUint64x4Slice(rcdtVecHi[k:])).Sub(cc).ShiftRight(sh)
		acc = acc.Add(cc)
	}
	// The lane sums go through memory: ClearAVXUpperBits (VZEROUPPER,
	// see fft_vec_simd_amd64.go) is ordered only after memory operations,
	// and the compiler would otherwise move the vector reduction after it,
	// spilling acc around it and running vector code dirty again.
	var sum [2]uint64
	acc.GetLo().Add(acc.GetHi()).Store(&sum)
	archsimd.ClearAVXUpperBits()
	return int(sum[0] + sum[1])
}
