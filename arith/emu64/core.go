package emu64

import "math/bits"

// The arithmetic kernels work on an unpacked form: a sign s (0 or 1), an
// unbiased exponent e and an integer mantissa m with 2^54 <= m < 2^55,
// meaning (-1)^s * m * 2^e. The two bits below the 53 that survive are a
// guard bit and a sticky bit (the OR of everything shifted out), which is
// all that round-to-nearest-even needs. pack turns that form back into
// bits; norm64 is the normaliser the kernels use on the way.

// pack encodes (-1)^s * m * 2^e, rounding m to 53 bits to nearest even
// (the reference's FPR routine). m must be 0 or in [2^54, 2^55); m = 0
// gives a zero of sign s. An exponent below -1076, where the value would
// be subnormal, also gives a zero of sign s. A too large exponent gives an
// unspecified pattern.
func pack(s uint64, e int, m uint64) FPR {
	// Bias the exponent so that the normal range starts at 0, and clear
	// the mantissa when below it.
	e += 1076
	m &= uint64(e)>>63 - 1
	// For a zero mantissa, clear the exponent too (the sign stays).
	e &= -int(m >> 54)
	// m>>2 keeps the 53 significant bits; its leading bit lands on the
	// lowest exponent bit and adds the missing 1 to the biased exponent
	// (and nothing for a zero).
	x := (s<<63 | m>>2) + uint64(e)<<52
	// Round up when the kept lowest bit, guard and sticky bits are 011,
	// 110 or 111: above the half-way point, or exactly on it with an odd
	// kept bit. 0xC8 has exactly bits 3, 6 and 7 set. A carry out of the
	// fraction correctly bumps the exponent.
	x += 0xC8 >> (m & 7) & 1
	return FPR(x)
}

// norm64 shifts m left until its top bit is set and lowers e by the shift
// (the reference's FPR_NORM64, a leading-zero count plus a barrel shift). A
// zero m stays zero and e is lowered by 63; m|1 has the same leading zeros
// as m when m != 0 and gives exactly that 63 when m = 0.
func norm64(m uint64, e int) (uint64, int) {
	n := bits.LeadingZeros64(m | 1)
	return m << n, e - n
}

// stickyShr9 scales a normalised mantissa in [2^63, 2^64) down to
// [2^54, 2^55), ORing the nine dropped bits into the lowest kept bit.
func stickyShr9(m uint64) uint64 {
	// (m & 0x1FF) + 0x1FF has bit 9 set exactly when a dropped bit is one.
	return (m | (m&0x1FF + 0x1FF)) >> 9
}

// scaled returns i * 2^sc (the reference's fpr_scaled).
func scaled(i int64, sc int) FPR {
	// Absolute value and sign without branches: -i = ^i + 1.
	s := uint64(i) >> 63
	m := uint64(i) ^ -s + s
	// The value is m * 2^sc. Normalise m to [2^63, 2^64), then shift it
	// down nine bits into [2^54, 2^55) with a sticky bit; starting the
	// exponent at sc+9 pays for that final shift.
	m, e := norm64(m, 9+sc)
	m = stickyShr9(m)
	// For i = 0 the exponent is meaningless: force a clean zero. (nz is 1
	// unless i = 0; -2^63 counts as nonzero and converts exactly, since
	// its magnitude 2^63 survives as an unsigned value.)
	nz := uint64(i|-i) >> 63
	m &= -nz
	e &= -int(nz)
	return pack(s, e, m)
}

// add returns x + y (the reference's fpr_add). Sub is add with the sign of
// y flipped.
func add(x, y FPR) FPR {
	// Order the operands so that |x| >= |y|. When |x| = |y| and the signs
	// differ, the exact result is zero and must be +0; putting the
	// positive operand first (swapping when x is the negative one) makes
	// the "result has the sign of x" rule below give +0 in that case too.
	// (x = y = -0 keeps -0, as IEEE wants.)
	za := uint64(x)&absMask - uint64(y)&absMask
	swap := za>>63 | (1-(-za)>>63)&(uint64(x)>>63)
	d := (x ^ y) & -FPR(swap)
	x ^= d
	y ^= d

	// Unpack into sign, unbiased exponent and mantissa scaled to
	// [2^55, 2^56) (three extra low bits for rounding). A zero gets
	// mantissa 0 (no implicit bit) and exponent -1078.
	xu, ex, sx := unpack3(x)
	yu, ey, sy := unpack3(y)

	// Align y to x. From a shift of 60 on, |y| is below 1/16 of an ulp
	// of x, the exact sum rounds to x whatever y's bits, and y is dropped
	// (this also keeps the shift count below 64).
	cc := ex - ey
	yu &= -(uint64(uint32(cc-60)) >> 31)
	cc &= 63
	// Make the lowest bit of yu sticky for the cc bits about to be
	// shifted out: (yu & mask) + mask carries into bit cc when any of
	// them is one.
	mask := uint64(1)<<cc - 1
	yu |= yu&mask + mask
	yu >>= cc

	// Add the mantissas, or subtract when the signs differ
	// (yu - 2*yu = -yu, selected by a mask).
	xu += yu - (yu<<1)&-(sx^sy)

	// The sum is below 2^57 and may have lost leading bits to
	// cancellation; normalise, then scale to [2^54, 2^55) with sticky.
	xu, ex = norm64(xu, ex)
	xu = stickyShr9(xu)
	ex += 9
	return pack(sx, ex, xu)
}

