package fndsa2026

// KeyGenAnySeed is keyGen for the external tests: key generation from a
// seed of any length, as rust-fn-dsa's reference key tests seed it.
var KeyGenAnySeed = keyGen
