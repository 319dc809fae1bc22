package fndsa

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	_ "embed"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/fprlab/fprlab/arith"
)

// go-fn-dsa's known-answer test (commit e24833f, fndsa_test.go,
// TestFNDSA_KAT): ten key pairs per degree 4 to 1024, each record j of
// degree 2^logn fully determined by (logn, j) -- the key-generation seed,
// the signing seed, the context and the message -- and pinned by
// SHA3-256(sk || vk || sig). The 90 pins are embedded (gofndsa_kat.txt),
// with SHA-256(sk || vk) of go-fn-dsa's keys for each record, so that a
// run can tell a key that differs from a signature that differs; the file
// is made from testdata/gofndsa/vectors.json.gz (see its README), and a
// test checks the two agree.

//go:embed gofndsa_kat.txt
var katPinsText string

// KATRecords is the number of records of go-fn-dsa's KAT.
const KATRecords = 90

// KATRecord is one record of go-fn-dsa's KAT.
type KATRecord struct {
	LogN uint
	J    int
	// Pin is go-fn-dsa's SHA3-256(sk || vk || sig); KeyDigest is
	// SHA-256(sk || vk) of go-fn-dsa's keys.
	Pin, KeyDigest [32]byte
}

// KAT returns the 90 records, by degree then j.
func KAT() ([]KATRecord, error) {
	recs, err := parseKAT()
	return slices.Clone(recs), err
}

// parseKAT reads the embedded records once.
var parseKAT = sync.OnceValues(func() ([]KATRecord, error) {
	var recs []KATRecord
	for i, line := range strings.Split(strings.TrimSpace(katPinsText), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		var r KATRecord
		f := strings.Fields(line)
		if len(f) != 4 {
			return nil, fmt.Errorf("fndsa: embedded KAT line %d: %d fields", i+1, len(f))
		}
		logn, err1 := strconv.ParseUint(f[0], 10, 8)
		j, err2 := strconv.Atoi(f[1])
		pin, err3 := hex.DecodeString(f[2])
		kd, err4 := hex.DecodeString(f[3])
		if err1 != nil || err2 != nil || err3 != nil || err4 != nil || len(pin) != 32 || len(kd) != 32 {
			return nil, fmt.Errorf("fndsa: embedded KAT line %d is malformed", i+1)
		}
		r.LogN, r.J = uint(logn), j
		copy(r.Pin[:], pin)
		copy(r.KeyDigest[:], kd)
		recs = append(recs, r)
	}
	if len(recs) != KATRecords {
		return nil, fmt.Errorf("fndsa: embedded KAT has %d records, want %d", len(recs), KATRecords)
	}
	return recs, nil
})

// seed6 is the record's 6-byte seed with its first byte set to kind: 0 for
// key generation, 1 for signing (then logn and j as 32-bit little-endian).
func (r KATRecord) seed6(kind byte) []byte {
	s := []byte{kind, byte(r.LogN), 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(s[2:], uint32(r.J))
	return s
}

// KeygenSeed is the record's 32-byte key-generation seed:
// SHAKE256(0x00 || logn || j as 32-bit little-endian).
func (r KATRecord) KeygenSeed() []byte {
	h := sha3.NewSHAKE256()
	h.Write(r.seed6(0))
	seed := make([]byte, KeygenSeedSize)
	h.Read(seed)
	return seed
}

// SignSeed is the record's signing seed, the 6 bytes
// 0x01 || logn || j as 32-bit little-endian, used as is.
func (r KATRecord) SignSeed() []byte { return r.seed6(1) }

// Context is the record's domain-separation context, "domain".
func (r KATRecord) Context() []byte { return []byte("domain") }

// Message returns what the record signs: the message "message" raw for
// even j, its SHA3-256 digest pre-hashed for odd j.
func (r KATRecord) Message() (PreHash, []byte) {
	msg := []byte("message")
	if r.J&1 == 0 {
		return None, msg
	}
	d := sha3.Sum256(msg)
	return SHA3_256, d[:]
}

// KATResult is a record regenerated here: KeysMatch when the keys are
// go-fn-dsa's, PinMatch when the signature is too (the pin covers keys and
// signature), Verified when the signature verifies.
type KATResult struct {
	SigningKey, VerifyingKey, Signature []byte
	KeysMatch, PinMatch, Verified       bool
}

// RunKAT regenerates record r: its keys (KeyGen: integer arithmetic, the
// same on every backend) and its signature over backend b (a binary64
// backend gives go-fn-dsa's signature; another gives what its arithmetic
// gives), compares them with the record's digests and verifies the
// signature.
func RunKAT(b arith.Backend, r KATRecord) (*KATResult, error) {
	kp, err := KeyGen(r.LogN, r.KeygenSeed())
	if err != nil {
		return nil, err
	}
	weak := r.LogN < MinStdLogN
	sk, err := DecodeSigningKey(kp.SigningKey, weak)
	if err != nil {
		return nil, err
	}
	ph, msg := r.Message()
	sig, err := sk.SignSeeded(b, r.Context(), ph, msg, r.SignSeed())
	if err != nil {
		return nil, fmt.Errorf("fndsa: KAT logn %d j %d over %s: %w", r.LogN, r.J, b.Name, err)
	}
	vk, err := DecodeVerifyingKey(kp.VerifyingKey, weak)
	if err != nil {
		return nil, err
	}
	res := &KATResult{SigningKey: kp.SigningKey, VerifyingKey: kp.VerifyingKey, Signature: sig}
	res.Verified = vk.Verify(r.Context(), ph, msg, sig) == nil
	res.KeysMatch, res.PinMatch = r.Match(kp.SigningKey, kp.VerifyingKey, sig)
	return res, nil
}

// Match compares encoded keys and a signature with the record: keys when
// SHA-256(sk || vk) is its key digest, pin when SHA3-256(sk || vk || sig)
// is its pin.
func (r KATRecord) Match(sk, vk, sig []byte) (keys, pin bool) {
	kd := sha256.New()
	kd.Write(sk)
	kd.Write(vk)
	h := sha3.New256()
	h.Write(sk)
	h.Write(vk)
	h.Write(sig)
	return bytes.Equal(kd.Sum(nil), r.KeyDigest[:]), bytes.Equal(h.Sum(nil), r.Pin[:])
}

// KATRecordOf returns record j of go-fn-dsa's KAT at degree 2^logn, false
// when there is none (j outside 0 to 9, or logn outside 2 to 10).
func KATRecordOf(logn uint, j int) (KATRecord, bool, error) {
	recs, err := parseKAT()
	if err != nil {
		return KATRecord{}, false, err
	}
	for _, r := range recs {
		if r.LogN == logn && r.J == j {
			return r, true, nil
		}
	}
	return KATRecord{}, false, nil
}
