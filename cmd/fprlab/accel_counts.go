package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/scheme"
)

// ---- counts ----

// countsPhaseJSON is one phase of accel counts --json: the fpr counters
// and the integer counters (the names of the reference's counts file, and
// keccak_f1600).
type countsPhaseJSON struct {
	accel.Counts
	accel.IntCounts
}

type countsPhasesJSON struct {
	Keygen countsPhaseJSON `json:"keygen"`
	Sign   countsPhaseJSON `json:"sign"`
	Verify countsPhaseJSON `json:"verify"`
}

// countsJSON is the stable --json output of accel counts.
type countsJSON struct {
	Params  int              `json:"params"`
	Record  int              `json:"record"`
	Backend string           `json:"backend"`
	Phases  countsPhasesJSON `json:"phases"`
	Total   countsPhaseJSON  `json:"total"`
	// Candidates passed keygen's Gram-Schmidt bound.
	Candidates   int      `json:"keygen_candidates"`
	SignAttempts int      `json:"sign_attempts"`
	Notes        []string `json:"notes"`
}

var accelCountsNotes = []string{
	"fpr counters: calls of fprlab's Arith through emu64, in the structure of the reference's FPEMU build (add includes sub, mul sqr and 2 per expm_p63, div inv, trunc 2 per expm_p63; FPR = scaled+add+mul+div+sqrt, FPR_NORM64 = scaled+add)",
	"modp_montymul: counted in fprlab's NTRUSolve, which makes the reference's sequence of Montgomery products modulo the RNS primes (every NTRUSolve run, failed ones included)",
	"mq_montymul: from the reference's call structure (compute_public per keygen candidate passing the Gram-Schmidt bound, stopping at f's first zero NTT slot; complete_private in sign; to_ntt_monty and verify_raw in verify)",
	"keccak_f1600: from the bytes absorbed and squeezed (rate 136): the keygen stream, hash-to-point, the 56-byte sampler seeds",
}

// accelCountsOptions holds the flags of accel counts.
type accelCountsOptions struct {
	accelRecordFlags
	Scheme string
	// KeySource and FNDSARecord choose an FN-DSA count's input: a record
	// of go-fn-dsa's KAT with its FN-DSA keys (the default), or with
	// --key-source falcon the NIST record --kat-record with its round-3
	// keys.
	KeySource   string
	FNDSARecord int
	// changed reports whether a flag was given.
	changed func(name string) bool
}

func newAccelCountsCmd(s *streams) *cobra.Command {
	opts := &accelCountsOptions{}
	cmd := &cobra.Command{
		Use:   "counts --params 512|1024",
		Short: "Operation counts per phase of a NIST KAT record (fpr operations, modp/mq_montymul, Keccak-f[1600])",
		Long: `counts runs one record of the NIST KAT flow (crypto_sign_keypair, crypto_sign,
crypto_sign_open) over emu64, the reference's FALCON_FPEMU arithmetic, checks it
against the published file, and prints per phase:

  the fpr operations as an instrumented reference build counts them (FPR is the
  packing routine, FPR_NORM64 the normaliser: the blocks of a hardware fpr unit);
  modp_montymul, the Montgomery products of NTRUSolve (keygen only);
  mq_montymul, from the reference's call structure (NTT, iNTT, divisions);
  keccak_f1600, from the bytes each SHAKE256 absorbs and squeezes.

Falcon-512 record 0: FPR 731,119, FPR_NORM64 388,031, modp_montymul 975,905,
Keccak-f 503 (HORCRUX Table II), mq_montymul 17,664 / 20,992 / 8,448.

--scheme fn-dsa counts an FN-DSA signature (FIPS 206 draft, as go-fn-dsa) and
its verification: by default record --fn-dsa-record J (0 to 9) of go-fn-dsa's
own KAT at the degree, with its FN-DSA keys (fndsa.KeyGen of the record's seed),
context, message and signing seed -- the signature is go-fn-dsa's, checked
against the record's pin SHA3-256(sk || vk || sig); with --key-source falcon
the NIST record --kat-record with its round-3 keys, beside round 3's counts of
that record.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.changed = cmd.Flags().Changed
			return runAccelCounts(cmd.Context(), opts, s)
		},
	}
	opts.bind(cmd)
	addSchemeFlag(cmd, &opts.Scheme)
	fl := cmd.Flags()
	fl.StringVar(&opts.KeySource, "key-source", "", "fn-dsa: keys from `SOURCE`: fn-dsa (a go-fn-dsa KAT record's own keys, --fn-dsa-record; the default) or falcon (the NIST KAT record's round-3 keys, --kat-record)")
	fl.IntVar(&opts.FNDSARecord, "fn-dsa-record", 0, "fn-dsa: record `J` of go-fn-dsa's KAT at the degree, 0 to 9 (FN-DSA keys)")
	return cmd
}

func runAccelCounts(_ context.Context, opts *accelCountsOptions, s *streams) error {
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return err
	}
	if c, ok := sc.(schemeCounter); ok {
		return runAccelCountsScheme(c, opts, s)
	}
	if !sc.ReplaysNISTKAT() {
		return fmt.Errorf("--scheme %s: accel counts counts the NIST round-3 flow and the schemes %s", sc.Name(), strings.Join(scheme.With(isCounter), ", "))
	}
	if opts.KeySource != "" || opts.changed("fn-dsa-record") {
		return fmt.Errorf("--key-source and --fn-dsa-record apply to --scheme %s only (round 3 counts the NIST record --kat-record)", strings.Join(scheme.With(isCounter), " or "))
	}
	logn, k, err := countRecord(&opts.accelRecordFlags)
	if err != nil {
		return err
	}
	res := countsJSON{
		Params: 1 << logn, Record: opts.Record, Backend: "emu64",
		Phases: countsPhasesJSON{
			Keygen: countsPhaseJSON{Counts: k.Keypair, IntCounts: k.KeypairInt},
			Sign:   countsPhaseJSON{Counts: k.Sign, IntCounts: k.SignInt},
			Verify: countsPhaseJSON{Counts: k.Open, IntCounts: k.OpenInt},
		},
		Total:      countsPhaseJSON{Counts: k.Total(), IntCounts: k.TotalInt()},
		Candidates: k.Candidates, SignAttempts: k.SignAttempts,
		Notes: accelCountsNotes,
	}
	if opts.JSON {
		return printJSON(s.Out, res)
	}
	w := s.Out
	fmt.Fprintf(w, "Falcon-%d, NIST KAT record %d over emu64 (matches the published record)\n\n", res.Params, res.Record)
	fmt.Fprintf(w, "%-14s %12s %12s %12s %12s\n", "COUNTER", "KEYGEN", "SIGN", "VERIFY", "TOTAL")
	p := res.Phases
	phases := []countsPhaseJSON{p.Keygen, p.Sign, p.Verify, res.Total}
	for i, name := range accel.CounterNames {
		fmt.Fprintf(w, "%-14s", name)
		for _, ph := range phases {
			fmt.Fprintf(w, " %12d", ph.Counts.Values()[i])
		}
		fmt.Fprintln(w)
	}
	for _, row := range []struct {
		name string
		v    func(accel.IntCounts) uint64
	}{
		{"modp_montymul", func(c accel.IntCounts) uint64 { return c.ModpMontymul }},
		{"mq_montymul", func(c accel.IntCounts) uint64 { return c.MqMontymul }},
		{"keccak_f1600", func(c accel.IntCounts) uint64 { return c.KeccakF1600 }},
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
