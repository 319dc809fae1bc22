// Package fndsa is FN-DSA, the standard NIST is deriving from Falcon (FIPS
// 206), beside the Falcon round 3 of package falcon, over the same
// floating-point backends (package arith).
//
// FIPS 206 is not final: no final standard has been published, and what
// this package implements is FN-DSA as pornin's go-fn-dsa implements it
// at commit e24833f8637c607a45230a9863689d5beb93b8be (2025-03-30),
// interoperable with his c-fn-dsa and rust-fn-dsa. Keys and signatures of
// this profile may stop being accepted when the standard is published.
// go-fn-dsa is the source of the facts below and the interoperability
// peer of the tests (testdata/gofndsa); the code is this repository's.
//
// What differs from round 3 (package falcon):
//
//   - Hash-to-point absorbs, after the 40-byte nonce, the SHAKE256 digest
//     (64 bytes) of the encoded verifying key, a byte 0 (raw message) or 1
//     (pre-hashed), the length of a domain-separation context of up to 255
//     bytes, the context, the DER OID of the pre-hash function (empty for
//     a raw message), and the message or its digest (PreHash).
//   - A signature is always the padded format of falcon.h (header 0x30+logn,
//     nonce, compressed s2, zero padding to a fixed size); keys use the
//     falcon.h encodings (0x00+logn, 0x50+logn).
//   - Signing randomness: the caller's 40-byte seed is expanded, for attempt
//     k, into SHAKE256(seed || k as 32-bit little-endian), read as a
//     40-byte nonce and a 56-byte sampler seed; the nonce changes with every
//     attempt (round 3 keeps one nonce).
//   - The sampler reads the SHAKE256 stream of its seed (internal/shakeprng)
//     instead of ChaCha20, its ApproxExp is an integer polynomial on every
//     backend, and ffSampling's LDL uses that its diagonal is real
//     (falcon/fips206.go documents those three; package
//     internal/fips206 connects them to this package).
//   - Key generation uses no floating point: the (f, g) candidates drawn
//     from a 32-byte seed and their tests (keygen_sample.go, the
//     orthogonalized norm in 32.32 fixed point, keygen_ortho.go and package
//     internal/fxr) and NTRUSolve with a fixed-point Babai reduction
//     (falcon/ntru_fips206.go, after Pornin and Prest, PKC 2019) give
//     go-fn-dsa's keys bit for bit (keygen.go), whatever the backend: the
//     backend only signs. kat.go replays go-fn-dsa's KAT, keys included.
//
// Signing is generic over the backend: over binary64 (native, emu64) the
// signatures are go-fn-dsa's byte for byte, which the tests check on the
// cross vectors; over another backend they are what that arithmetic
// produces, and the shadow measures them as it measures round 3.
package fndsa