// unpack3 splits x into mantissa m (implicit bit included unless the
// exponent field is zero) scaled by 2^3, unbiased exponent e such that
// |x| = m * 2^e, and sign s.
func unpack3(x FPR) (m uint64, e int, s uint64) {
	b := uint64(x)
	ef := b >> 52 & expField
	implicit := (ef + expField) >> 11 << 52
	m = (b&fracMask | implicit) << 3
	return m, int(ef) - 1078, b >> 63
}

// mul returns x * y (the reference's fpr_mul).
func mul(x, y FPR) FPR {
	xu := uint64(x)&fracMask | 1<<52
	yu := uint64(y)&fracMask | 1<<52

	// The 106-bit product of two 53-bit mantissas lies in
	// [2^104, 2^106). Keep its top bits from 2^50 up (56 or 55 bits) and
	// fold the 50 bits below into a sticky bit. The reference builds the
	// same quantity from 25-bit limbs on 32-bit multipliers.
	hi, lo := bits.Mul64(xu, yu)
	const low50 = 1<<50 - 1
	zu := hi<<14 | lo>>50
	zu |= (lo&low50 + low50) >> 50

	// zu is in [2^54, 2^56): shift right once more, with sticky, when it
	// reached 2^55.
	w := zu >> 55
	zv := zu>>1 | zu&1
	zu ^= (zu ^ zv) & -w

	// Exponent: the biases (1023 each) and the mantissa scalings (2^52
	// each) come off, the 50 (+w) bits dropped go back on:
	// ex + ey - 2*(1023+52) + 50 + w.
	ex := int(uint64(x) >> 52 & expField)
	ey := int(uint64(y) >> 52 & expField)
	e := ex + ey - 2100 + int(w)
	s := uint64(x^y) >> 63

	// A zero operand (exponent field 0) makes the product zero; pack
	// clears the exponent and keeps the sign, as IEEE's (+-0)*y.
	nz := uint64(((ex + expField) & (ey + expField)) >> 11)
	zu &= -nz
	return pack(s, e, zu)
}

// div returns x / y (the reference's fpr_div): a bit-serial restoring
// division of the mantissas, constant time. y must not be zero.
func div(x, y FPR) FPR {
	xu := uint64(x)&fracMask | 1<<52
	yu := uint64(y)&fracMask | 1<<52

	// 55 quotient bits, each: subtract yu when it fits (b is all ones
	// then), record the bit, shift. The loop shifts q once more at the
	// end, leaving a zero bit at the bottom.
	var q uint64
	for range 55 {
		b := (xu-yu)>>63 - 1
		xu -= b & yu
		q |= b & 1
		xu <<= 1
		q <<= 1
	}
	// That bottom bit becomes the sticky bit: set when a remainder is left.
	q |= (xu | -xu) >> 63

	// xu/yu is in (1/2, 2), so q is in [2^55, 2^56) or [2^54, 2^55);
	// normalise to the latter with sticky.
	w := q >> 55
	q2 := q>>1 | q&1
	q ^= (q ^ q2) & -w

	// The biases cancel; the 55 quotient bits are scaled back out.
	ex := int(uint64(x) >> 52 & expField)
	ey := int(uint64(y) >> 52 & expField)
	e := ex - ey - 55 + int(w)
	s := uint64(x^y) >> 63

	// The quotient computed for x = 0 is garbage: force a zero. The
	// reference clears the sign as well, so 0/y = +0 whatever the signs
	// (IEEE gives -0 when they differ).
	nz := (ex + expField) >> 11
	s &= uint64(nz)
	e &= -nz
	q &= -uint64(nz)
	return pack(s, e, q)
}

// sqrt returns the square root of |x| (the reference's fpr_sqrt): a
// bit-serial square root of the mantissa, constant time.
func sqrt(x FPR) FPR {
	xu := uint64(x)&fracMask | 1<<52
	ex := int(uint64(x) >> 52 & expField)
	e := ex - 1023

	// Make the exponent even by doubling the mantissa when it is odd,
	// then halve it (an arithmetic shift, which floors negative odd
	// exponents as the doubling requires).
	xu += xu & -uint64(e&1)
	e >>= 1

	// xu now represents a value in [1, 4) with 53 fractional bits after
	// this doubling; extract 54 root bits one at a time. s tracks 2*q in
	// the remainder's scale, r the weight of the next bit.
	xu <<= 1
	var q, s uint64
	r := uint64(1) << 53
	for range 54 {
		t := s + r
		b := (xu-t)>>63 - 1
		s += r << 1 & b
		xu -= t & b
		q += r & b
		xu <<= 1
		r >>= 1
	}

	// q has 54 bits (53 + guard); append a sticky bit for a nonzero
	// remainder, which puts q in [2^54, 2^55).
	q <<= 1
	q |= (xu | -xu) >> 63
	e -= 54

	// The root of zero is +0.
	q &= -uint64((ex + expField) >> 11)
	return pack(0, e, q)
}
