// Package ddouble is the double-word binary64 backend "dd": every Falcon
// value is the unevaluated sum Hi + Lo of two float64 numbers with
// |Lo| <= ulp(Hi)/2, a 106-bit significand from hardware binary64 and its
// fused multiply-add.
//
// It exists to be a fast exact shadow. Shadow execution runs a Falcon
// signature over the backend under study while a far more precise
// arithmetic follows the same control path, and measures the distance of
// the sampler's centres and standard deviations from the exact ones
// (delta_c and delta_sigma). A Falcon-512 signature takes about 143 ms
// over the 256-bit big.Float oracle and about 7.8 ms over this backend
// (medians of 10, BenchmarkSign512DoubleWordVsOracle in package falcon),
// whose errors are near 2^-104 per operation, some 50 bits below those of
// binary64. Shadowing binary64 signing with it gives the same delta_c and
// delta_sigma as the oracle does (its own, measured against the oracle,
// stay below 2^-93; see the tests of analysis/shadow). Its per-operation
// errors are stated and tested below. It is not the ruler for arithmetics
// of more than about 90 bits (use the oracle), and it is neither
// constant-time nor a format a device would implement.
//
// # Algorithms and error bounds
//
// With u = 2^-53 (bounds in units of u^2 = 2^-106; measured: the largest
// relative error against the 256-bit oracle over 1,000,000 random operand
// pairs with exponents 2^-110..2^80, additions half under cancellation):
//
//	op      algorithm                                   bound          measured
//	add/sub AccurateDWPlusDW, JMP Algorithm 6          3u^2 + 13u^3   1.996u^2
//	mul/sqr DWTimesDW3 (FMA), JMP Algorithm 12         5u^2           3.39u^2 / 3.42u^2
//	inv/div DWDivDW2, JMP Algorithm 17                 15u^2 + 56u^3  3.75u^2 / 6.42u^2
//	sqrt    SQRTDWtoDW, Lefevre et al. 2023            3.125u^2       2.85u^2
//
// JMP is Joldes, Muller and Popescu, "Tight and rigorous error bounds for
// basic building blocks of double-word arithmetic", ACM TOMS 44(2), 2017;
// Lefevre, Louvet, Muller, Picot and Rideau, "Accurate calculation of
// Euclidean norms using double-word arithmetic", ACM TOMS 49(1), 2023. The
// error-free transforms beneath them are Fast2Sum (Dekker 1971), 2Sum
// (Knuth, after Moller) and 2Prod with an FMA. RelErrBound reports the
// bounds (arith.ErrorBounds).
//
// ExpmP63 computes exp(-x) in double words (halving, a degree-15 Taylor
// series of expm1, four squarings in expm1 form; relative error bound
// about 20u^2, measured 3.9u^2 over 1,000,000 arguments in [0, ln 2)),
// times ccs, scaled by 2^63 and floored exactly. Over 1,000,000 random
// (x, ccs) of the sampler's domain it equals the oracle's exact
// floor(2^63 ccs exp(-x)) every time; it can differ, by one, only where
// the true value lies within 2^-101.4 of itself (2^-38) of an integer. Unlike
// every binary64 backend it has no polynomial error of its own: it is the
// true function to 100 bits.
//
// # Conversions
//
// Of converts every int64 exactly; Scaled and FromFloat64 are exact (while
// the low part stays normal); Const and GM are the exact values
// (arith.Exact and arith.GMExact at 160 bits) rounded to double words,
// Hi to nearest and then Lo to nearest (relative error below 2^-105; the
// binary64-defined parameters of the scheme have Lo = 0 and Hi is always
// the reference's binary64 value). Rint (ties to even), Floor, Trunc and
// Lt are exact on the value Hi + Lo, including where Hi is an integer and
// Lo decides, and saturate outside int64 as the oracle does. Neg, Half and
// Double are exact, Float64 rounds Hi + Lo correctly and Big is exact.
// Signed zeros follow IEEE-754 in sums, products, quotients and square
// roots.
//
// # What it is not
//
// The exponent range is binary64's. No guarantee is made for values whose
// low part falls below 2^-1022 (magnitudes below about 2^-916, see
// BoundMinExp): there Lo is subnormal or zero and the precision degrades
// gradually towards 53 bits. Overflow beyond 2^1024 gives infinities, and
// infinities and NaNs propagate through the arithmetic operations as
// IEEE-754 prescribes (with Lo = 0). Falcon's signing values stay within
// 2^-110..2^80 and key generation within binary64's range, so neither
// matters to Falcon.
//
// # No unintended fusion
//
// The algorithms need their FMAs exactly where they are written and
// nowhere else. They call math.FMA, which is correctly rounded on every
// platform, and every other product is written float64(x*y): the Go
// specification lets a compiler fuse a product with a later addition, even
// across statements, unless the product is explicitly converted. The tests
// pass with GOAMD64=v3 as well.
package ddouble
