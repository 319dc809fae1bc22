// Package fndsa2026 is FN-DSA as its implementers drafted it in July 2026
// -- pornin's rust-fn-dsa 0.4.0 (commit 0629bb1, "Updated to putative
// FN-DSA draft" in dc1832b) -- beside the 2025 profile of package fndsa,
// over the same floating-point backends (package arith).
//
// FIPS 206 is not published: this is the implementers' best guess of the
// draft NIST is finishing, and its keys and signatures may not be the
// final standard's. rust-fn-dsa is the source of the facts below and the
// interoperability peer of the tests (testdata/); the code is this
// repository's.
//
// What differs from the 2025 profile (package fndsa):
//
//   - Encodings pack least-significant bit first. The verifying key
//     (0x00+logn) holds h = g/f mod q in NTT form (the bit-reversed order
//     of round 3's NTT), 14 bits per value. The signing key (0x50+logn)
//     holds f, g and F and ends with the 64-byte SHAKE256 digest of the
//     verifying key. A signature (0x30+logn, the 40-byte nonce, s2) has
//     a new compressed format (sign bit, seven low bits, the rest in
//     unary) and a new fixed size.
//   - A 64-byte mu = SHAKE256(SHAKE256(vk) || pre-hashed? || len(ctx) ||
//     ctx || hash OID || data), as ML-DSA does, is what hash-to-point
//     absorbs after the nonce; hash-to-point reads 16-bit little-endian
//     words below 5q.
//   - Signing is hedged: the 40-byte random seed is first mixed into
//     SHAKE256(SHAKE256(enc(f) || enc(g))[:40] || mu || seed)[:40], then
//     attempt k (at most 27) reads the SHAKE256 stream of that || k (one
//     byte): its first 40 bytes are the nonce, the rest feeds the sampler.
//     Every attempt has fresh randomness and a fresh nonce.
//   - The base sampler draws 80 bits (a sign bit and 79 bits compared
//     with a new table); every coefficient of s1 and s2 must lie within
//     +-840 beside the squared-norm bound.
//   - Key generation's sampler of f and g and its NTRU solver changed
//     (keygen.go).
//
// Signing is generic over the backend (falcon's engine, through
// internal/fips206): over binary64 (native, emu64) the signatures are
// rust-fn-dsa's byte for byte.
package fndsa2026
