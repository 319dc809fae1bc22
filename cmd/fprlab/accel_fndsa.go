package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
)

// accel counts --scheme fn-dsa: the counts of an FN-DSA signature (the
// FIPS 206 draft's signing path as go-fn-dsa e24833f implements it: LDL of
// a real diagonal, 1/sigma from its table, ApproxExp in integers with two
// floating-point truncations; SHAKE256 for hashing and the sampler's PRNG)
// and of its verification: of a record of go-fn-dsa's own KAT with its
// FN-DSA keys (the default), or, with --key-source falcon, made with the
// keys of a round-3 NIST KAT record beside that record's round-3 flow.
// accel.CountFNDSARecord says how each counter is counted.

// countsFNDSAJSON is the --json output of accel counts --scheme fn-dsa.
type countsFNDSAJSON struct {
	Scheme string `json:"scheme"`
	Params int    `json:"params"`
	// KeySource is "fn-dsa" (a go-fn-dsa KAT record's keys, FNDSARecord)
	// or "falcon" (a NIST KAT record's round-3 keys, Record).
	KeySource   string `json:"key_source"`
	Record      *int   `json:"record,omitempty"`
	FNDSARecord *int   `json:"fn_dsa_record,omitempty"`
	Backend     string `json:"backend"`
	// Keygen is the round-3 key generation of the NIST record (the keys
	// the FN-DSA signature is made with), as accel counts reports it;
	// absent for FN-DSA keys (integer key generation, not counted).
	Keygen *countsPhaseJSON `json:"keygen,omitempty"`
	// Sign is the counters of the FN-DSA signature, all its attempts;
	// Verify those of its verification (integer only).
	Sign   countsPhaseJSON `json:"sign"`
	Verify countsPhaseJSON `json:"verify"`
	// SignKeccak and VerifyKeccak are the keccak_f1600 counts by origin.
	SignKeccak   accel.FNDSAKeccak `json:"sign_keccak"`
	VerifyKeccak accel.FNDSAKeccak `json:"verify_keccak"`
	Attempts     int               `json:"sign_attempts"`
	BerExpTrials int64             `json:"berexp_trials"`
	// SignatureSHA256 identifies the signature counted (it verifies);
	// KATPin is the go-fn-dsa record's SHA3-256(sk || vk || sig), which
	// the signature matches (FN-DSA keys only).
	SignatureSHA256 string   `json:"signature_sha256"`
	KATPin          string   `json:"kat_pin,omitempty"`
	Notes           []string `json:"notes"`
}

// The notes of accel counts --scheme fn-dsa: those of each key source's
// input, then those of the counters.
var (
	accelCountsFNDSAKeyNotes = []string{
		"keys: fndsa.KeyGen of the go-fn-dsa KAT record's seed SHAKE256(0x00 || logn || j as 32-bit little-endian)[:32], go-fn-dsa's keys (SHA-256(sk || vk) checked against the record); integer key generation, not counted",
		"sign: fndsa SignSeeded over emu64 as go-fn-dsa's TestFNDSA_KAT signs: the record's 6-byte signing seed 0x01 || logn || j, context \"domain\", the message \"message\" raw (even j) or its SHA3-256 digest pre-hashed (odd j); the signature is verified and SHA3-256(sk || vk || sig) equals the record's pin",
	}
	accelCountsFNDSARound3Notes = []string{
		"keys: crypto_sign_keypair of the NIST KAT record over emu64 (round 3; FN-DSA keys use the same encodings); keygen counters as accel counts",
		"sign: fndsa SignSeeded over emu64 with the record's 48-byte seed as the signing seed, an empty context and no pre-hash, of the record's message; the signature is verified",
	}
	accelCountsFNDSANotes = []string{
		"fpr counters under the FPEMU model of accel counts; FN-DSA's ApproxExp is integer Horner evaluation, so its fpr share is one scaled, two mul, two trunc and an lt per call, no expm_p63",
		"mq_montymul: go-fn-dsa's mq_mmul from its call structure: sign decodes the signing key before every signature (h = g/f and G = h F: 3 NTT + 2 iNTT + 22 n), verify 2 NTT + iNTT + 2 n; one product per butterfly, 20 per division, 2 per pointwise product",
		"keccak_f1600: from the bytes each SHAKE256 absorbs and squeezes (rate 136): the verifying key's digest, per attempt the nonce stream SHAKE256(seed || counter), hash-to-point and the sampler's SHAKE256 PRNG (136-byte blocks of the bytes it read); verify: the digest and hash-to-point",
		"modp_montymul: none in FN-DSA signing (NTRUSolve is key generation only)",
		"the accel models are round 3's: accel cycles (its baselines are measured round-3 cycles), accel latency and accel fpru take round-3 counts only; an FN-DSA verify path on the same units would price these counts with 2 n pointwise products instead of 3 n",
	}
)

