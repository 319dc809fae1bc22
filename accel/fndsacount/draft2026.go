package fndsacount

import (
	"bytes"
	"crypto/sha3"
	"fmt"
	"slices"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa2026"
)

// CountKAT2026 signs record rec of rust-fn-dsa 0.4.0's own KAT (the July
// 2026 draft; at degree 512 or 1024) as its test_kat does -- the keys of
// fndsa2026.KeyGen of the record's seed, context "domain", the message
// raw or SHA3-256 pre-hashed, the record's 40-byte signing seed -- over a
// counting emu64, verifies the signature, and counts:
//
//   - fpr: the counting emu64's calls, as for the 2025 profile;
//   - keccak_f1600 of signing: mu (the key digest the signing key holds,
//     the context, the pre-hash identifier and the data; squeeze 64), the
//     hedged seed SHAKE256(hsk || mu || rnd) (squeeze 40), and per attempt
//     the stream SHAKE256(seed || counter) whose first 40 bytes are the
//     nonce and the rest the sampler's bytes (10 per Bernoulli trial --
//     a 64-bit and two 8-bit draws for the base sampler, whose lowest bit
//     is the sign -- plus the trial's lazy comparison), and hash-to-point
//     (absorb nonce || mu, squeeze 2 bytes per 16-bit draw);
//   - keccak_f1600 of verifying: the verifying key's digest (the key
//     decoded for the verification), mu and hash-to-point;
//   - mq_montymul: none when signing (the key is decoded once, not per
//     signature; accel.MqFNDSA2026KeyDecode counts that), and
//     accel.MqFNDSA2026Verify when verifying.
//
// PinMatch says that SHA3-256(sk || vk || sig) is the record's pin; the
// pin covers the keys, so KeysMatch is PinMatch.
func CountKAT2026(rec fndsa2026.KATRecord) (*accel.FNDSACounts, error) {
	if rec.LogN < fndsa2026.MinStdLogN || rec.LogN > fndsa2026.MaxLogN {
		return nil, fmt.Errorf("accel: rust-fn-dsa KAT record of degree %d: FN-DSA is counted at 512 and 1024", 1<<rec.LogN)
	}
	in, err := rec.Inputs()
	if err != nil {
		return nil, err
	}
	what := fmt.Sprintf("rust-fn-dsa KAT record %d of degree %d", rec.J, 1<<rec.LogN)
	base, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	c := accel.NewCounting[emu64.FPR](emu64.Arith{})
	obs := &samplerBytes{}
	b := falcon.Instantiate(c.Backend(base), c, falcon.Observer[emu64.FPR](obs))
	sig, err := in.Key.Sign(b, in.Ctx, in.PreHash, in.Data, bytes.NewReader(in.SignSeed))
	if err != nil {
		return nil, err
	}
	vkey := in.Key.VerifyingKey()
	if !fndsa2026.Verify(vkey, in.Ctx, in.PreHash, in.Data, sig) {
		return nil, fmt.Errorf("accel: %s: the signature does not verify", what)
	}
	r := &accel.FNDSACounts{KeySource: "fn-dsa-2026", Signature: sig, Attempts: len(obs.attempts), BerExpTrials: obs.trials, SignCalls: c.Calls()}
	r.Sign = r.SignCalls.FPEMU()
	r.PinMatch = rec.Matches(in.Key, sig)
	r.KeysMatch = r.PinMatch
	r.FNDSARecord = &accel.OwnKATRecord{J: rec.J, Pin: rec.Pin}

	oid, err := in.PreHash.OID()
	if err != nil {
		return nil, err
	}
	muIn := int64(fndsa2026.HashedKeySize + 2 + len(in.Ctx) + len(oid) + len(in.Data))
	muPerms := accel.ShakePermutations(muIn, fndsa2026.MuSize)
	hvk := sha3.SumSHAKE256(vkey, fndsa2026.HashedKeySize)
	mu, err := fndsa2026.Mu((*[fndsa2026.HashedKeySize]byte)(hvk), in.Ctx, in.PreHash, in.Data)
	if err != nil {
		return nil, err
	}
	r.SignKeccak.Mu, r.VerifyKeccak.Mu = muPerms, muPerms
	r.SignKeccak.HedgedSeed = accel.ShakePermutations(int64(fndsa2026.HashedSignKeySize+fndsa2026.MuSize+len(in.SignSeed)), fndsa2026.SignSeedSize)
	// Attempt i reads the stream SHAKE256(hedged seed || i): its nonce,
	// then its sampler's bytes. Its hash-to-point absorbs that nonce and
	// mu; the last attempt's nonce is the signature's.
	hedged := in.Key.HedgedSeed(&mu, in.SignSeed)
	var nonce [fndsa2026.NonceSize]byte
	var perms uint64
	var draws int64
	for i, nb := range obs.attempts {
		h := sha3.NewSHAKE256()
		h.Write(hedged[:])
		h.Write([]byte{byte(i)})
		h.Read(nonce[:])
		r.SignKeccak.Sampler += accel.ShakePermutations(fndsa2026.SignSeedSize+1, fndsa2026.NonceSize+nb)
		r.SignKeccak.SamplerBytes += nb
		var pt []uint16
		draws, pt = accel.HashToPointDrawsLE(nonce[:], mu[:], rec.LogN)
		if !slices.Equal(pt, fndsa2026.HashToPoint(rec.LogN, nonce[:], &mu)) {
			return nil, fmt.Errorf("accel: the 2026 draft's hash-to-point model disagrees with fndsa2026.HashToPoint")
		}
		perms = accel.ShakePermutations(fndsa2026.NonceSize+fndsa2026.MuSize, 2*draws)
		r.SignKeccak.HashToPoint += perms
		r.SignKeccak.HashToPointDraws += draws
	}
	if !bytes.Equal(sig[1:1+fndsa2026.NonceSize], nonce[:]) {
		return nil, fmt.Errorf("accel: %s: the signature's nonce is not its last attempt's (%d attempts observed)", what, r.Attempts)
	}
	r.VerifyKeccak.KeyDigest = accel.ShakePermutations(int64(len(vkey)), fndsa2026.HashedKeySize)
	r.VerifyKeccak.HashToPoint, r.VerifyKeccak.HashToPointDraws = perms, draws
	r.SignInt = accel.IntCounts{KeccakF1600: r.SignKeccak.Total()}
	r.VerifyInt = accel.IntCounts{MqMontymul: accel.MqFNDSA2026Verify(rec.LogN), KeccakF1600: r.VerifyKeccak.Total()}
	return r, nil
}
