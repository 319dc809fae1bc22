package fndsa

import (
	"crypto/sha3"
	"fmt"

	"github.com/fprlab/fprlab/falcon"
)

// MaxContext is the largest domain-separation context, in bytes.
const MaxContext = 255

// HashedKeySize is the size of the verifying-key digest hash-to-point
// absorbs.
const HashedKeySize = 64

// hashKey returns SHAKE256(vkey) truncated to HashedKeySize bytes.
func hashKey(vkey []byte) [HashedKeySize]byte {
	var d [HashedKeySize]byte
	h := sha3.NewSHAKE256()
	h.Write(vkey)
	h.Read(d[:])
	return d
}

// hashInput returns what hash-to-point absorbs after the nonce:
//
//	SHAKE256(vkey)[:64] || ph != None || len(ctx) || ctx || OID(ph) || data
//
// It fails for a context longer than MaxContext or an unknown ph.
func hashInput(hvk *[HashedKeySize]byte, ctx []byte, ph PreHash, data []byte) ([]byte, error) {
	if len(ctx) > MaxContext {
		return nil, fmt.Errorf("fndsa: domain-separation context is %d bytes, more than %d", len(ctx), MaxContext)
	}
	oid, err := ph.oid()
	if err != nil {
		return nil, err
	}
	m := make([]byte, 0, HashedKeySize+2+len(ctx)+len(oid)+len(data))
	m = append(m, hvk[:]...)
	var prehashed byte
	if ph != None {
		prehashed = 1
	}
	m = append(m, prehashed, byte(len(ctx)))
	m = append(m, ctx...)
	m = append(m, oid...)
	return append(m, data...), nil
}

// HashToPoint returns the point of Z_q[X]/(X^n+1), n = 2^logn, that a
// signature with this nonce of (ctx, ph, data) under the verifying key
// vkey (its encoding) must match: SHAKE256 of the nonce and hashInput,
// read as round 3 reads it (falcon.HashToPoint: 16-bit big-endian words
// below 5q, reduced mod q).
func HashToPoint(logn uint, nonce, vkey, ctx []byte, ph PreHash, data []byte) ([]uint16, error) {
	hvk := hashKey(vkey)
	return hashToPoint(logn, nonce, &hvk, ctx, ph, data)
}

func hashToPoint(logn uint, nonce []byte, hvk *[HashedKeySize]byte, ctx []byte, ph PreHash, data []byte) ([]uint16, error) {
	m, err := hashInput(hvk, ctx, ph, data)
	if err != nil {
		return nil, err
	}
	hm := falcon.HashToPoint(nonce, m, logn)
	if hm == nil {
		return nil, fmt.Errorf("fndsa: logn %d out of range", logn)
	}
	return hm, nil
}