// fndsaKATRecordsPerDegree is the number of go-fn-dsa KAT records of each
// degree (j = 0 to 9).
const fndsaKATRecordsPerDegree = 10

// fndsaKATRecord returns record j of go-fn-dsa's KAT at degree 2^logn.
func fndsaKATRecord(logn uint, j int) (fndsa.KATRecord, error) {
	r, ok, err := fndsa.KATRecordOf(logn, j)
	if ok || err != nil {
		return r, err
	}
	return fndsa.KATRecord{}, fmt.Errorf("--fn-dsa-record %d: want a record of go-fn-dsa's KAT, 0 to %d", j, fndsaKATRecordsPerDegree-1)
}

// countFNDSAKAT counts go-fn-dsa KAT record j of degree 2^logn with its
// FN-DSA keys, refusing a count whose keys or signature are not the
// record's (the numbers would describe another computation).
func countFNDSAKAT(logn uint, j int) (*accel.FNDSACounts, error) {
	rec, err := fndsaKATRecord(logn, j)
	if err != nil {
		return nil, err
	}
	r, err := accel.CountFNDSAKAT(rec)
	if err != nil {
		return nil, err
	}
	if !r.KeysMatch || !r.PinMatch {
		return nil, fmt.Errorf("go-fn-dsa KAT record %d of degree %d: keys match %v, signature matches the pin %v", j, 1<<logn, r.KeysMatch, r.PinMatch)
	}
	return r, nil
}

// fndsaCountsInput validates the record flags of accel counts --scheme
// fn-dsa and counts the chosen input.
func fndsaCountsInput(opts *accelCountsOptions) (uint, *accel.FNDSACounts, error) {
	ks, err := parseKeySource(opts.KeySource, fndsa2025.Scheme)
	if err != nil {
		return 0, nil, err
	}
	if ks == shadow.KeysFalcon {
		if opts.changed("fn-dsa-record") {
			return 0, nil, errors.New("--fn-dsa-record chooses a go-fn-dsa KAT record, whose keys are FN-DSA's: not with --key-source falcon, which counts the NIST record --kat-record")
		}
		logn, err := opts.degree()
		if err != nil {
			return 0, nil, err
		}
		r, err := accel.CountFNDSARecord(logn, opts.Record)
		if err != nil {
			return 0, nil, err
		}
		if err := accel.CheckPublished(logn, &r.KAT.Record); err != nil {
			return 0, nil, err
		}
		return logn, r, nil
	}
	if opts.changed("kat-record") || opts.changed("record") {
		return 0, nil, errors.New("--kat-record chooses a NIST KAT record, whose keys are round 3's: add --key-source falcon, or choose a go-fn-dsa KAT record with --fn-dsa-record")
	}
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return 0, nil, err
	}
	if j := opts.FNDSARecord; j < 0 || j >= fndsaKATRecordsPerDegree {
		return 0, nil, fmt.Errorf("--fn-dsa-record %d: want a record of go-fn-dsa's KAT, 0 to %d", j, fndsaKATRecordsPerDegree-1)
	}
	r, err := countFNDSAKAT(logn, opts.FNDSARecord)
	return logn, r, err
}

