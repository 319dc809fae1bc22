package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/fprlab/fprlab/accel"
)

// accel counts --scheme fn-dsa: the counts of an FN-DSA signature (the
// FIPS 206 draft's signing path as go-fn-dsa e24833f implements it: LDL of
// a real diagonal, 1/sigma from its table, ApproxExp in integers with two
// floating-point truncations; SHAKE256 for hashing and the sampler's PRNG)
// made with the keys of a round-3 NIST KAT record, beside that record's
// round-3 key generation, and of its verification. FN-DSA has no NIST KAT
// records; accel.CountFNDSARecord says how each counter is counted.

// countsFNDSAJSON is the --json output of accel counts --scheme fn-dsa.
type countsFNDSAJSON struct {
	Scheme  string `json:"scheme"`
	Params  int    `json:"params"`
	Record  int    `json:"record"`
	Backend string `json:"backend"`
	// Keygen is the round-3 key generation of the record (the keys the
	// FN-DSA signature is made with), as accel counts reports it.
	Keygen countsPhaseJSON `json:"keygen"`
	// Sign is the counters of the FN-DSA signature, all its attempts;
	// Verify those of its verification (integer only).
	Sign   countsPhaseJSON `json:"sign"`
	Verify countsPhaseJSON `json:"verify"`
	// SignKeccak and VerifyKeccak are the keccak_f1600 counts by origin.
	SignKeccak   accel.FNDSAKeccak `json:"sign_keccak"`
	VerifyKeccak accel.FNDSAKeccak `json:"verify_keccak"`
	Attempts     int               `json:"sign_attempts"`
	BerExpTrials int64             `json:"berexp_trials"`
	// SignatureSHA256 identifies the signature counted (it verifies).
	SignatureSHA256 string   `json:"signature_sha256"`
	Notes           []string `json:"notes"`
}

var accelCountsFNDSANotes = []string{
	"keys: crypto_sign_keypair of the NIST KAT record over emu64 (round 3; FN-DSA keys use the same encodings); keygen counters as accel counts",
	"sign: fndsa SignSeeded over emu64 with the record's 48-byte seed as the signing seed, an empty context and no pre-hash, of the record's message; the signature is verified",
	"fpr counters under the FPEMU model of accel counts; FN-DSA's ApproxExp is integer Horner evaluation, so its fpr share is one scaled, two mul, two trunc and an lt per call, no expm_p63",
	"mq_montymul: go-fn-dsa's mq_mmul from its call structure: sign decodes the signing key before every signature (h = g/f and G = h F: 3 NTT + 2 iNTT + 22 n), verify 2 NTT + iNTT + 2 n; one product per butterfly, 20 per division, 2 per pointwise product",
	"keccak_f1600: from the bytes each SHAKE256 absorbs and squeezes (rate 136): the verifying key's digest, per attempt the nonce stream SHAKE256(seed || counter), hash-to-point and the sampler's SHAKE256 PRNG (136-byte blocks of the bytes it read); verify: the digest and hash-to-point",
	"modp_montymul: none in FN-DSA signing (NTRUSolve is key generation only)",
	"the accel models are round 3's: accel cycles (its baselines are measured round-3 cycles), accel latency and accel fpru take round-3 counts only; an FN-DSA verify path on the same units would price these counts with 2 n pointwise products instead of 3 n",
}

func runAccelCountsFNDSA(opts *accelRecordFlags, s *streams) error {
	logn, err := opts.degree()
	if err != nil {
		return err
	}
	r, err := accel.CountFNDSARecord(logn, opts.Record)
	if err != nil {
		return err
	}
	k := r.KAT
	if err := checkPublished(logn, &k.Record); err != nil {
		return err
	}
	h := sha256.Sum256(r.Signature)
	res := countsFNDSAJSON{Scheme: "fn-dsa", Params: 1 << logn, Record: opts.Record, Backend: "emu64",
		Keygen:     countsPhaseJSON{Counts: k.Keypair, IntCounts: k.KeypairInt},
		Sign:       countsPhaseJSON{Counts: r.Sign, IntCounts: r.SignInt},
		Verify:     countsPhaseJSON{IntCounts: r.VerifyInt},
		SignKeccak: r.SignKeccak, VerifyKeccak: r.VerifyKeccak, Attempts: r.Attempts, BerExpTrials: r.BerExpTrials,
		SignatureSHA256: hex.EncodeToString(h[:]), Notes: accelCountsFNDSANotes}
	if opts.JSON {
		return printJSON(s.Out, res)
	}
	w := s.Out
	fmt.Fprintf(w, "FN-DSA-%d signing with the keys of Falcon-%d NIST KAT record %d, over emu64 (signature SHA-256 %s, verified)\n\n", res.Params, res.Params, res.Record, res.SignatureSHA256)
	fmt.Fprintf(w, "%-14s %12s %12s %12s %12s %12s\n", "COUNTER", "KEYGEN (r3)", "SIGN FN-DSA", "VERIFY", "SIGN r3 KAT", "VERIFY r3")
	for i, name := range accel.CounterNames {
		fmt.Fprintf(w, "%-14s %12d %12d %12d %12d %12d\n", name, res.Keygen.Counts.Values()[i], res.Sign.Counts.Values()[i], 0, k.Sign.Values()[i], k.Open.Values()[i])
	}
	for _, row := range []struct {
		name string
		v    func(accel.IntCounts) uint64
	}{
		{"modp_montymul", func(c accel.IntCounts) uint64 { return c.ModpMontymul }},
		{"mq_montymul", func(c accel.IntCounts) uint64 { return c.MqMontymul }},
		{"keccak_f1600", func(c accel.IntCounts) uint64 { return c.KeccakF1600 }},
	} {
		fmt.Fprintf(w, "%-14s %12d %12d %12d %12d %12d\n", row.name, row.v(k.KeypairInt), row.v(r.SignInt), row.v(r.VerifyInt), row.v(k.SignInt), row.v(k.OpenInt))
	}
	sk, vk := r.SignKeccak, r.VerifyKeccak
	fmt.Fprintf(w, "\nkeccak_f1600 of signing: key digest %d, nonce streams %d, hash-to-point %d (%d draws), sampler PRNG %d (%d bytes); verify: %d + %d\n",
		sk.KeyDigest, sk.Nonces, sk.HashToPoint, sk.HashToPointDraws, sk.Sampler, sk.SamplerBytes, vk.KeyDigest, vk.HashToPoint)
	fmt.Fprintf(w, "signing attempts: %d; Bernoulli trials: %d\n\n", res.Attempts, res.BerExpTrials)
	for _, n := range res.Notes {
		fmt.Fprintln(w, "*", n)
	}
	return nil
}
