// Package vfloat is a fast implementation of the vprec formats of package
// arith/oracle (vprec:P, vprec:P:eE, vprec:P:eE:rz, vprec:P:eE:sr=SEED)
// that computes exactly the same results, bit for bit.
//
// # Why it exists
//
// Package oracle computes every format on math/big.Float: each operation
// allocates and costs some hundreds of nanoseconds, so a precision sweep
// (dozens of formats, hundreds of shadowed Falcon signatures each) spends
// almost all its time in memory allocation. The big.Float code is short
// and obviously right, which is why it stays the reference ("vprecbig"
// names select it); this package is the same arithmetic without
// allocation, selected by the "vprec" names (oracle.SetFastVPrec).
//
// # Why it is exact
//
// A value V is a sign, a 128-bit significand and an integer exponent,
// value = 0.hi lo (binary) * 2^exp with the significand in [1/2, 1), the
// convention of big.Float.MantExp: every P-bit value with P <= 128 and
// any exponent is held exactly, so the unbounded exponent of vprec:P needs
// no special case. Each arithmetic operation computes the exact result as
// an integer -- a 192-bit aligned sum, the 256-bit product, a 129-bit
// quotient with its remainder -- and rounds it once to P bits by the
// standard rule: the kept P bits, the first discarded bit (round bit) and
// whether anything nonzero lies below it (sticky). That is the rounding of
// the exact value as long as the integer carries at least P+2 bits of it
// and the sticky flag records the rest (Goldberg, "What every computer
// scientist should know about floating-point arithmetic", ACM Computing
// Surveys 23(1), 1991, section "Guard digits", and IEEE 754-2019, 4.3):
// sums keep 192 bits, products all 256 (the last word folded into
// sticky), quotients 128 bits plus the remainder's sign. Hence P <= 113
// (MaxPrec), binary128's significand, leaves 15 bits to spare; larger P
// stay on big.Float. The exponent range of vprec:P:eE is then a comparison
// of integers (see Arith.fit). The correctly rounded exponential of plain
// vprec:P's ExpmP63 comes from a 127-bit fixed-point evaluation with a
// proved error bound, rounded only when both ends of the bound round alike
// (expNeg; otherwise the reference computes it). Square roots go through
// the reference's big.Float code on the same exact values (one per tree
// leaf: a small share of signing), as does every rounded operation under
// stochastic rounding, whose decisions hash the operands' exact values
// (oracle's format.random); those are correct by being the reference.
//
// Measured on this repository's 2-vCPU machine under load (medians of 5,
// P = 24, 53, 64, 80): an addition or multiplication takes 20-33 ns
// against 110-300 ns on big.Float, ExpmP63 of vprec:P 0.4-0.5 us against
// 6.6-15 us, a square root up to 53 bits 50 ns against 1 us (above, the
// reference's plus conversions), and a shadowed Falcon-512 signature (dd
// shadow) 29-56 ms against 92-171 ms; see BenchmarkOps and the shadow
// package's BenchmarkShadowedSignVPrec.
//
// The tests compare every operation with package oracle over millions of
// random and edge-case operands in many formats, and whole Falcon-512
// signatures (bytes and shadow statistics) with pinned digests computed
// by the reference.
package vfloat
