package fndsa2026

import (
	"bufio"
	"bytes"
	"crypto/sha3"
	_ "embed"
	"encoding/hex"
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/fndsa"
)

// testKAT is rust-fn-dsa 0.4.0's own known-answer test (fn-dsa/src/lib.rs,
// test_kat): per line logn, j and the expected SHA3-256(sk || vk || sig).
//
//go:embed test_kat.txt
var testKAT []byte

// KATRecord is one record of rust-fn-dsa's test_kat.
type KATRecord struct {
	LogN uint
	J    int
	// Pin is SHA3-256(sk || vk || sig) as rust-fn-dsa computes it.
	Pin [32]byte
}

// KAT returns rust-fn-dsa 0.4.0's test_kat records: ten per degree, logn
// 2 to 10, in that order.
func KAT() ([]KATRecord, error) {
	var out []KATRecord
	sc := bufio.NewScanner(bytes.NewReader(testKAT))
	for sc.Scan() {
		var r KATRecord
		var pin string
		if _, err := fmt.Sscanf(sc.Text(), "%d %d %s", &r.LogN, &r.J, &pin); err != nil {
			return nil, fmt.Errorf("fndsa2026: test_kat line %d: %w", len(out)+1, err)
		}
		p, err := hex.DecodeString(pin)
		if err != nil || len(p) != 32 {
			return nil, fmt.Errorf("fndsa2026: test_kat line %d: bad pin %q", len(out)+1, pin)
		}
		copy(r.Pin[:], p)
		out = append(out, r)
	}
	return out, sc.Err()
}

// KATResult is what replaying one record over a backend gave.
type KATResult struct {
	// PinMatch: SHA3-256(sk || vk || sig) is rust-fn-dsa's.
	PinMatch bool
	// Verified: the signature verifies under the record's key.
	Verified bool
	// Sig is the signature made over the backend.
	Sig []byte
	// Key is the record's signing key (integer key generation: the same
	// on every backend).
	Key *SigningKey
}

// KATInputs is what record r of rust-fn-dsa's test_kat signs, and with
// which key.
type KATInputs struct {
	Key      *SigningKey
	Ctx      []byte
	PreHash  PreHash
	Data     []byte
	SignSeed []byte // the 40 bytes its RNG gives sign
}

// Inputs derives the record's inputs as rust-fn-dsa's test_kat does:
// SHAKE256(logn || j as 32-bit little-endian) gives the 32-byte key seed,
// then the 40-byte signing seed; "message" is signed under the context
// "domain", raw for even j and as its SHA3-256 digest for odd j.
func (r KATRecord) Inputs() (KATInputs, error) {
	seed := sha3.NewSHAKE256()
	j := uint32(r.J)
	seed.Write([]byte{byte(r.LogN), byte(j), byte(j >> 8), byte(j >> 16), byte(j >> 24)})
	ks, ss := make([]byte, KeygenSeedSize), make([]byte, SignSeedSize)
	seed.Read(ks)
	seed.Read(ss)
	k, err := KeyGen(r.LogN, ks)
	if err != nil {
		return KATInputs{}, err
	}
	in := KATInputs{Key: k, Ctx: []byte("domain"), PreHash: fndsa.None, Data: []byte("message"), SignSeed: ss}
	if j&1 == 1 {
		d := sha3.Sum256(in.Data)
		in.PreHash, in.Data = fndsa.SHA3_256, d[:]
	}
	return in, nil
}

// Matches reports whether SHA3-256(sk || vk || sig) of key k and sig is
// the record's pin.
func (r KATRecord) Matches(k *SigningKey, sig []byte) bool {
	h := sha3.New256()
	h.Write(k.Encode())
	h.Write(k.VerifyingKey())
	h.Write(sig)
	return bytes.Equal(h.Sum(nil), r.Pin[:])
}

// RunKAT replays record r over b as rust-fn-dsa's test_kat does (Inputs).
func RunKAT(b arith.Backend, r KATRecord) (KATResult, error) {
	in, err := r.Inputs()
	if err != nil {
		return KATResult{}, err
	}
	sig, err := in.Key.Sign(b, in.Ctx, in.PreHash, in.Data, bytes.NewReader(in.SignSeed))
	if err != nil {
		return KATResult{}, err
	}
	res := KATResult{PinMatch: r.Matches(in.Key, sig), Sig: sig, Key: in.Key}
	vk, err := DecodeVerifyingKey(in.Key.VerifyingKey(), r.LogN < MinStdLogN)
	if err != nil {
		return res, err
	}
	res.Verified = vk.Verify(in.Ctx, in.PreHash, in.Data, sig) == nil
	return res, nil
}
