package accel

import (
	"crypto/sha3"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/internal/fips206"
)

// FN-DSA's counts (the FIPS 206 draft as pornin's go-fn-dsa e24833f
// implements it; FIPS 206 is not final) for one signature: of a record of
// go-fn-dsa's own KAT, with its FN-DSA keys (fndsa.KeyGen), or made with
// the keys of a round-3 NIST KAT record (the two schemes share the key
// encodings), as these counts were before FN-DSA key generation existed.
//
// The fpr counters are counted over emu64 as round 3's are. The integer
// counters are counted structurally, as round 3's are (intcounts.go), from
// go-fn-dsa's call structure (sign.go, sign_core.go, vrfy.go, mq.go, the
// SHAKE256 PRNG of util.go) and the byte counts of the run:
//
// mq_montymul (go-fn-dsa's mq_mmul, a Montgomery product modulo q). Its
// NTT makes one product per butterfly, (n/2) logn, and so does its inverse
// (which halves at each level instead of scaling by 1/n at the end); a
// division is 20 products (y into Montgomery form, an addition chain of 18
// products for y^(q-2), the product by x); a pointwise product 2 (the
// product and the correction by R^2). Per phase:
//
//	sign:   the signing key is decoded before every signature, recomputing
//	        h = g/f and G = h F: NTT of g, f and F, n divisions, n
//	        pointwise products, inverse NTT of G and of h:
//	        3 NTT + 2 iNTT + 22 n (22,784 at n = 512)
//	verify: NTT of h and of s2, n pointwise products, inverse NTT:
//	        2 NTT + iNTT + 2 n (7,936 at n = 512)
//
// keccak_f1600 (SHAKE256, rate 136 bytes: one permutation per full block
// absorbed and one per 136 bytes squeezed, the first squeeze included):
//
//	sign:   the verifying key's digest (absorb the encoded key, 897 or
//	        1793 bytes, squeeze 64); per attempt the nonce stream
//	        SHAKE256(seed || counter) (squeeze 40 + 56 bytes),
//	        hash-to-point (absorb the 40-byte nonce, the 64-byte digest, 2
//	        bytes, the context, the pre-hash OID and the data; squeeze 2
//	        bytes per 16-bit draw until n draws below 5q), and the
//	        sampler's PRNG, SHAKE256 of the 56-byte seed read in 136-byte
//	        blocks: ceil(B/136) for the B bytes the attempt's sampler reads
//	        (10 per Bernoulli trial -- 9 for the base sampler, 1 for the
//	        sign bit -- plus the bytes of the trial's lazy comparison)
//	verify: the key's digest and hash-to-point with the signature's nonce

// FNDSAKeccak is the keccak_f1600 count of an FN-DSA signature by origin.
type FNDSAKeccak struct {
	KeyDigest   uint64 `json:"key_digest"`
	Nonces      uint64 `json:"nonce_streams"`
	HashToPoint uint64 `json:"hash_to_point"`
	Sampler     uint64 `json:"sampler_prng"`
	// HashToPointDraws and SamplerBytes are the 16-bit draws of every
	// hash-to-point and the bytes the samplers read, over all attempts.
	HashToPointDraws int64 `json:"hash_to_point_draws"`
	SamplerBytes     int64 `json:"sampler_bytes"`
}

// Total is the sum of the permutations.
func (k FNDSAKeccak) Total() uint64 { return k.KeyDigest + k.Nonces + k.HashToPoint + k.Sampler }

