// Package fndsacount counts the operations of one FN-DSA signature and its
// verification (accel.FNDSACounts; how each counter is counted is written
// beside that type in package accel). It is a package of its own so that
// accel, and the analyses that price its counts, link no FN-DSA
// implementation: only the commands and the scheme that count FN-DSA import
// it.
package fndsacount

import (
	"crypto/sha3"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/internal/fips206"
)

// samplerBytes is a falcon.Observer over emu64 that adds up the bytes
// each attempt's sampler reads from its PRNG: every Bernoulli trial
// follows a base-sampler draw (8 + 1 bytes) and a sign bit (1 byte), and
// reads nbytes itself.
type samplerBytes struct {
	cur      int64
	attempts []int64
	trials   int64
}

func (o *samplerBytes) Stage(falcon.Stage, int, int, ...[]emu64.FPR) {}
func (o *samplerBytes) Sample(emu64.FPR, emu64.FPR, int64, int)      {}
func (o *samplerBytes) BerExp(_ uint64, _ uint, _ uint64, nbytes int, _ bool) {
	o.cur += 10 + int64(nbytes)
	o.trials++
}
func (o *samplerBytes) Attempt(*falcon.Attempt) {
	o.attempts = append(o.attempts, o.cur)
	o.cur = 0
}

// hashToPoint is the permutations and draws of FN-DSA's hash-to-point
// of data (pre-hashed by ph, or raw for fndsa.None) with context ctx and
// the nonce, checked against fndsa.HashToPoint.
func hashToPoint(logn uint, nonce, vkey, ctx []byte, ph fndsa.PreHash, data []byte) (uint64, int64, error) {
	digest := make([]byte, fndsa.HashedKeySize)
	h := sha3.NewSHAKE256()
	h.Write(vkey)
	h.Read(digest)
	oid, err := ph.OID()
	if err != nil {
		return 0, 0, err
	}
	if len(ctx) > 255 {
		return 0, 0, fmt.Errorf("accel: a context of %d bytes", len(ctx))
	}
	// The nonce is absorbed first, then digest || 0 (raw) or 1
	// (pre-hashed) || len(ctx) || ctx || the pre-hash's OID (none for a
	// raw message) || data.
	var pre byte
	if ph != fndsa.None {
		pre = 1
	}
	in := slices.Concat(digest, []byte{pre, byte(len(ctx))}, ctx, oid, data)
	draws, pt := accel.HashToPointDraws(nonce, in, logn)
	want, err := fndsa.HashToPoint(logn, nonce, vkey, ctx, ph, data)
	if err != nil {
		return 0, 0, err
	}
	if !slices.Equal(pt, want) {
		return 0, 0, fmt.Errorf("accel: the FN-DSA hash-to-point model disagrees with fndsa.HashToPoint")
	}
	return accel.ShakePermutations(int64(len(nonce)+len(in)), 2*draws), draws, nil
}

// input is what a counted FN-DSA signature signs, and with which key.
type input struct {
	key       *fndsa.SigningKey
	ctx       []byte
	ph        fndsa.PreHash
	data      []byte
	seed      []byte
	what      string // names the input in errors
	keySource string
}

// CountRecord signs KAT record count's message with FN-DSA at degree
// 2^logn (512 or 1024) with the record's round-3 keys and seed (an empty
// context, no pre-hash), over a counting emu64, verifies the signature,
// and counts as described above.
func CountRecord(logn uint, count int) (*accel.FNDSACounts, error) {
	k, err := accel.CountKATRecord(logn, count)
	if err != nil {
		return nil, err
	}
	rec := &k.Record
	sk, err := falcon.DecodePrivateKey(rec.SK)
	if err != nil {
		return nil, fmt.Errorf("accel: KAT record %d: generated private key: %w", count, err)
	}
	key, err := fndsa.NewSigningKey(sk, false)
	if err != nil {
		return nil, err
	}
	r, err := countSignature(logn, input{key: key, data: rec.Msg, seed: rec.Seed, what: fmt.Sprintf("KAT record %d", count), keySource: "falcon"})
	if err != nil {
		return nil, err
	}
	r.KAT = k
	return r, nil
}