func runAccelCountsFNDSA(opts *accelCountsOptions, s *streams) error {
	logn, r, err := fndsaCountsInput(opts)
	if err != nil {
		return err
	}
	h := sha256.Sum256(r.Signature)
	res := countsFNDSAJSON{Scheme: "fn-dsa", Params: 1 << logn, KeySource: r.KeySource, Backend: "emu64",
		Sign:       countsPhaseJSON{Counts: r.Sign, IntCounts: r.SignInt},
		Verify:     countsPhaseJSON{IntCounts: r.VerifyInt},
		SignKeccak: r.SignKeccak, VerifyKeccak: r.VerifyKeccak, Attempts: r.Attempts, BerExpTrials: r.BerExpTrials,
		SignatureSHA256: hex.EncodeToString(h[:])}
	k := r.KAT
	if k != nil {
		res.Record = &opts.Record
		res.Keygen = &countsPhaseJSON{Counts: k.Keypair, IntCounts: k.KeypairInt}
		res.Notes = append(slices.Clone(accelCountsFNDSARound3Notes), accelCountsFNDSANotes...)
	} else {
		res.FNDSARecord = &r.FNDSARecord.J
		res.KATPin = hex.EncodeToString(r.FNDSARecord.Pin[:])
		res.Notes = append(slices.Clone(accelCountsFNDSAKeyNotes), accelCountsFNDSANotes...)
	}
	if opts.JSON {
		return printJSON(s.Out, res)
	}
	w := s.Out
	ints := []struct {
		name string
		v    func(accel.IntCounts) uint64
	}{
		{"modp_montymul", func(c accel.IntCounts) uint64 { return c.ModpMontymul }},
		{"mq_montymul", func(c accel.IntCounts) uint64 { return c.MqMontymul }},
		{"keccak_f1600", func(c accel.IntCounts) uint64 { return c.KeccakF1600 }},
	}
	if k != nil {
		fmt.Fprintf(w, "FN-DSA-%d signing with the keys of Falcon-%d NIST KAT record %d, over emu64 (signature SHA-256 %s, verified)\n\n", res.Params, res.Params, opts.Record, res.SignatureSHA256)
		fmt.Fprintf(w, "%-14s %12s %12s %12s %12s %12s\n", "COUNTER", "KEYGEN (r3)", "SIGN FN-DSA", "VERIFY", "SIGN r3 KAT", "VERIFY r3")
		for i, name := range accel.CounterNames {
			fmt.Fprintf(w, "%-14s %12d %12d %12d %12d %12d\n", name, res.Keygen.Counts.Values()[i], res.Sign.Counts.Values()[i], 0, k.Sign.Values()[i], k.Open.Values()[i])
		}
		for _, row := range ints {
			fmt.Fprintf(w, "%-14s %12d %12d %12d %12d %12d\n", row.name, row.v(k.KeypairInt), row.v(r.SignInt), row.v(r.VerifyInt), row.v(k.SignInt), row.v(k.OpenInt))
		}
	} else {
		fmt.Fprintf(w, "FN-DSA-%d signing go-fn-dsa KAT record %d of degree %d with its FN-DSA keys, over emu64 (signature SHA-256 %s, verified;\nSHA3-256(sk || vk || sig) = %s, the record's pin)\n\n", res.Params, r.FNDSARecord.J, res.Params, res.SignatureSHA256, res.KATPin)
		fmt.Fprintf(w, "%-14s %12s %12s\n", "COUNTER", "SIGN FN-DSA", "VERIFY")
		for i, name := range accel.CounterNames {
			fmt.Fprintf(w, "%-14s %12d %12d\n", name, res.Sign.Counts.Values()[i], 0)
		}
		for _, row := range ints {
			fmt.Fprintf(w, "%-14s %12d %12d\n", row.name, row.v(r.SignInt), row.v(r.VerifyInt))
		}
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
