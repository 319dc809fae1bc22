package fndsa2026

import (
	"fmt"

	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/internal/fips206"
	"github.com/fprlab/fprlab/internal/shakeprng"
)

// Key generation of the draft, integer arithmetic only (rust-fn-dsa
// 0.4.0, fn-dsa-kgen): from the SHAKE256 stream of the 32-byte seed, f is
// drawn until it is invertible modulo q, then g; the pair is kept when
// ||(f, g)||^2 < 16823, the orthogonalized vector's squared norm is below
// orthoNormBound and NTRUSolve (falcon's, through fips206.SolveNTRU2026)
// succeeds; otherwise f is drawn again.

// orthoNormBound is the draft's bound on the orthogonalized vector's
// squared norm in 32.32 fixed point (16788.7 where the 2025 profile has
// 1.17^2 q = 16822.4).
const orthoNormBound = 72107278641426

// kgDist512 and kgDist1024 are the draft's half-Gaussian tables for f and
// g: entry j is 2^15 P(|x| > j) for degree 512 (sigma = 1.17 sqrt(q/1024))
// and 1024; lower degrees add up 512/n draws of the 512 table.
var (
	kgDist512  = []uint32{29543, 23286, 17574, 12669, 8706, 5692, 3535, 2083, 1164, 615, 308, 146, 65, 28, 11, 4, 1}
	kgDist1024 = []uint32{28207, 19623, 12472, 7198, 3753, 1761, 742, 280, 94, 28, 8, 2}
)

// sampleSmall fills f with the draft's distribution: per draw a 16-bit
// word, its low bit the sign and the 15 bits above it compared with the
// table; coefficients beyond +-127 are drawn again, and the last one is
// drawn again until the sum of all is odd (the resultant of f with
// X^n+1 is then odd).
func sampleSmall(logn uint, p *shakeprng.PRNG, f []int8) {
	tab, draws := kgDist512, 1<<(9-min(logn, 9))
	if logn == 10 {
		tab, draws = kgDist1024, 1
	}
	n := 1 << logn
	parity := int32(0)
	for i := 0; i < n; {
		var x int32
		for range draws {
			u := uint32(p.U16())
			v := u >> 1
			var a int32
			for _, t := range tab {
				if v < t {
					a++
				}
			}
			if u&1 != 0 {
				a = -a
			}
			x += a
		}
		if x < -127 || x > 127 {
			continue
		}
		if i == n-1 {
			if (parity^x)&1 != 1 {
				continue
			}
		} else {
			parity ^= x
		}
		f[i] = int8(x)
		i++
	}
}

// invertibleModQ reports whether f is invertible modulo q and X^n+1.
func invertibleModQ(f []int8) bool {
	a := modQ(f)
	ntt(a)
	for _, x := range a {
		if x == 0 {
			return false
		}
	}
	return true
}

// KeyGen returns the signing key of degree 2^logn (2 to 10; 9 and 10 are
// the standard degrees) of a KeygenSeedSize-byte seed: rust-fn-dsa's key
// when its random source yields those bytes.
func KeyGen(logn uint, seed []byte) (*SigningKey, error) {
	if logn < MinLogN || logn > MaxLogN {
		return nil, fmt.Errorf("fndsa2026: key generation: logn %d outside %d..%d (degrees 4 to 1024)", logn, MinLogN, MaxLogN)
	}
	if len(seed) != KeygenSeedSize {
		return nil, fmt.Errorf("fndsa2026: key generation: seed of %d bytes, want %d", len(seed), KeygenSeedSize)
	}
	return keyGen(logn, seed)
}

// keyGen is KeyGen for a seed of any length: the draft's key generation
// seeds its SHAKE256 stream with whatever bytes it is given, and
// rust-fn-dsa's reference key tests (KAT_KG256/512/1024 in fn-dsa-kgen)
// use short ASCII seeds ("test0", "test1", ...) that KeyGen's API does not
// take.
func keyGen(logn uint, seed []byte) (*SigningKey, error) {
	n := 1 << logn
	p := shakeprng.New(seed)
	f, g := make([]int8, n), make([]int8, n)
	for {
		sampleSmall(logn, p, f)
		if !invertibleModQ(f) {
			continue
		}
		sampleSmall(logn, p, g)
		sn := 0
		for i := range n {
			sn += int(f[i])*int(f[i]) + int(g[i])*int(g[i])
		}
		if sn >= 16823 || int64(fndsa.OrthoNormSq(logn, f, g)) >= orthoNormBound {
			continue
		}
		F, G, ok, err := fips206.SolveNTRU2026(logn, f, g)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		// G is recomputed from h and F (and checked to fit 8 bits), as
		// the decoder does: the solver's G is the same polynomial.
		_ = G
		return newSigningKey(logn, f, g, F)
	}
}
