package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/scheme"
)

// accel counts and accel cycles of a scheme other than round 3, through
// its accel.Counter (FN-DSA's: the FIPS 206 draft's signing path as
// go-fn-dsa e24833f implements it): the counts of one signature and its
// verification, of a record of the scheme's own KAT with its own keys (the
// default), or, with --key-source falcon, made with the keys of a round-3
// NIST KAT record beside that record's round-3 flow. accel.CountFNDSARecord
// says how each counter is counted.

// countsFNDSAJSON is the --json output of accel counts --scheme fn-dsa
// (of a scheme with an accel.Counter).
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

// counterInput validates the record flags of accel counts for a scheme
// with a counter and counts the chosen input.
func counterInput(sc schemeCounter, opts *accelCountsOptions) (uint, *accel.FNDSACounts, error) {
	ks, err := parseKeySource(opts.KeySource, sc)
	if err != nil {
		return 0, nil, err
	}
	if ks == shadow.KeysFalcon {
		if opts.changed("fn-dsa-record") {
			return 0, nil, fmt.Errorf("--fn-dsa-record chooses a %s KAT record, whose keys are %s's: not with --key-source falcon, which counts the NIST record --kat-record", sc.KATSource(), sc.Description())
		}
		logn, err := opts.degree()
		if err != nil {
			return 0, nil, err
		}
		r, err := sc.CountRound3Keys(logn, opts.Record)
		return logn, r, err
	}
	if opts.changed("kat-record") || opts.changed("record") {
		return 0, nil, fmt.Errorf("--kat-record chooses a NIST KAT record, whose keys are round 3's: add --key-source falcon, or choose a %s KAT record with --fn-dsa-record", sc.KATSource())
	}
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return 0, nil, err
	}
	if j, n := opts.FNDSARecord, sc.KATRecordsPerDegree(); j < 0 || j >= n {
		return 0, nil, fmt.Errorf("--fn-dsa-record %d: want a record of %s's KAT, 0 to %d", j, sc.KATSource(), n-1)
	}
	r, err := sc.CountKAT(logn, opts.FNDSARecord)
	return logn, r, err
}

// schemeCounter is a scheme with its counts.
type schemeCounter interface {
	scheme.Scheme
	accel.Counter
}

func isCounter(sc scheme.Scheme) bool {
	_, ok := sc.(accel.Counter)
	return ok
}

func runAccelCountsScheme(sc schemeCounter, opts *accelCountsOptions, s *streams) error {
	logn, r, err := counterInput(sc, opts)
	if err != nil {
		return err
	}
	h := sha256.Sum256(r.Signature)
	res := countsFNDSAJSON{Scheme: sc.Name(), Params: 1 << logn, KeySource: r.KeySource, Backend: "emu64",
		Sign:       countsPhaseJSON{Counts: r.Sign, IntCounts: r.SignInt},
		Verify:     countsPhaseJSON{IntCounts: r.VerifyInt},
		SignKeccak: r.SignKeccak, VerifyKeccak: r.VerifyKeccak, Attempts: r.Attempts, BerExpTrials: r.BerExpTrials,
		SignatureSHA256: hex.EncodeToString(h[:])}
	k := r.KAT
	if k != nil {
		res.Record = &opts.Record
		res.Keygen = &countsPhaseJSON{Counts: k.Keypair, IntCounts: k.KeypairInt}
		res.Notes = sc.CountsNotes(true)
	} else {
		res.FNDSARecord = &r.FNDSARecord.J
		res.KATPin = hex.EncodeToString(r.FNDSARecord.Pin[:])
		res.Notes = sc.CountsNotes(false)
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
		fmt.Fprintf(w, "%s signing with the keys of Falcon-%d NIST KAT record %d, over emu64 (signature SHA-256 %s, verified)\n\n", sc.Title(logn), res.Params, opts.Record, res.SignatureSHA256)
		fmt.Fprintf(w, "%-14s %12s %12s %12s %12s %12s\n", "COUNTER", "KEYGEN (r3)", "SIGN "+sc.Description(), "VERIFY", "SIGN r3 KAT", "VERIFY r3")
		for i, name := range accel.CounterNames {
			fmt.Fprintf(w, "%-14s %12d %12d %12d %12d %12d\n", name, res.Keygen.Counts.Values()[i], res.Sign.Counts.Values()[i], 0, k.Sign.Values()[i], k.Open.Values()[i])
		}
		for _, row := range ints {
			fmt.Fprintf(w, "%-14s %12d %12d %12d %12d %12d\n", row.name, row.v(k.KeypairInt), row.v(r.SignInt), row.v(r.VerifyInt), row.v(k.SignInt), row.v(k.OpenInt))
		}
	} else {
		fmt.Fprintf(w, "%s signing %s KAT record %d of degree %d with its %s keys, over emu64 (signature SHA-256 %s, verified;\nSHA3-256(sk || vk || sig) = %s, the record's pin)\n\n", sc.Title(logn), sc.KATSource(), r.FNDSARecord.J, res.Params, sc.Description(), res.SignatureSHA256, res.KATPin)
		fmt.Fprintf(w, "%-14s %12s %12s\n", "COUNTER", "SIGN "+sc.Description(), "VERIFY")
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
