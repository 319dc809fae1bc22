package fndsa

import (
	"fmt"

	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/fips206"
	"github.com/fprlab/fprlab/internal/shakeprng"
)

// Key generation, as go-fn-dsa (commit e24833f, kgen.go) does it: from a
// seed, draw candidates (f, g) (keygen_sample.go) until one passes the
// norm, invertibility and orthogonalized-norm tests and NTRUSolve
// (falcon/ntru_fips206.go, through fips206.SolveNTRU) finds F, G in -127..127; the verifying key is
// h = g/f mod q. No floating point is involved, so the keys depend on the
// seed alone: every backend gets the same keys. FIPS 206 is not final;
// these are facts of that implementation.

// KeygenSeedSize is the seed length of KeyGen: go-fn-dsa's KeyGen reads 32
// bytes from its random source and derives everything from them.
const KeygenSeedSize = 32

// KeyPair is a generated FN-DSA key pair: the four secret polynomials and
// the two encodings (falcon.h's formats, header 0x50+logn for the signing
// key, 0x00+logn for the verifying key).
type KeyPair struct {
	LogN                       uint
	SmallF, SmallG, BigF, BigG []int8
	SigningKey, VerifyingKey   []byte
}

// KeyGen generates the key pair of degree 2^logn (logn 2 to 10; 9 and 10
// are the standard degrees, the others are for research only) from a
// KeygenSeedSize-byte seed, the keys go-fn-dsa's KeyGen returns when its
// random source yields those bytes.
func KeyGen(logn uint, seed []byte) (*KeyPair, error) {
	if logn < MinLogN || logn > MaxLogN {
		return nil, fmt.Errorf("fndsa: key generation: logn %d outside %d..%d (degrees 4 to 1024)", logn, MinLogN, MaxLogN)
	}
	if len(seed) != KeygenSeedSize {
		return nil, fmt.Errorf("fndsa: key generation: seed of %d bytes, want %d", len(seed), KeygenSeedSize)
	}
	return keyGenFromSeed(logn, seed)
}

// keyGenFromSeed is KeyGen for a seed of any length (go-fn-dsa's
// keygen_inner, which its key-generation tests call with seeds such as
// "test0"); logn must be valid.
func keyGenFromSeed(logn uint, seed []byte) (*KeyPair, error) {
	f, g, F, G, err := solveFromSeed(logn, seed, nil)
	if err != nil {
		return nil, err
	}
	sk := &falcon.PrivateKey{LogN: logn, SmallF: f, SmallG: g, BigF: F, BigG: G}
	pk, err := sk.Public()
	if err != nil {
		return nil, err
	}
	skey := sk.Encode()
	if skey == nil {
		return nil, fmt.Errorf("fndsa: key generation: %v", sk.Check())
	}
	return &KeyPair{LogN: logn, SmallF: f, SmallG: g, BigF: F, BigG: G, SigningKey: skey, VerifyingKey: pk.Encode()}, nil
}

// solveFromSeed draws candidates from the seed until one is accepted and
// returns it with its F, G. verdict, if not nil, is told the fate of every
// candidate in order: the test that rejected it (candidateVerdict's names,
// "ntru" for NTRUSolve) or "ok".
func solveFromSeed(logn uint, seed []byte, verdict func(f, g []int8, v string)) (f, g, F, G []int8, err error) {
	n := 1 << logn
	p := shakeprng.New(seed)
	f, g = make([]int8, n), make([]int8, n)
	for {
		sampleSmall(logn, p, f)
		sampleSmall(logn, p, g)
		v := candidateVerdict(logn, f, g)
		if v == "" {
			var ok bool
			F, G, ok, err = fips206.SolveNTRU(logn, f, g)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			v = "ntru"
			if ok {
				v = "ok"
			}
		}
		if verdict != nil {
			verdict(f, g, v)
		}
		if v == "ok" {
			return f, g, F, G, nil
		}
	}
}
