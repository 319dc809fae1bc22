// Package triword is the triple-word binary32 backend: every Falcon value
// is the unevaluated sum of three float32 limbs, giving a 72-bit
// significand from 24-bit hardware (or software) floats. It exists to
// answer whether Falcon can sign accurately on cores with only a
// single-precision FPU, as TWFalcon (ePrint 2025/1991) does on a Cortex-M4F,
// and to measure how much more precise than binary64 such signing is. It is
// not a constant-time implementation and not a fast one on a 64-bit host.
//
// Four backends are registered (Backends). "triword" is TWFalcon's
// arithmetic: the fast product (Algorithm 10), and every constant held at
// 72 bits -- the FFT twiddles, 1/q, ln 2, ..., and the sampler's 1/sigma
// and sigma_min, computed from the specification's formulas -- as
// TWFalcon's precision test "recomputes all constants for the high
// precision and triple float versions". "triword-acc" multiplies with the
// accurate product (Algorithm 9). "triword-b64const" and
// "triword-acc-b64const" are the ablation that imports the reference's
// binary64 constants and twiddles instead: their 2^-53 relative errors
// bound delta_c near binary64's, about 17 bits above triword's. All report
// the proven relative error bounds through arith.ErrorBounds. Documents
// written before these names (when "triword" meant triword-b64const) are
// read through LegacyName.
//
// # Algorithms
//
// The arithmetic is that of Fabiano, Muller and Picot, "Algorithms for
// triple-word arithmetic", IEEE Transactions on Computers 68(11), 2019,
// in the form that Thery and Rideau machine-checked (with an unbounded
// exponent range). With u = 2^-24:
//
//	Fast2Sum, 2Sum, 2Prod       Algorithms 1-3, error-free
//	VecSum, VSEB                Algorithms 4-5, renormalisation
//	ToTW                        Algorithm 6, three floats to a triple word
//	TW + TW                     Algorithm 8    2u^3 + 4.2u^4   ~ 2^-71
//	TW x TW accurate            Algorithm 9    28u^3 + 107u^4  ~ 2^-67.2
//	TW x TW fast                Algorithm 10   44u^3 + 176u^4  ~ 2^-66.5
//	1/TW (Newton)               Algorithm 13   11.5u^3 + 1830u^4
//	TW / TW                     Algorithm 14   27u^3 + 2500u^4
//	sqrt(TW) (Newton)           Algorithm 15   24u^3 + 10260u^4
//
// Reciprocal, division and square root use their accurate variants
// (double-word by triple-word products by Algorithm 11, and the
// head-one products of the appendix, Algorithms 18 and 20) in both
// backends.
//
// # Errata
//
// The formal proof found, and this package applies:
//
//   - RoundTW (Algorithm 7) has its inner test inverted (it ignores the
//     third limb exactly at midpoints). No operation here rounds a triple
//     word to one float, so RoundTW is not used; Float64 rounds the exact
//     sum instead.
//   - The appendix products used by the reciprocal, the division and the
//     square root (Algorithms 18 and 20) call Fast2Sum on arguments whose
//     order is not guaranteed, which can lose about 41u^3 instead of u^3.
//     Here both calls sort their arguments first (one comparison, no extra
//     arithmetic). TWFalcon's code keeps the unsorted calls.
//   - The u^4 terms of Theorems 9 and 10 are 1830 and 2500 (not 1465 and
//     1509), and Theorem 10's u^3 term is 27 (not 24): RelErrBound returns
//     the machine-checked values.
//
// Where TWFalcon's C code shortcuts the published algorithms (Fast2Sum in
// place of 2Sum inside the products' VecSum and inside VSEB), this package
// follows the algorithms as proved. TWFalcon also uses the fast variants
// of the reciprocal, division and square root, and halves and doubles
// through a product; here those are the accurate variants and exact
// limb-wise operations.
//
// # No fused multiply-add
//
// The paper's algorithms assume an FMA. Go may contract x*y+z into an FMA
// on arm64, ppc64le, s390x, riscv64 and amd64 with GOAMD64=v3, but only
// where the product is not explicitly converted: the specification
// ("Arithmetic operators") states that an explicit floating-point
// conversion rounds to the target precision and prevents fusion, and it
// allows no other re-association. So this package never relies on the
// compiler's choice: 2Prod computes p = float32(a*b) and the exact error
// from the binary64 product of the two binary32 inputs (exact, at most 48
// bits), written float64(float64(a)*float64(b)) - float64(p); the paper's
// RN(a*b+c) is fma32, which adds the exact binary64 product and c with an
// error-free 2Sum and rounds the round-to-odd result to binary32, a
// correctly rounded FMA on every target. Every product that meets an
// addition is written with an explicit conversion, and the tests, which
// check 2Prod, fma32 and every operation against math/big, pass under
// GOAMD64=v3 as well.
//
// # Conversions
//
// As in TWFalcon: Of converts any int64 exactly (Falcon's inputs stay
// within 2^24, a single limb); FromFloat64 imports a binary64 value
// exactly by splitting its 53-bit significand over the three limbs (Const
// and GM do so with B64Const, and otherwise round the exact value limb by
// limb); Rint, Floor and Trunc are exact for |x| < 2^63, walking the limbs
// from the top (see Rint); ExpmP63 keeps the reference's fixed-point
// polynomial and feeds it triple-word values of x*2^63 and ccs*2^63.
// Neg, Half and Double act limb by limb. Float64 rounds the exact sum
// correctly and Big returns it exactly.
//
// # Underflow
//
// binary32 has 8 exponent bits: normal numbers stop at 2^-126 and
// subnormals at 2^-149. Falcon's signing values have exponents down to
// about -105 (zeros aside), so the lower limbs of small values fall into
// the subnormal range or vanish: a triple word near 2^-105 carries about
// 44 significant bits, not 72. Sums remain exact there (2Sum and Fast2Sum
// are error-free under gradual underflow), but the error term of 2Prod,
// the FMAs and halving lose what lies below 2^-149. The proven bounds
// assume an unbounded exponent range; in binary32 each operation carries
// in addition an absolute error of a few units of 2^-149, which is
// relatively large only for results far below 1. The tests measure and
// log this (TestUnderflow). The range also ends at 2^128: values beyond it
// (which Falcon's key generation can produce in its big-integer Babai
// reduction) overflow. TWFalcon argues the underflow negligible for
// signing; fprlab's shadow runs measure its effect on the sampler's
// inputs.
package triword
