package fndsa2026

// KeyGenAnySeed is keyGen for the external tests: key generation from a
// seed of any length, as rust-fn-dsa's reference key tests seed it.
var KeyGenAnySeed = keyGen

// HedgedSeed and SignHedged are SignMu's two halves: the seed the draft
// derives from the key, mu and the caller's 40 bytes, and the attempts
// that sign with it (rust-fn-dsa's sign_inner).
func HedgedSeed(k *SigningKey, mu *[MuSize]byte, rnd []byte) [SignSeedSize]byte {
	return k.hedgedSeed(mu, rnd)
}

var SignHedged = (*SigningKey).signHedged

// HashedKey is the hashed verifying key a signing key carries.
func HashedKey(k *SigningKey) [HashedKeySize]byte { return k.hvk }

// HashVerifyingKey hashes an encoded verifying key as the draft does.
var HashVerifyingKey = hashKey
