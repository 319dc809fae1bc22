package accel

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
)

// The documents of accel counts: round 3's counts of a NIST KAT record
// (CountsDocument) and a counted scheme's of one signature
// (SchemeCountsDocument), with their text.

// CountsPhase is one phase of accel counts --json: the fpr counters
// and the integer counters (the names of the reference's counts file, and
// keccak_f1600).
type CountsPhase struct {
	Counts
	IntCounts
}

// CountsPhases are the phases of a NIST KAT record's flow.
type CountsPhases struct {
	Keygen CountsPhase `json:"keygen"`
	Sign   CountsPhase `json:"sign"`
	Verify CountsPhase `json:"verify"`
}

// CountsDocument is the stable --json output of accel counts (round 3:
// a NIST KAT record's flow).
type CountsDocument struct {
	Params  int          `json:"params"`
	Record  int          `json:"record"`
	Backend string       `json:"backend"`
	Phases  CountsPhases `json:"phases"`
	Total   CountsPhase  `json:"total"`
	// Candidates passed keygen's Gram-Schmidt bound.
	Candidates   int      `json:"keygen_candidates"`
	SignAttempts int      `json:"sign_attempts"`
	Notes        []string `json:"notes"`
}

// KATCountsNotes are the notes of accel counts of round 3.
var KATCountsNotes = []string{
	"fpr counters: calls of fprlab's Arith through emu64, in the structure of the reference's FPEMU build (add includes sub, mul sqr and 2 per expm_p63, div inv, trunc 2 per expm_p63; FPR = scaled+add+mul+div+sqrt, FPR_NORM64 = scaled+add)",
	"modp_montymul: counted in fprlab's NTRUSolve, which makes the reference's sequence of Montgomery products modulo the RNS primes (every NTRUSolve run, failed ones included)",
	"mq_montymul: from the reference's call structure (compute_public per keygen candidate passing the Gram-Schmidt bound, stopping at f's first zero NTT slot; complete_private in sign; to_ntt_monty and verify_raw in verify)",
	"keccak_f1600: from the bytes absorbed and squeezed (rate 136): the keygen stream, hash-to-point, the 56-byte sampler seeds",
}

// Document returns the --json document of k, the counts of NIST KAT
// record record at degree 2^logn.
func (k *KATCounts) Document(logn uint, record int) CountsDocument {
	return CountsDocument{
		Params: 1 << logn, Record: record, Backend: "emu64",
		Phases: CountsPhases{
			Keygen: CountsPhase{Counts: k.Keypair, IntCounts: k.KeypairInt},
			Sign:   CountsPhase{Counts: k.Sign, IntCounts: k.SignInt},
			Verify: CountsPhase{Counts: k.Open, IntCounts: k.OpenInt},
		},
		Total:      CountsPhase{Counts: k.Total(), IntCounts: k.TotalInt()},
		Candidates: k.Candidates, SignAttempts: k.SignAttempts,
		Notes: KATCountsNotes,
	}
}

