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
	var acc archsimd.Uint64x4
	for k := 0; k < len(rcdtVecLo); k += 4 {
		// Borrow of u48 - w.lo, then of v2 - w.hi - borrow: 1 exactly
		// when u < w (both differences fit in 64 bits with room).
		cc := u48.Sub(archsimd.LoadUint64x4Slice(rcdtVecLo[k:])).ShiftAllRight(63)
		cc = v2.Sub(archsimd.LoadUint64x4Slice(rcdtVecHi[k:])).Sub(cc).ShiftAllRight(63)
		acc = acc.Add(cc)
	}
	s := acc.GetLo().Add(acc.GetHi())
	return int(s.GetElem(0) + s.GetElem(1))
}