// FNDSACounts are the counts of one FN-DSA signature (and its
// verification): made with the keys of a round-3 KAT record
// (CountFNDSARecord), or a record of go-fn-dsa's own KAT with its FN-DSA
// keys (CountFNDSAKAT).
type FNDSACounts struct {
	// KeySource is "falcon" for a round-3 record's keys, "fn-dsa" for
	// a go-fn-dsa record's.
	KeySource string
	// KAT is the round-3 record's flow, whose keys sign (round-3 keys
	// only).
	KAT *KATCounts
	// FNDSARecord is the go-fn-dsa KAT record signed (FN-DSA keys only);
	// KeysMatch says that its keys are go-fn-dsa's (SHA-256(sk || vk)),
	// PinMatch that the signature is too (SHA3-256(sk || vk || sig)).
	FNDSARecord         *fndsa.KATRecord
	KeysMatch, PinMatch bool
	// Signature is the FN-DSA signature counted (it verifies), made by
	// fndsa SignSeeded: with a round-3 record's seed, message, an empty
	// context and no pre-hash, or with a go-fn-dsa record's signing seed,
	// context and (raw or pre-hashed) message.
	Signature []byte
	Attempts  int
	// BerExpTrials is the number of Bernoulli trials of all attempts.
	BerExpTrials int64
	SignCalls    Calls
	Sign         Counts
	// SignInt and VerifyInt are the integer counters of signing and
	// verifying (verification has no fpr operation); SignKeccak is
	// signing's keccak_f1600 by origin, VerifyKeccak verification's.
	SignInt, VerifyInt       IntCounts
	SignKeccak, VerifyKeccak FNDSAKeccak
}

// MqFNDSASign and MqFNDSAVerify are go-fn-dsa's mq_mmul counts of signing
// (decoding the signing key) and verifying at degree 2^logn.
func MqFNDSASign(logn uint) uint64 {
	return 3*mqNTTProducts(logn) + 2*mqNTTProducts(logn) + (mqDivProducts+2)*uint64(1)<<logn
}

func MqFNDSAVerify(logn uint) uint64 { return 3*mqNTTProducts(logn) + 2<<logn }

// fndsaSamplerBytes is a falcon.Observer over emu64 that adds up the bytes
// each attempt's sampler reads from its PRNG: every Bernoulli trial
// follows a base-sampler draw (8 + 1 bytes) and a sign bit (1 byte), and
// reads nbytes itself.
type fndsaSamplerBytes struct {
	cur      int64
	attempts []int64
	trials   int64
}

func (o *fndsaSamplerBytes) Stage(falcon.Stage, int, int, ...[]emu64.FPR) {}
func (o *fndsaSamplerBytes) Sample(emu64.FPR, emu64.FPR, int64, int)      {}
func (o *fndsaSamplerBytes) BerExp(_ uint64, _ uint, _ uint64, nbytes int, _ bool) {
	o.cur += 10 + int64(nbytes)
	o.trials++
}
func (o *fndsaSamplerBytes) Attempt(*falcon.Attempt) {
	o.attempts = append(o.attempts, o.cur)
	o.cur = 0
}

// fndsaHashToPoint is the permutations and draws of FN-DSA's hash-to-point
// of data (pre-hashed by ph, or raw for fndsa.None) with context ctx and
// the nonce, checked against fndsa.HashToPoint.
func fndsaHashToPoint(logn uint, nonce, vkey, ctx []byte, ph fndsa.PreHash, data []byte) (uint64, int64, error) {
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
	draws, pt := hashToPointDraws(nonce, in, logn)
	want, err := fndsa.HashToPoint(logn, nonce, vkey, ctx, ph, data)
	if err != nil {
		return 0, 0, err
	}
	if !slices.Equal(pt, want) {
		return 0, 0, fmt.Errorf("accel: the FN-DSA hash-to-point model disagrees with fndsa.HashToPoint")
	}
	return shakePermutations(int64(len(nonce)+len(in)), 2*draws), draws, nil
}

// fndsaInput is what a counted FN-DSA signature signs, and with which key.
type fndsaInput struct {
	key       *fndsa.SigningKey
	ctx       []byte
	ph        fndsa.PreHash
	data      []byte
	seed      []byte
	what      string // names the input in errors
	keySource string
}

// CountFNDSARecord signs KAT record count's message with FN-DSA at degree
// 2^logn (512 or 1024) with the record's round-3 keys and seed (an empty
// context, no pre-hash), over a counting emu64, verifies the signature,
// and counts as described above.
func CountFNDSARecord(logn uint, count int) (*FNDSACounts, error) {
	k, err := CountKATRecord(logn, count)
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
	r, err := countFNDSA(logn, fndsaInput{key: key, data: rec.Msg, seed: rec.Seed, what: fmt.Sprintf("KAT record %d", count), keySource: "falcon"})
	if err != nil {
		return nil, err
	}
	r.KAT = k
	return r, nil
}

