package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/scheme"
)

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

func newAccelCountsCmd(s *cli.Streams) *cobra.Command {
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
	fl.IntVar(&opts.FNDSARecord, "fn-dsa-record", 0, "fn-dsa, fn-dsa-2026: record `J` of the scheme's own KAT at the degree (go-fn-dsa's, rust-fn-dsa's), 0 to 9, with its keys")
	return cmd
}

func runAccelCounts(_ context.Context, opts *accelCountsOptions, s *cli.Streams) error {
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
	res := k.Document(logn, opts.Record)
	if opts.JSON {
		return cli.PrintJSON(s.Out, res)
	}
	return res.WriteText(s.Out)
}
