package fndsa2026

import (
	"fmt"

	"github.com/fprlab/fprlab/falcon"
)

// Degrees, sizes and bounds of the profile. As in package fndsa, the
// insecure degrees 4 to 256 exist for research only and the key decoders
// take them only when asked (weak).
const (
	MinLogN    = 2
	MinStdLogN = 9
	MaxLogN    = 10
	// KeygenSeedSize is the randomness key generation reads.
	KeygenSeedSize = 32
	// SignSeedSize is the randomness one signature reads.
	SignSeedSize = 40
	// NonceSize is the size of a signature's nonce.
	NonceSize = 40
	// HashedKeySize is the size of the verifying-key digest in the
	// signing key and in mu.
	HashedKeySize = 64
	// MuSize is the size of mu.
	MuSize = 64
	// MaxContext is the largest domain-separation context, in bytes.
	MaxContext = 255
	// BInf bounds every coefficient of s1 and s2 in absolute value.
	BInf = 840
	// MaxAttempts is the draft's bound on signing attempts (the attempt
	// counter is one byte; rust-fn-dsa stops after 27).
	MaxAttempts = 27
	// HashedSignKeySize is the size of the signing-key digest that
	// hedged signing mixes into its seed.
	HashedSignKeySize = 40
)

const q = 12289

// checkDegree reports whether logn is in the class weak selects.
func checkDegree(what string, logn uint, weak bool) error {
	switch {
	case !weak && (logn < MinStdLogN || logn > MaxLogN):
		return fmt.Errorf("fndsa2026: %s has degree %d, not a standard FN-DSA degree (512 or 1024; weak degrees need the weak entry points)", what, 1<<logn)
	case weak && (logn < MinLogN || logn >= MinStdLogN):
		return fmt.Errorf("fndsa2026: %s has degree %d, not a weak research degree (4 to 256)", what, 1<<logn)
	}
	return nil
}

// fgBits is the width of each coefficient of f and g in the signing key.
func fgBits(logn uint) uint {
	switch {
	case logn <= 5:
		return 8
	case logn <= 7:
		return 7
	case logn <= 9:
		return 6
	}
	return 5
}

// SigningKeySize is the size of an encoded signing key of degree 2^logn
// (2 to 10).
func SigningKeySize(logn uint) int {
	return 1 + int(2*fgBits(logn))<<logn/8 + 1<<logn + HashedKeySize
}

// VerifyingKeySize is the size of an encoded verifying key: a header and
// 14 bits per coefficient.
func VerifyingKeySize(logn uint) int { return 1 + 7<<(logn-2) }

// SignatureSize is the fixed size of every signature of degree 2^logn
// (666 bytes at 512, 1280 at 1024 in the 2025 profile; here the draft's
// new sizes).
func SignatureSize(logn uint) int {
	d := 10 - logn
	return 44 + 3*(256>>d) + 2*(128>>d) + 3*(64>>d) + 2*(16>>d) - 2*(2>>d) - 8*(1>>d)
}

// sqBeta is the bound on ||(s1, s2)||^2, round 3's (floor(beta^2)).
func sqBeta(logn uint) uint32 {
	p, err := falcon.ParamsFor(logn)
	if err != nil {
		return 0
	}
	return p.L2Bound
}
