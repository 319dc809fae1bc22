package fndsa2026

// KeyGenAnySeed is keyGen for the external tests: key generation from a
// seed of any length, as rust-fn-dsa's reference key tests seed it.
var KeyGenAnySeed = keyGen

// SignHedged is SignMu after HedgedSeed: the attempts that sign with the
// derived seed (rust-fn-dsa's sign_inner).
var SignHedged = (*SigningKey).signHedged

// HashedKey is the hashed verifying key a signing key carries.
func HashedKey(k *SigningKey) [HashedKeySize]byte { return k.hvk }

// HashVerifyingKey hashes an encoded verifying key as the draft does.
var HashVerifyingKey = hashKey
