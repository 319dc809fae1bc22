//go:build !(goexperiment.simd && amd64)

package samplerprng

// refill is refillPortable in the default build (the vector refill needs
// Go's experimental simd/archsimd package, GOEXPERIMENT=simd, on amd64).
func (p *PRNG) refill() { p.refillPortable() }

// Vectorized reports whether refills run the eight ChaCha20 blocks in
// parallel in vector registers (never in this build).
func Vectorized() bool { return false }