// CountKAT signs go-fn-dsa's KAT record rec (at degree 512 or 1024)
// as its KAT does -- the keys of fndsa.KeyGen of the record's seed, its
// context, message (raw or pre-hashed) and signing seed -- over a
// counting emu64, verifies the signature, and counts as described above.
// The signature is go-fn-dsa's when PinMatch: SHA3-256(sk || vk || sig)
// equals the record's pin (KeysMatch: SHA-256(sk || vk) its key digest).
func CountKAT(rec fndsa.KATRecord) (*accel.FNDSACounts, error) {
	if rec.LogN < fndsa.MinStdLogN || rec.LogN > fndsa.MaxLogN {
		return nil, fmt.Errorf("accel: go-fn-dsa KAT record of degree %d: FN-DSA is counted at 512 and 1024", 1<<rec.LogN)
	}
	kp, err := fndsa.KeyGen(rec.LogN, rec.KeygenSeed())
	if err != nil {
		return nil, err
	}
	key, err := fndsa.DecodeSigningKey(kp.SigningKey, false)
	if err != nil {
		return nil, err
	}
	ph, data := rec.Message()
	r, err := countSignature(rec.LogN, input{key: key, ctx: rec.Context(), ph: ph, data: data, seed: rec.SignSeed(),
		what: fmt.Sprintf("go-fn-dsa KAT record %d of degree %d", rec.J, 1<<rec.LogN), keySource: "fn-dsa"})
	if err != nil {
		return nil, err
	}
	r.KeysMatch, r.PinMatch = rec.Match(kp.SigningKey, kp.VerifyingKey, r.Signature)
	r.FNDSARecord = &accel.OwnKATRecord{J: rec.J, Pin: rec.Pin}
	return r, nil
}

// countSignature signs in over a counting emu64 at degree 2^logn, verifies the
// signature, and counts.
func countSignature(logn uint, in input) (*accel.FNDSACounts, error) {
	key := in.key
	base, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	c := accel.NewCounting[emu64.FPR](emu64.Arith{})
	obs := &samplerBytes{}
	b := falcon.Instantiate(c.Backend(base), c, falcon.Observer[emu64.FPR](obs))
	sig, err := key.SignSeeded(b, in.ctx, in.ph, in.data, in.seed)
	if err != nil {
		return nil, err
	}
	vkey := key.VerifyingKey()
	vk, err := fndsa.DecodeVerifyingKey(vkey, false)
	if err == nil {
		err = vk.Verify(in.ctx, in.ph, in.data, sig)
	}
	if err != nil {
		return nil, fmt.Errorf("accel: %s: the FN-DSA signature does not verify: %w", in.what, err)
	}
	r := &accel.FNDSACounts{KeySource: in.keySource, Signature: sig, Attempts: len(obs.attempts), BerExpTrials: obs.trials, SignCalls: c.Calls()}
	r.Sign = r.SignCalls.FPEMU()

	digest := accel.ShakePermutations(int64(len(vkey)), fndsa.HashedKeySize)
	r.SignKeccak.KeyDigest, r.VerifyKeccak.KeyDigest = digest, digest
	var nonce [fndsa.NonceSize]byte
	for i, nb := range obs.attempts {
		// Attempt i's nonce: the first 40 bytes of SHAKE256(seed || i),
		// which squeezes 96 bytes.
		h := sha3.NewSHAKE256()
		h.Write(in.seed)
		h.Write(binary.LittleEndian.AppendUint32(nil, uint32(i)))
		h.Read(nonce[:])
		r.SignKeccak.Nonces += accel.ShakePermutations(int64(len(in.seed)+4), fndsa.NonceSize+fips206.SeedSize)
		perms, draws, err := hashToPoint(logn, nonce[:], vkey, in.ctx, in.ph, in.data)
		if err != nil {
			return nil, err
		}
		r.SignKeccak.HashToPoint += perms
		r.SignKeccak.HashToPointDraws += draws
		r.SignKeccak.Sampler += accel.ShakePermutations(fips206.SeedSize, nb)
		r.SignKeccak.SamplerBytes += nb
	}
	// The signature carries the last attempt's nonce (bytes 1 to 40).
	if len(sig) < 1+fndsa.NonceSize || !slices.Equal(sig[1:1+fndsa.NonceSize], nonce[:]) {
		return nil, fmt.Errorf("accel: %s: the signature's nonce is not its last attempt's (%d attempts observed)", in.what, r.Attempts)
	}
	perms, draws, err := hashToPoint(logn, nonce[:], vkey, in.ctx, in.ph, in.data)
	if err != nil {
		return nil, err
	}
	r.VerifyKeccak.HashToPoint, r.VerifyKeccak.HashToPointDraws = perms, draws
	r.SignInt = accel.IntCounts{MqMontymul: accel.MqFNDSASign(logn), KeccakF1600: r.SignKeccak.Total()}
	r.VerifyInt = accel.IntCounts{MqMontymul: accel.MqFNDSAVerify(logn), KeccakF1600: r.VerifyKeccak.Total()}
	return r, nil
}
