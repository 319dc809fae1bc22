package fndsa

import (
	"fmt"
	"strings"
)

// PreHash identifies how the signed data was prepared: None for a raw
// message, otherwise the hash function whose digest is signed. The
// identifier enters hash-to-point as its DER-encoded object identifier
// (NIST's hash OIDs, 2.16.840.1.101.3.4.2.n), so a digest signed as SHA-256
// never verifies as a raw message or as another hash's digest.
type PreHash int

// The pre-hash identifiers go-fn-dsa defines.
const (
	None PreHash = iota
	SHA256
	SHA384
	SHA512
	SHA512_256
	SHA3_256
	SHA3_384
	SHA3_512
	numPreHash
)

var preHashNames = [numPreHash]string{"none", "sha256", "sha384", "sha512", "sha512-256", "sha3-256", "sha3-384", "sha3-512"}

// preHashArc is the last arc of each identifier's OID under
// 2.16.840.1.101.3.4.2 (0 for None, which has no OID).
var preHashArc = [numPreHash]byte{0, 1, 2, 3, 6, 8, 9, 10}

// oidPrefix is the DER encoding of an OBJECT IDENTIFIER of nine content
// bytes, 2.16.840.1.101.3.4.2, without the last arc.
var oidPrefix = []byte{0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02}

// preHashSize is the digest size in bytes of each identifier (0 for None:
// a message of any length).
var preHashSize = [numPreHash]int{0, 32, 48, 64, 32, 32, 48, 64}

// DigestSize is the length in bytes of p's digests, the only length of
// data a signature under p can honestly cover (0 for None and unknown
// identifiers).
func (p PreHash) DigestSize() int {
	if p < 0 || p >= numPreHash {
		return 0
	}
	return preHashSize[p]
}

// String returns the name ParsePreHash reads.
func (p PreHash) String() string {
	if p >= 0 && p < numPreHash {
		return preHashNames[p]
	}
	return fmt.Sprintf("PreHash(%d)", int(p))
}

// ParsePreHash parses a pre-hash name (none, sha256, sha384, sha512,
// sha512-256, sha3-256, sha3-384, sha3-512; any case).
func ParsePreHash(s string) (PreHash, error) {
	for i, name := range preHashNames {
		if strings.EqualFold(s, name) {
			return PreHash(i), nil
		}
	}
	return 0, fmt.Errorf("fndsa: unknown pre-hash %q (want one of %s)", s, strings.Join(preHashNames[:], ", "))
}

// OID returns the DER-encoded object identifier of p that hash-to-point
// absorbs (nil for None), or an error for an unknown identifier.
func (p PreHash) OID() ([]byte, error) { return p.oid() }

// oid returns the DER OID of p (nil for None), or an error for an unknown
// identifier.
func (p PreHash) oid() ([]byte, error) {
	if p < 0 || p >= numPreHash {
		return nil, fmt.Errorf("fndsa: unknown pre-hash identifier %d", int(p))
	}
	if p == None {
		return nil, nil
	}
	return append(append([]byte(nil), oidPrefix...), preHashArc[p]), nil
}