// WriteText writes res as accel counts prints it.
func (res CountsDocument) WriteText(w io.Writer) error {
	fmt.Fprintf(w, "Falcon-%d, NIST KAT record %d over emu64 (matches the published record)\n\n", res.Params, res.Record)
	fmt.Fprintf(w, "%-14s %12s %12s %12s %12s\n", "COUNTER", "KEYGEN", "SIGN", "VERIFY", "TOTAL")
	p := res.Phases
	phases := []CountsPhase{p.Keygen, p.Sign, p.Verify, res.Total}
	for i, name := range CounterNames {
		fmt.Fprintf(w, "%-14s", name)
		for _, ph := range phases {
			fmt.Fprintf(w, " %12d", ph.Counts.Values()[i])
		}
		fmt.Fprintln(w)
	}
	for _, row := range []struct {
		name string
		v    func(IntCounts) uint64
	}{
		{"modp_montymul", func(c IntCounts) uint64 { return c.ModpMontymul }},
		{"mq_montymul", func(c IntCounts) uint64 { return c.MqMontymul }},
		{"keccak_f1600", func(c IntCounts) uint64 { return c.KeccakF1600 }},
	} {
		fmt.Fprintf(w, "%-14s", row.name)
		for _, ph := range phases {
			fmt.Fprintf(w, " %12d", row.v(ph.IntCounts))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nkeygen candidates past the Gram-Schmidt bound: %d; signing attempts: %d\n", res.Candidates, res.SignAttempts)
	for _, n := range res.Notes {
		fmt.Fprintln(w, "*", n)
	}
	return nil
}

// SchemeCountsDocument is the --json output of accel counts for a scheme
// with a Counter (--scheme fn-dsa).
type SchemeCountsDocument struct {
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
	Keygen *CountsPhase `json:"keygen,omitempty"`
	// Sign is the counters of the FN-DSA signature, all its attempts;
	// Verify those of its verification (integer only).
	Sign   CountsPhase `json:"sign"`
	Verify CountsPhase `json:"verify"`
	// SignKeccak and VerifyKeccak are the keccak_f1600 counts by origin.
	SignKeccak   FNDSAKeccak `json:"sign_keccak"`
	VerifyKeccak FNDSAKeccak `json:"verify_keccak"`
	Attempts     int         `json:"sign_attempts"`
	BerExpTrials int64       `json:"berexp_trials"`
	// SignatureSHA256 identifies the signature counted (it verifies);
	// KATPin is the go-fn-dsa record's SHA3-256(sk || vk || sig), which
	// the signature matches (FN-DSA keys only).
	SignatureSHA256 string   `json:"signature_sha256"`
	KATPin          string   `json:"kat_pin,omitempty"`
	Notes           []string `json:"notes"`
}

// NewSchemeCounts returns the document of r, the counts of a scheme named
// name at degree 2^logn: of NIST KAT record record when r was made with
// its round-3 keys (r.KAT), else of the scheme's own KAT record.
func NewSchemeCounts(name string, logn uint, record int, r *FNDSACounts, notes []string) SchemeCountsDocument {
	h := sha256.Sum256(r.Signature)
	res := SchemeCountsDocument{Scheme: name, Params: 1 << logn, KeySource: r.KeySource, Backend: "emu64",
		Sign:       CountsPhase{Counts: r.Sign, IntCounts: r.SignInt},
		Verify:     CountsPhase{IntCounts: r.VerifyInt},
		SignKeccak: r.SignKeccak, VerifyKeccak: r.VerifyKeccak, Attempts: r.Attempts, BerExpTrials: r.BerExpTrials,
		SignatureSHA256: hex.EncodeToString(h[:]), Notes: notes}
	k := r.KAT
	if k != nil {
		res.Record = &record
		res.Keygen = &CountsPhase{Counts: k.Keypair, IntCounts: k.KeypairInt}
	} else {
		res.FNDSARecord = &r.FNDSARecord.J
		res.KATPin = hex.EncodeToString(r.FNDSARecord.Pin[:])
	}
	return res
}

// WriteText writes res, the document of r, as accel counts prints it;
// title names the parameter set ("FN-DSA-512"), description the scheme
// ("FN-DSA") and katSource the implementation whose KAT the scheme's own
// records are ("go-fn-dsa").
func (res SchemeCountsDocument) WriteText(w io.Writer, r *FNDSACounts, title, description, katSource string) error {
	k := r.KAT
	ints := []struct {
		name string
		v    func(IntCounts) uint64
	}{
		{"modp_montymul", func(c IntCounts) uint64 { return c.ModpMontymul }},
		{"mq_montymul", func(c IntCounts) uint64 { return c.MqMontymul }},
		{"keccak_f1600", func(c IntCounts) uint64 { return c.KeccakF1600 }},
	}
	if k != nil {
		fmt.Fprintf(w, "%s signing with the keys of Falcon-%d NIST KAT record %d, over emu64 (signature SHA-256 %s, verified)\n\n", title, res.Params, *res.Record, res.SignatureSHA256)
		fmt.Fprintf(w, "%-14s %12s %12s %12s %12s %12s\n", "COUNTER", "KEYGEN (r3)", "SIGN "+description, "VERIFY", "SIGN r3 KAT", "VERIFY r3")
		for i, name := range CounterNames {
			fmt.Fprintf(w, "%-14s %12d %12d %12d %12d %12d\n", name, res.Keygen.Counts.Values()[i], res.Sign.Counts.Values()[i], 0, k.Sign.Values()[i], k.Open.Values()[i])
		}
		for _, row := range ints {
			fmt.Fprintf(w, "%-14s %12d %12d %12d %12d %12d\n", row.name, row.v(k.KeypairInt), row.v(r.SignInt), row.v(r.VerifyInt), row.v(k.SignInt), row.v(k.OpenInt))
		}
	} else {
		fmt.Fprintf(w, "%s signing %s KAT record %d of degree %d with its %s keys, over emu64 (signature SHA-256 %s, verified;\nSHA3-256(sk || vk || sig) = %s, the record's pin)\n\n", title, katSource, r.FNDSARecord.J, res.Params, description, res.SignatureSHA256, res.KATPin)
		fmt.Fprintf(w, "%-14s %12s %12s\n", "COUNTER", "SIGN "+description, "VERIFY")
		for i, name := range CounterNames {
			fmt.Fprintf(w, "%-14s %12d %12d\n", name, res.Sign.Counts.Values()[i], 0)
		}
		for _, row := range ints {
			fmt.Fprintf(w, "%-14s %12d %12d\n", row.name, row.v(r.SignInt), row.v(r.VerifyInt))
		}
	}
	sk, vk := r.SignKeccak, r.VerifyKeccak
	if sk.Mu == 0 {
		fmt.Fprintf(w, "\nkeccak_f1600 of signing: key digest %d, nonce streams %d, hash-to-point %d (%d draws), sampler PRNG %d (%d bytes); verify: %d + %d\n",
			sk.KeyDigest, sk.Nonces, sk.HashToPoint, sk.HashToPointDraws, sk.Sampler, sk.SamplerBytes, vk.KeyDigest, vk.HashToPoint)
	} else {
		fmt.Fprintf(w, "\nkeccak_f1600 of signing: mu %d, hedged seed %d, attempt streams (nonce and sampler) %d (%d sampler bytes), hash-to-point %d (%d draws); verify: key digest %d, mu %d, hash-to-point %d\n",
			sk.Mu, sk.HedgedSeed, sk.Sampler, sk.SamplerBytes, sk.HashToPoint, sk.HashToPointDraws, vk.KeyDigest, vk.Mu, vk.HashToPoint)
	}
	fmt.Fprintf(w, "signing attempts: %d; Bernoulli trials: %d\n\n", res.Attempts, res.BerExpTrials)
	for _, n := range res.Notes {
		fmt.Fprintln(w, "*", n)
	}
	return nil
}
