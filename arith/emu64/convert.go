package emu64

// The conversions to integers all start the same way: for |x| < 2^63, the
// 53-bit mantissa (implicit bit included) placed at bits 10..62 of a word
// is |x| * 2^(1085-E) for biased exponent E, so a right shift by 1085-E
// gives the integer part. A shift of 64 or more means |x| < 1 (or x = 0,
// whose exponent field 0 falls in the same case).

// mant63 returns the mantissa of x left-aligned to bit 62 and the shift
// count 1085-E that brings it to the integer scale.
func mant63(x FPR) (uint64, int) {
	m := (uint64(x)<<10 | 1<<62) & absMask
	return m, 1085 - int(uint64(x)>>52&expField)
}

// rint rounds x to the nearest integer, ties to even (the reference's
// fpr_rint). |x| must be below 2^63.
func rint(x FPR) int64 {
	m, e := mant63(x)
	// A shift of 64 or more means |x| < 1/2 (or x = 0): the result is 0,
	// which clearing m gives. |x| in [1/2, 1) is shift 63, rounded below.
	m &= -(uint64(uint32(e-64)) >> 31)
	e &= 63

	// d holds the lowest kept bit at bit 63 and the dropped bits below
	// it. Fold them into three bits: kept bit, first dropped bit (the
	// half) and a sticky bit for all the others, then round up on 011,
	// 110 and 111, like pack.
	d := m << (63 - e)
	dd := uint32(d) | uint32(d>>32)&0x1FFFFFFF
	f := uint32(d>>61) | (dd|-dd)>>31
	m = m>>e + uint64(0xC8>>f&1)

	// Apply the sign: (m ^ -s) + s negates when s = 1.
	s := int64(uint64(x) >> 63)
	return int64(m) ^ -s + s
}

// floor rounds x toward minus infinity (the reference's fpr_floor). |x|
// must be below 2^63. Floor(-0) = -1.
func floor(x FPR) int64 {
	m, cc := mant63(x)
	// Work on the signed value: an arithmetic right shift of a negative
	// two's complement number rounds toward minus infinity.
	t := int64(uint64(x) >> 63)
	xi := int64(m) ^ -t + t
	xi >>= cc & 63
	// For shifts of 64 or more the value is 0 when non-negative and -1
	// when negative. The sign bit decides, so -0 becomes -1.
	big := -int64(uint32(63-cc) >> 31)
	xi ^= (xi ^ -t) & big
	return xi
}

// trunc rounds x toward zero (the reference's fpr_trunc). |x| must be
// below 2^63.
func trunc(x FPR) int64 {
	m, cc := mant63(x)
	m >>= cc & 63
	m &= -(uint64(uint32(cc-64)) >> 31)
	t := uint64(x) >> 63
	return int64(m ^ -t + t)
}

// lt reports x < y (the reference's fpr_lt). Binary64 patterns of
// non-negative values order like signed integers, and a negative pattern
// is below every non-negative one; two negative patterns order in reverse.
// So the signed comparison is right unless both sign bits are set, where
// the reversed comparison is used. Lt(-0, +0) is therefore true.
func lt(x, y FPR) bool {
	a, b := int64(x), int64(y)
	less := slt(a, b)
	greater := slt(b, a)
	both := uint64(x&y) >> 63
	return less^((less^greater)&both) != 0
}

// slt returns 1 if a < b as signed integers, 0 otherwise, without a
// branch: the sign of a-b, corrected when the subtraction overflows.
func slt(a, b int64) uint64 {
	d := a - b
	return uint64(d^((a^b)&(d^a))) >> 63
}
