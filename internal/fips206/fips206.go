// Package fips206 connects package fndsa to the FN-DSA parts of falcon's
// engine without making them falcon's exported API.
//
// FN-DSA (the FIPS 206 draft) signs with round 3's engine, changed in its
// sampler and ffSampling, and solves NTRU with round 3's residue
// arithmetic and a fixed-point Babai reduction. That code needs the
// engine's internals, so it lives in package falcon; only package fndsa
// calls it. falcon installs the two functions here in its init, and fndsa
// calls them: falcon's API stays round 3's, and a program that imports
// fndsa imports falcon, so the hooks are always installed before use.
//
// The package also holds FN-DSA's integer ApproxExp (ExpmP63), which
// falcon's sampler runs and the shadow's pair arithmetic reruns on its
// measured side: it depends on package arith only.
package fips206

import (
	"math/bits"

	"github.com/fprlab/fprlab/arith"
)

// SeedSize is the number of bytes that seed one FN-DSA signing attempt's
// sampler (the 56 bytes after the nonce in the attempt's SHAKE256 output).
const SeedSize = 56

// SignAttempt runs one FN-DSA signing attempt over backend b with the
// private key (f, g, F, G) of degree 2^logn on the hashed point hm, the
// sampler reading the SHAKE256 stream of seed (SeedSize bytes); G may be
// nil (recomputed from f, g and F). s2 is the attempt's second vector and
// short reports whether (s1, s2) is within the signature bound. Installed
// by package falcon.
var SignAttempt func(b arith.Backend, logn uint, f, g, F, G []int8, hm []uint16, seed []byte) (s2 []int16, short bool, err error)

// SeedSize2026 is the length of the seed of one signing attempt in the
// July 2026 draft (rust-fn-dsa 0.4.0): the 40-byte signature seed and a
// one-byte attempt counter.
const SeedSize2026 = 41

// SignAttempt2026 runs one signing attempt of the July 2026 draft over
// backend b: as SignAttempt, but the SHAKE256 stream of seed
// (SeedSize2026 bytes) starts with the attempt's 40-byte nonce, which the
// sampler skips, and its base sampler is the draft's. s1 is returned as
// well, for the draft's bound on each coefficient. Installed by package
// falcon.
var SignAttempt2026 func(b arith.Backend, logn uint, f, g, F, G []int8, hm []uint16, seed []byte) (s1, s2 []int16, short bool, err error)

// SolveNTRU solves f G - g F = q modulo X^n+1 (n = 2^logn, logn 2 to 10)
// for FN-DSA key generation as go-fn-dsa does, with F and G in -127..127;
// ok = false rejects the candidate, err reports arguments of the wrong
// size. Installed by package falcon.
var SolveNTRU func(logn uint, f, g []int8) (F, G []int8, ok bool, err error)

// SolveNTRU2026 is SolveNTRU as the July 2026 draft (rust-fn-dsa 0.4.0)
// solves it: other (F, G) for the same (f, g). Installed by package
// falcon.
var SolveNTRU2026 func(logn uint, f, g []int8) (F, G []int8, ok bool, err error)

// expmCoeffs are the FACCT coefficients of the integer evaluation of
// 2^63 exp(-x) (Zhao, Steinfeld, Sakzad, "FACCT: FAst, Compact, and
// Constant-Time Discrete Gaussian Sampler over Integers", IEEE TC 2020; the
// same table as the reference's fpr_expm_p63), highest degree first.
var expmCoeffs = [...]uint64{
	0x00000004741183A3, 0x00000036548CFC06, 0x0000024FDCBF140A,
	0x0000171D939DE045, 0x0000D00CF58F6F84, 0x000680681CF796E3,
	0x002D82D8305B0FEA, 0x011111110E066FD0, 0x0555555555070F00,
	0x155555555581FF00, 0x400000000002B400, 0x7FFFFFFFFFFF4800,
	0x8000000000000000,
}

// Expm is implemented by an arithmetic that evaluates FN-DSA's ApproxExp
// itself, as the shadow's pair arithmetic does (the measured side's
// ExpmP63 beside the exact value, instead of the truncations'
// decisions); falcon's sampler then calls it in place of ExpmP63.
type Expm[F any] interface {
	ExpmP63FIPS206(x, ccs F) uint64
}

// ExpmP63 is FN-DSA's ApproxExp: 2^63 ccs exp(-x), for 0 <= x < ln 2
// and 0 <= ccs <= 1, evaluated in 64-bit integers by Horner's rule on
// z = 2 floor(2^63 x) and w = 2 floor(2^63 ccs) (each step keeps the high
// word of a 64x64 product). Only the two truncations are floating-point;
// over binary64 they are exact (a product by 2^63), so every binary64
// backend returns go-fn-dsa's value. A ccs of 1 or more gives w = 0, as
// go-fn-dsa does on every platform (2^63 does not fit: its native
// conversion returns 2^63, whose double wraps to 0, and its emulation
// returns 0).
func ExpmP63[F any, A arith.Arith[F]](a A, x, ccs F) uint64 {
	two63 := a.Scaled(1, 63)
	z := uint64(a.Trunc(a.Mul(x, two63))) << 1
	var w uint64
	if a.Lt(ccs, a.Const(arith.One)) {
		w = uint64(a.Trunc(a.Mul(ccs, two63))) << 1
	}
	y := expmCoeffs[0]
	for _, c := range expmCoeffs[1:] {
		hi, _ := bits.Mul64(y, z)
		y = c - hi
	}
	hi, _ := bits.Mul64(y, w)
	return hi
}
