package oracle

import (
	"math/big"
)

// expmPolyCoeffs are the coefficients of the FACCT polynomial approximation
// of exp(-x) on [0, ln 2) (Zhao, Steinfeld, Sakzad, "FACCT: FAst, Compact,
// and Constant-Time discrete Gaussian sampler over integers", ePrint
// 2018/1234; Falcon specification v1.2, section 3.9.3), highest degree
// first, exp(-x) ~ sum c_i (-x)^i, as the decimal literals of the
// reference's floating-point fpr_expm_p63. Rounded to 53 bits they are the
// native backend's binary64 coefficients (a test checks it); the 63-bit
// fixed-point coefficients of the emulated build are these values
// truncated to multiples of 2^-63. The polynomial itself is within 2^-51.2
// of exp(-x) on the interval (measured at 300 bits on a grid of 20,000
// points), so a format's expm_p63 cannot be better than that however many
// bits it carries.
var expmPolyCoeffs = [13]string{
	"0.000000002073772366009083061987",
	"0.000000025299506379442070029551",
	"0.000000275607356160477811864927",
	"0.000002755586350219122514855659",
	"0.000024801566833585381209939524",
	"0.000198412739277311890541063977",
	"0.001388888894063186997887560103",
	"0.008333333327800835146903501993",
	"0.041666666666110491190622155955",
	"0.166666666666984014666397229121",
	"0.500000000000019206858326015208",
	"0.999999999999994892974086724280",
	"1.000000000000000000000000000000",
}

// expmPoly is ExpmP63 of a vprec:P:eE format: the reference's native
// evaluation (Horner's rule over the FACCT coefficients, then the product
// with ccs) with every operation done in the format's arithmetic, its
// rounding and its exponent range, so that a precision sweep sees the
// sampler's exponential degrade with the format. The coefficients are
// stored constants, rounded to nearest at P bits like every other constant
// table. The final scaling by 2^63 and truncation are the conversion to
// the 64-bit integer that the sampler compares with random bytes and are
// exact, as they are in binary64 (a power-of-two scaling, then a
// conversion of a value below 2^64).
func (a Arith) expmPoly(x, ccs *big.Float) uint64 {
	c := a.tab.expmCoeffs()
	y := a.exact(c[0])
	for _, ci := range c[1:] {
		y = a.Sub(a.exact(ci), a.Mul(y, x))
	}
	y = a.Mul(y, ccs)
	return floorUint64(new(big.Float).SetMantExp(y, 63))
}

// expmCoeffs returns expmPolyCoeffs rounded to nearest at the table's
// precision, computed once.
func (t *table) expmCoeffs() *[13]*big.Float {
	t.expmOnce.Do(func() {
		for i, s := range expmPolyCoeffs {
			// Parsed at 512 bits, then rounded once to P bits: no
			// literal lies within 2^-400 of a rounding boundary, so
			// this is the correctly rounded value.
			c, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
			if err != nil {
				panic("oracle: bad expm coefficient " + s)
			}
			t.expm[i] = new(big.Float).SetPrec(t.prec).Set(c)
		}
	})
	return &t.expm
}
