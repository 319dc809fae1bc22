package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
)

// accel counts --scheme fn-dsa: the fpr operations of an FN-DSA signature
// (the FIPS 206 draft's signing path: LDL of a real diagonal, 1/sigma from
// its table, ApproxExp in integers with two floating-point truncations)
// made with the keys of a round-3 NIST KAT record, beside that record's
// round-3 key generation. FN-DSA has no NIST KAT records, and its integer
// counters (mq_montymul, Keccak-f[1600] of its hashing of the verifying
// key, context and nonce stream) are not modelled: only the fpr counters
// of signing are given.

// countsFNDSAJSON is the --json output of accel counts --scheme fn-dsa.
type countsFNDSAJSON struct {
	Scheme  string `json:"scheme"`
	Params  int    `json:"params"`
	Record  int    `json:"record"`
	Backend string `json:"backend"`
	// Keygen is the round-3 key generation of the record (the keys the
	// FN-DSA signature is made with), as accel counts reports it.
	Keygen countsPhaseJSON `json:"keygen"`
	// Sign is the fpr counters of the FN-DSA signature, all its attempts.
	Sign accel.Counts `json:"sign"`
	// SignatureSHA256 identifies the signature counted (it verifies).
	SignatureSHA256 string   `json:"signature_sha256"`
	Notes           []string `json:"notes"`
}

var accelCountsFNDSANotes = []string{
	"keys: crypto_sign_keypair of the NIST KAT record over emu64 (round 3; FN-DSA keys use the same encodings); keygen counters as accel counts",
	"sign: fndsa SignSeeded over emu64 with the record's 48-byte seed as the signing seed, an empty context and no pre-hash, of the record's message; the signature is verified",
	"fpr counters under the FPEMU model of accel counts; FN-DSA's ApproxExp is integer Horner evaluation, so its fpr share is one scaled, two mul, two trunc and an lt per call, no expm_p63",
	"integer counters (mq_montymul, keccak_f1600) of FN-DSA signing are not modelled",
}

// fndsaSignCounts signs the record's message with FN-DSA over a counting
// emu64 and returns the calls made and the signature.
func fndsaSignCounts(rec *falcon.KATRecord) (accel.Calls, []byte, error) {
	sk, err := falcon.DecodePrivateKey(rec.SK)
	if err != nil {
		return accel.Calls{}, nil, fmt.Errorf("record %d: generated private key: %w", rec.Count, err)
	}
	k, err := fndsa.NewSigningKey(sk, false)
	if err != nil {
		return accel.Calls{}, nil, err
	}
	base, err := arith.Lookup("emu64")
	if err != nil {
		return accel.Calls{}, nil, err
	}
	c := accel.NewCounting[emu64.FPR](emu64.Arith{})
	sig, err := k.SignSeeded(c.Backend(base), nil, fndsa.None, rec.Msg, rec.Seed)
	if err != nil {
		return accel.Calls{}, nil, err
	}
	vk, err := fndsa.DecodeVerifyingKey(k.VerifyingKey(), false)
	if err == nil {
		err = vk.Verify(nil, fndsa.None, rec.Msg, sig)
	}
	if err != nil {
		return accel.Calls{}, nil, fmt.Errorf("record %d: the FN-DSA signature does not verify: %w", rec.Count, err)
	}
	return c.Calls(), sig, nil
}

func runAccelCountsFNDSA(opts *accelRecordFlags, s *streams) error {
	logn, k, err := countRecord(opts)
	if err != nil {
		return err
	}
	calls, sig, err := fndsaSignCounts(&k.Record)
	if err != nil {
		return err
	}
	h := sha256.Sum256(sig)
	res := countsFNDSAJSON{Scheme: "fn-dsa", Params: 1 << logn, Record: opts.Record, Backend: "emu64",
		Keygen: countsPhaseJSON{Counts: k.Keypair, IntCounts: k.KeypairInt},
		Sign:   calls.FPEMU(), SignatureSHA256: hex.EncodeToString(h[:]), Notes: accelCountsFNDSANotes}
	if opts.JSON {
		return printJSON(s.Out, res)
	}
	w := s.Out
	fmt.Fprintf(w, "FN-DSA-%d signing with the keys of Falcon-%d NIST KAT record %d, over emu64 (signature SHA-256 %s, verified)\n\n", res.Params, res.Params, res.Record, res.SignatureSHA256)
	fmt.Fprintf(w, "%-14s %12s %12s %12s\n", "COUNTER", "KEYGEN (r3)", "SIGN FN-DSA", "SIGN r3 KAT")
	for i, name := range accel.CounterNames {
		fmt.Fprintf(w, "%-14s %12d %12d %12d\n", name, res.Keygen.Counts.Values()[i], res.Sign.Values()[i], k.Sign.Values()[i])
	}
	fmt.Fprintln(w)
	for _, n := range res.Notes {
		fmt.Fprintln(w, "*", n)
	}
	return nil
}
