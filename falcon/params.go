// Package falcon is Falcon round 3 exactly as the reference
// Falcon-impl-20211101 computes it, written once and generic over the
// floating-point backend (package arith): key generation, signing,
// verification, the encodings of falcon.h and the NIST KAT flow. Every
// floating-point operation goes through the backend; integer parts
// (NTT mod q, NTRUSolve's big integers, encodings, verification) are plain Go.
package falcon

import "fmt"

// Q is Falcon's modulus.
const Q = 12289

// Params are the sizes and bounds of one Falcon degree n = 2^LogN.
// Degrees 2..1024 (LogN 1..10) are defined by the reference; Falcon-512 and
// Falcon-1024 are the standardised ones.
type Params struct {
	LogN uint
	N    int
	// L2Bound is the bound on the squared norm ||(s1, s2)||^2 (floor(beta^2)).
	L2Bound uint32
	// Bits of the trim encodings of f and g, and of F (and G) in the secret key.
	FGBits, BigFGBits uint
	// SigBits is the width of the constant-time signature encoding of s2.
	SigBits uint
	// Sizes in bytes of the falcon.h encodings.
	PublicKeySize, PrivateKeySize       int
	SigCompressedMaxSize, SigPaddedSize int
	SigCTSize                           int
}

var (
	l2bound   = [11]uint32{0, 101498, 208714, 428865, 892039, 1852696, 3842630, 7959734, 16468416, 34034726, 70265242}
	maxFGBits = [11]uint{0, 8, 8, 8, 8, 8, 7, 7, 6, 6, 5}
	maxSigBit = [11]uint{0, 10, 11, 11, 12, 12, 12, 12, 12, 12, 12}
)

// ParamsFor returns the parameters for degree 2^logn, 1 <= logn <= 10.
func ParamsFor(logn uint) (*Params, error) {
	p, err := params(logn)
	if err != nil {
		return nil, err
	}
	c := *p
	return &c, nil
}

// MaxEncodedSizes are the largest falcon.h encodings over every degree:
// public key, private key and signature (of any format). No key or
// signature file can be longer, so a reader can stop there.
func MaxEncodedSizes() (pk, sk, sig int) {
	for logn := uint(1); logn <= 10; logn++ {
		p := &paramsTab[logn]
		pk = max(pk, p.PublicKeySize)
		sk = max(sk, p.PrivateKeySize)
		sig = max(sig, p.SigCompressedMaxSize, p.SigPaddedSize, p.SigCTSize)
	}
	return pk, sk, sig
}

// paramsTab holds the parameters of every degree, computed once, so that
// the verifier and the signer look them up without allocating.
var paramsTab = func() (t [11]Params) {
	for logn := uint(1); logn <= 10; logn++ {
		t[logn] = computeParams(logn)
	}
	return t
}()

// params is ParamsFor for the package's own use: the returned Params is
// shared and must not be modified.
func params(logn uint) (*Params, error) {
	if logn < 1 || logn > 10 {
		return nil, fmt.Errorf("falcon: logn %d out of range 1..10 (degree 2..1024)", logn)
	}
	return &paramsTab[logn], nil
}

// computeParams computes the parameters for degree 2^logn, 1 <= logn <= 10.
func computeParams(logn uint) Params {
	p := Params{
		LogN:      logn,
		N:         1 << logn,
		L2Bound:   l2bound[logn],
		FGBits:    maxFGBits[logn],
		BigFGBits: 8,
		SigBits:   maxSigBit[logn],
	}
	// falcon.h size macros.
	if logn <= 3 {
		p.PrivateKeySize = 3<<logn + 1
	} else {
		p.PrivateKeySize = int((10-(logn>>1))<<(logn-2)) + 1<<logn + 1
	}
	if logn <= 1 {
		p.PublicKeySize = 5
	} else {
		p.PublicKeySize = 7<<(logn-2) + 1
	}
	p.SigCompressedMaxSize = int(((11<<logn)+(101>>(10-logn))+7)>>3) + 41
	p.SigPaddedSize = int(44 + 3*(256>>(10-logn)) + 2*(128>>(10-logn)) +
		3*(64>>(10-logn)) + 2*(16>>(10-logn)) - 2*(2>>(10-logn)) - 8*(1>>(10-logn)))
	p.SigCTSize = 3<<(logn-1) + 41
	if logn == 3 {
		p.SigCTSize--
	}
	return p
}

// mustParams is params for degrees known to be valid; the result is shared
// and must not be modified.
func mustParams(logn uint) *Params {
	p, err := params(logn)
	if err != nil {
		panic(err)
	}
	return p
}

// Falcon512 and Falcon1024 are the two standardised parameter sets.
var (
	Falcon512, _  = ParamsFor(9)
	Falcon1024, _ = ParamsFor(10)
)