// CountFNDSAKAT signs go-fn-dsa's KAT record rec (at degree 512 or 1024)
// as its KAT does -- the keys of fndsa.KeyGen of the record's seed, its
// context, message (raw or pre-hashed) and signing seed -- over a
// counting emu64, verifies the signature, and counts as described above.
// The signature is go-fn-dsa's when PinMatch: SHA3-256(sk || vk || sig)
// equals the record's pin (KeysMatch: SHA-256(sk || vk) its key digest).
func CountFNDSAKAT(rec fndsa.KATRecord) (*FNDSACounts, error) {
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
	r, err := countFNDSA(rec.LogN, fndsaInput{key: key, ctx: rec.Context(), ph: ph, data: data, seed: rec.SignSeed(),
		what: fmt.Sprintf("go-fn-dsa KAT record %d of degree %d", rec.J, 1<<rec.LogN), keySource: "fn-dsa"})
	if err != nil {
		return nil, err
	}
	r.KeysMatch, r.PinMatch = rec.Match(kp.SigningKey, kp.VerifyingKey, r.Signature)
	r.FNDSARecord = &rec
	return r, nil
}

// countFNDSA signs in over a counting emu64 at degree 2^logn, verifies the
// signature, and counts.
func countFNDSA(logn uint, in fndsaInput) (*FNDSACounts, error) {
	key := in.key
	base, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	c := NewCounting[emu64.FPR](emu64.Arith{})
	obs := &fndsaSamplerBytes{}
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
	r := &FNDSACounts{KeySource: in.keySource, Signature: sig, Attempts: len(obs.attempts), BerExpTrials: obs.trials, SignCalls: c.Calls()}
	r.Sign = r.SignCalls.FPEMU()

	digest := shakePermutations(int64(len(vkey)), fndsa.HashedKeySize)
	r.SignKeccak.KeyDigest, r.VerifyKeccak.KeyDigest = digest, digest
	var nonce [fndsa.NonceSize]byte
	for i, nb := range obs.attempts {
		// Attempt i's nonce: the first 40 bytes of SHAKE256(seed || i),
		// which squeezes 96 bytes.
		h := sha3.NewSHAKE256()
		h.Write(in.seed)
		h.Write(binary.LittleEndian.AppendUint32(nil, uint32(i)))
		h.Read(nonce[:])
		r.SignKeccak.Nonces += shakePermutations(int64(len(in.seed)+4), fndsa.NonceSize+fips206.SeedSize)
		perms, draws, err := fndsaHashToPoint(logn, nonce[:], vkey, in.ctx, in.ph, in.data)
		if err != nil {
			return nil, err
		}
		r.SignKeccak.HashToPoint += perms
		r.SignKeccak.HashToPointDraws += draws
		r.SignKeccak.Sampler += shakePermutations(fips206.SeedSize, nb)
		r.SignKeccak.SamplerBytes += nb
	}
	// The signature carries the last attempt's nonce (bytes 1 to 40).
	if len(sig) < 1+fndsa.NonceSize || !slices.Equal(sig[1:1+fndsa.NonceSize], nonce[:]) {
		return nil, fmt.Errorf("accel: %s: the signature's nonce is not its last attempt's (%d attempts observed)", in.what, r.Attempts)
	}
	perms, draws, err := fndsaHashToPoint(logn, nonce[:], vkey, in.ctx, in.ph, in.data)
	if err != nil {
		return nil, err
	}
	r.VerifyKeccak.HashToPoint, r.VerifyKeccak.HashToPointDraws = perms, draws
	r.SignInt = IntCounts{MqMontymul: MqFNDSASign(logn), KeccakF1600: r.SignKeccak.Total()}
	r.VerifyInt = IntCounts{MqMontymul: MqFNDSAVerify(logn), KeccakF1600: r.VerifyKeccak.Total()}
	return r, nil
}
