package emu64

import "math/bits"

// expmCoeffs are the coefficients of the FACCT polynomial approximation of
// exp(-x) on [0, ln 2) (Zhao, Steinfeld, Sakzad, ePrint 2018/1234; Falcon
// specification section 3.9.3), highest degree first, as 63-bit fixed-point
// numbers: coefficient c_i of x^i times 2^63. exp(-x) ~ sum c_i (-x)^i, and
// the signs are absorbed by evaluating y <- c - x*y.
var expmCoeffs = [13]uint64{
	0x00000004741183A3,
	0x00000036548CFC06,
	0x0000024FDCBF140A,
	0x0000171D939DE045,
	0x0000D00CF58F6F84,
	0x000680681CF796E3,
	0x002D82D8305B0FEA,
	0x011111110E066FD0,
	0x0555555555070F00,
	0x155555555581FF00,
	0x400000000002B400,
	0x7FFFFFFFFFFF4800,
	0x8000000000000000,
}

// toFixed64 returns v * 2^64 truncated, for 0 <= v < 1, computed as the
// reference does: Trunc(v * 2^63), shifted left once. (v = 1 is outside
// Trunc's range and gives 0.)
func toFixed64(v FPR) uint64 {
	return uint64(trunc(mul(v, ptwo63))) << 1
}

// expmP63 approximates 2^63 * ccs * exp(-x) for 0 <= x < ln 2 and
// 0 <= ccs < 1 (the reference's emulated fpr_expm_p63). It works entirely
// in fixed point: x and ccs become 64-bit fractions, the polynomial is
// evaluated by Horner's rule on 63-bit fixed-point values where each
// product keeps only the high 64 bits of the 128-bit product (truncation,
// not rounding), and the result is multiplied by ccs the same way. The
// truncations make it differ from a binary64 evaluation in the last bits;
// its error stays around 2^-50 relative.
func expmP63(x, ccs FPR) uint64 {
	z := toFixed64(x)
	y := expmCoeffs[0]
	for _, c := range expmCoeffs[1:] {
		// z is x*2^64 and y is a value times 2^63: the high word of the
		// product is x*y times 2^63.
		p, _ := bits.Mul64(z, y)
		y = c - p
	}
	y, _ = bits.Mul64(toFixed64(ccs), y)
	return y
}
