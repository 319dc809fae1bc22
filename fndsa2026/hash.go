package fndsa2026

import (
	"crypto/sha3"
	"encoding/binary"
	"fmt"

	"github.com/fprlab/fprlab/fndsa"
)

// PreHash is the pre-hash identifier, the same set of hash OIDs as the
// 2025 profile's (fndsa.None is a raw message).
type PreHash = fndsa.PreHash

// hashKey returns SHAKE256(vkey)[:64], the digest the signing key holds
// and mu absorbs.
func hashKey(vkey []byte) (d [HashedKeySize]byte) {
	h := sha3.NewSHAKE256()
	h.Write(vkey)
	h.Read(d[:])
	return d
}

// Mu returns the draft's 64-byte mu of (ctx, ph, data) under the
// verifying key whose digest is hvk:
//
//	SHAKE256(hvk || ph != None || len(ctx) || ctx || OID(ph) || data)[:64]
//
// It fails for a context longer than MaxContext or an unknown ph.
func Mu(hvk *[HashedKeySize]byte, ctx []byte, ph PreHash, data []byte) ([MuSize]byte, error) {
	var mu [MuSize]byte
	if len(ctx) > MaxContext {
		return mu, fmt.Errorf("fndsa2026: domain-separation context is %d bytes, more than %d", len(ctx), MaxContext)
	}
	oid, err := ph.OID()
	if err != nil {
		return mu, err
	}
	var prehashed byte
	if ph != fndsa.None {
		prehashed = 1
	}
	h := sha3.NewSHAKE256()
	h.Write(hvk[:])
	h.Write([]byte{prehashed, byte(len(ctx))})
	h.Write(ctx)
	h.Write(oid)
	h.Write(data)
	h.Read(mu[:])
	return mu, nil
}

// HashToPoint returns the point of Z_q[X]/(X^n+1), n = 2^logn, of a
// nonce and mu: SHAKE256(nonce || mu) read as 16-bit little-endian words,
// each below 5q kept and reduced modulo q (round 3 and the 2025 profile
// read big-endian words).
func HashToPoint(logn uint, nonce []byte, mu *[MuSize]byte) []uint16 {
	h := sha3.NewSHAKE256()
	h.Write(nonce)
	h.Write(mu[:])
	c := make([]uint16, 1<<logn)
	var w [2]byte
	for i := 0; i < len(c); {
		h.Read(w[:])
		if v := binary.LittleEndian.Uint16(w[:]); v < 5*q {
			c[i] = v % q
			i++
		}
	}
	return c
}
