package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/version"
	"github.com/fprlab/fprlab/scheme"
)

// compareOptions holds the flags of compare.
type compareOptions struct {
	Backends   string
	Params     string
	Signatures int
	Keys       int
	Seed       string
	KATRecords string
	OracleBits uint
	Shadow     string
	ExactSigma string
	Acceptance string
	Scheme     string
	// KeySource is --key-source: the keys of an FN-DSA campaign ("" is
	// fn-dsa's own; see parseKeySource).
	KeySource string
	// Mode is --mode: the reference's signing procedure (dyn or tree).
	Mode        string
	Workers     int
	Out         string
	JSON        bool
	Progress    bool
	Interactive bool
	Shard       string
	// Certify is --certify: certify each key of the campaign (package
	// analysis/certify) and add the bound to each summary.
	Certify bool
	// AllowWeakShadow measures backends the shadow is not campaign.ShadowMargin
	// bits wider than.
	AllowWeakShadow bool
	// seedOrKeysSet records that --seed or --keys was given;
	// oracleBitsSet and signaturesSet that --oracle-bits and --signatures
	// were (see noteMeasureFlags).
	seedOrKeysSet, oracleBitsSet, signaturesSet bool
	// exactSigmaSet records --exact-sigma: an FN-DSA campaign defaults to
	// its scheme's table (reference) instead of the formula.
	exactSigmaSet bool
}

const compareLong = `compare runs Falcon signing over each --backend while an exact shadow (double-double
arithmetic by default, or the big-float oracle: --shadow oracle --oracle-bits
256) follows the same control path: every decision
is the backend's, and the shadow computes from exact inputs along it. At each
of the 2n SamplerZ calls of every attempt it measures

  delta_c     = |mu_B - mu_exact|                      (absolute)
  delta_sigma = |isigma_B - isigma_exact| / isigma_exact (relative)

(Falcon specification v1.2, "Precision of the floating-point arithmetic"),
and reports their statistics per sampler call ("per_leaf", every call) and
per signature (the maximum over its calls, the quantity the specification's
worst-case argument bounds), the specification's test (delta_c + delta_sigma
<= 2^-46 for every signature), the Renyi consequences (divergence bound,
maximum signing queries for lambda = 256, bits lost at 2^64 queries), the
decisions exact arithmetic would have taken differently with the same random
bytes (decision flips), where error is born (the normwise relative error of
each stage's values, per tree level), and the backend's expm_p63 error.

Inputs: --kat-records FROM:TO replays the NIST KAT records (their keys and
signing randomness, as an instrumented reference build would); otherwise
--keys keys and --signatures signatures are derived from --seed. Keys are
generated on the backend (shadowed: key generation's flips are reported too)
when it can run NTRUSolve, else on emu64. --scheme fn-dsa signs FN-DSA (as
go-fn-dsa e24833f implements the FIPS 206 draft) with FN-DSA's own integer
key generation (fndsa.KeyGen, no floating point: the same keys on every
backend): key I's 32-byte seed is the first 32 bytes of
SHAKE256("fprlab compare fn-dsa key" || 0x00 || BE64(len(seed)) || seed ||
BE64(I)); --key-source falcon signs it with round 3's keys instead, as FN-DSA
campaigns did before FN-DSA key generation existed (a campaign directory of
those resumes with --key-source falcon only). --mode tree signs as the reference's falcon_expand_privkey +
falcon_sign_tree (round 3 only; the tree is expanded under the shadow for
every signature, so its error is part of each signature's), which signs some
inputs differently from falcon_sign_dyn, the default. compare never takes a user's
secret key: signing one point with two arithmetics can reveal it (Lin,
Tibouchi, Yu, Zhang, Eurocrypt 2025).

--exact-sigma formula (default) takes 1/sigma = 1/(1.17 sqrt(q) sigma_min)
and sigma_min from the specification's formulas; reference takes the
reference's binary64 tables as exact. The reference's 1/sigma table is one
ulp above the correctly rounded formula for every degree, a systematic
delta_sigma of 2^-52.56 over binary64 with the formula.

--out DIR keeps the records (checksummed segments, each the aggregate of
up to 256 finished units; see fprlab records dump) and the summary, under a
lock; the same command run again after an interruption continues from them.
Summaries are folded from the records as they arrive: memory does not grow
with --signatures. Same seed, same numbers, whatever --workers.`

func newCompareCmd(s *cli.Streams) *cobra.Command {
	opts := &compareOptions{}
	cmd := &cobra.Command{
		Use:   "compare --backend B[,B...] --params 512|1024 (--signatures K | --kat-records FROM:TO)",
		Short: "Shadow Falcon signing with an exact shadow (double-double, or the big-float oracle): delta_c, delta_sigma, flips, per-stage errors",
		Long:  compareLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Interactive = s.ErrIsTerminal
			opts.noteMeasureFlags(cmd.Flags().Changed)
			return runCompare(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Backends, "backend", "", "backend or comma-separated backends (see 'fprlab backends')")
	f.IntVar(&opts.Signatures, "signatures", 0, "number of signatures (seeded mode)")
	f.IntVar(&opts.Keys, "keys", 1, "number of keys the signatures use in turn (seeded mode)")
	bindMeasureFlags(cmd, opts)
	f.StringVar(&opts.Out, "out", "", "campaign `DIR`: records and summary, resumable")
	f.BoolVar(&opts.JSON, "json", false, "print the summaries as JSON (an array, one object per backend)")
	addSchemeFlag(cmd, &opts.Scheme)
	addModeFlag(f, &opts.Mode)
	f.BoolVar(&opts.Certify, "certify", false, "also certify each key of the campaign over each backend (fprlab certify): a bound on delta_c + delta_sigma valid for every message, beside the sample")
	f.StringVar(&opts.Acceptance, "acceptance", campaign.AcceptBerExp, "the sampler's acceptance test: berexp (the reference's) or two-bernoulli (the pipelined SamplerZ's binary64 exp and two 64-bit Bernoulli trials; see 'fprlab backends')")
	f.StringVar(&opts.Shard, "shard", "", "run shard `I/N` of the campaign, I counted from 0 (0/4 .. 3/4; or slurm: SLURM_ARRAY_TASK_ID of SLURM_ARRAY_TASK_COUNT, for a whole array submitted at once); combine with fprlab merge")
	return cmd
}

// bindMeasureFlags binds the flags that compare and sweep share: the
// inputs besides their counts, the exact side, parallelism, progress.
func bindMeasureFlags(cmd *cobra.Command, opts *compareOptions) {
	f := cmd.Flags()
	f.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	f.StringVar(&opts.Seed, "seed", "fprlab", "seed of keys, messages and signing randomness (seeded mode)")
	f.StringVar(&opts.KATRecords, "kat-records", "", "NIST KAT records `FROM:TO` (TO excluded, at most 100) instead of seeded inputs")
	f.StringVar(&opts.Shadow, "shadow", string(shadow.ShadowDD), "exact side: dd (double-double, 106 bits, validated against the oracle) or oracle (big.Float at --oracle-bits)")
	f.UintVar(&opts.OracleBits, "oracle-bits", 256, "precision of the oracle shadow in bits (with --shadow oracle)")
	f.StringVar(&opts.ExactSigma, "exact-sigma", string(shadow.SigmaFormula), "exact 1/sigma and sigma_min: formula or reference (--scheme fn-dsa and fn-dsa-2026: reference only, their default)")
	f.IntVar(&opts.Workers, "workers", 0, campaign.WorkersHelp)
	f.BoolVar(&opts.Progress, "progress", false, "show progress on stderr (default: when stderr is a terminal)")
	f.BoolVar(&opts.AllowWeakShadow, "allow-weak-shadow", false, "measure a backend the shadow is not 24 bits wider than (its figures then include the shadow's own error; the output says so)")
	f.StringVar(&opts.KeySource, "key-source", "", keySourceUsage)
}

// compareConfig validates the flags into a campaign configuration.
func compareConfig(opts *compareOptions) ([]arith.Backend, shadow.Config, error) {
	var cfg shadow.Config
	if opts.Backends == "" {
		return nil, cfg, errors.New("missing --backend (for instance --backend native,triword)")
	}
	if err := opts.checkMeasureFlags(); err != nil {
		return nil, cfg, err
	}
	bs, err := campaign.LookupBackends(campaign.SplitBackends(opts.Backends), lookupBackend, "--backend names %s twice")
	if err != nil {
		return nil, cfg, err
	}
	for _, b := range bs {
		if b.Name == "dd" && opts.Shadow == string(shadow.ShadowDD) {
			return nil, cfg, errors.New("--backend dd is the dd shadow itself: measure it with --shadow oracle")
		}
	}
	logn, err := paramSetLogn(opts.Params)
	if err != nil {
		return nil, cfg, err
	}
	cfg = shadow.Config{LogN: logn, OracleBits: opts.OracleBits, Shadow: shadow.Kind(opts.Shadow), Workers: opts.Workers}
	if cfg.Acceptance, err = campaign.ParseAcceptance(opts.Acceptance); err != nil {
		return nil, cfg, err
	}
	if cfg.Scheme, err = parseScheme(opts.Scheme); err != nil {
		return nil, cfg, err
	}
	if cfg.KeySource, err = parseKeySource(opts.KeySource, cfg.Scheme); err != nil {
		return nil, cfg, err
	}
	if opts.Mode != "" {
		if cfg.Mode, err = parseMode(opts.Mode); err != nil {
			return nil, cfg, err
		}
	}
	if cfg.Sigma, err = shadow.SigmaFor(cfg.Scheme, opts.ExactSigma, opts.exactSigmaSet); err != nil {
		return nil, cfg, err
	}
	if opts.KATRecords != "" {
		if opts.Signatures != 0 || opts.seedOrKeysSet {
			return nil, cfg, errors.New("--kat-records takes each record's own key and randomness: it excludes --signatures, --keys and --seed")
		}
		if cfg.KATFrom, cfg.KATTo, err = campaign.ParseKATRecords(opts.KATRecords); err != nil {
			return nil, cfg, err
		}
	} else {
		if opts.Signatures == 0 {
			return nil, cfg, errors.New("missing --signatures K or --kat-records FROM:TO")
		}
		cfg.Signatures, cfg.Keys, cfg.Seed = opts.Signatures, opts.Keys, opts.Seed
	}
	if cfg.Shard, cfg.Shards, err = campaign.ParseShard(opts.Shard, os.Getenv); err != nil {
		return nil, cfg, err
	}
	if opts.Certify {
		if cfg.Mode != falcon.Dyn || cfg.Acceptance != nil {
			return nil, cfg, errors.New("--certify analyses the dynamic signing with the scheme's own acceptance test: it excludes --mode tree and --acceptance")
		}
		if _, err := scheme.AttempterOf(cfg.SchemeOf()); err != nil {
			return nil, cfg, fmt.Errorf("--certify: %w", err)
		}
		for _, b := range bs {
			if _, err := certify.ModelFor(b, ""); err != nil {
				var nm *certify.NoModelError
				if errors.As(err, &nm) {
					return nil, cfg, fmt.Errorf("--certify: %s: compare --certify takes built-in models only; certify this backend's keys with fprlab certify --error-model rel=2^-P[,abs=2^-E] (--keys and --seed as here)", nm.Reason())
				}
				return nil, cfg, fmt.Errorf("--certify: %w", err)
			}
		}
	}
	if err := campaign.CheckWorkers(opts.Workers); err != nil {
		return nil, cfg, err
	}
	if err := cfg.Check(); err != nil {
		return nil, cfg, err
	}
	return bs, cfg, campaign.CheckShadowWidth(bs, cfg, opts.AllowWeakShadow)
}

// runCompare runs the campaign over each backend and prints the summaries.
func runCompare(ctx context.Context, opts *compareOptions, s *cli.Streams) error {
	bs, cfg, err := compareConfig(opts)
	if err != nil || s.ValidateOnly {
		return err
	}
	if msg := campaign.EmptyShard(cfg); msg != "" {
		fmt.Fprintf(s.Err, "compare: %s\n", msg)
	}
	sums, err := compareRun(ctx, opts, cfg, bs, s)
	if errors.Is(err, falcon.ErrKeygenFailures) {
		// Round 3's key generation runs on the backend (shadowed); a
		// format too narrow for NTRUSolve's Babai reduction cannot make a
		// key, though it may still sign.
		return fmt.Errorf("%w\n(round 3's key generation runs on the measured backend, and this one is too narrow for it: measure its signing with keys made in binary64 by `fprlab sweep --format FORMAT`, as a stage of a precision plan (`plan:STAGE=FORMAT+all=binary64`), or with --scheme fn-dsa, whose key generation is integer)", err)
	}
	if err != nil {
		return err
	}
	if opts.JSON {
		return cli.PrintJSON(s.Out, sums)
	}
	return campaign.WriteCompareText(s.Out, sums)
}

// segmentUnits is the size of the campaign directories' segments (tests
// make it small to see segment boundaries).
var segmentUnits = shadow.DefaultSegmentUnits

// compareRun runs the campaign cfg over each backend (in the campaign
// directory opts.Out when set, with its manifest) and returns the
// summaries.
func compareRun(ctx context.Context, opts *compareOptions, cfg shadow.Config, bs []arith.Backend, s *cli.Streams) ([]*shadow.Summary, error) {
	c := &campaign.Compare{Config: cfg, Backends: bs, Dir: opts.Out, KATRecords: opts.KATRecords, Version: version.Release(), SegmentUnits: segmentUnits}
	if opts.Certify {
		c.Annotate = func(sum *shadow.Summary, b arith.Backend) error { return certifySummary(cfg, b, sum) }
	}
	if opts.Progress || opts.Interactive {
		c.Progress = func(name string) (func(done, total int), func()) {
			return cli.UntilFirstUnit(ctx, s.Err, "compare: "+name+": generating keys", compareProgress(s.Err, name))
		}
	}
	c.Notice = func(msg string) { fmt.Fprintf(s.Err, "compare: %s\n", msg) }
	if !opts.JSON {
		c.Measured = func(sum *shadow.Summary, signed int, elapsed time.Duration) {
			what := sum.Backend + " " + scheme.KeysTitle(cfg.SchemeName(), 1<<cfg.LogN, string(cfg.KeySourceOf()))
			switch earlier := sum.Signatures - signed; {
			case earlier <= 0:
				fmt.Fprintf(s.Err, "compare: %s: %d signatures in %.1f s\n", what, sum.Signatures, elapsed.Seconds())
			case signed == 0:
				fmt.Fprintf(s.Err, "compare: %s: all %d signatures read from %s (finished earlier; nothing to sign)\n", what, sum.Signatures, opts.Out)
			default:
				fmt.Fprintf(s.Err, "compare: %s: %d signatures, %d read from %s (finished earlier) and %d signed in %.1f s\n", what, sum.Signatures, earlier, opts.Out, signed, elapsed.Seconds())
			}
		}
	}
	if opts.Out != "" {
		s.StopOnInterrupt()
	}
	sums, err := c.Run(ctx)
	if err != nil && ctx.Err() != nil {
		return nil, cli.Interrupted(opts.Out)
	}
	if err != nil || opts.Out == "" {
		return sums, err
	}
	return sums, campaign.WriteManifest(opts.Out, "compare", s.CommandArgv("compare"), "summary.json", version.Release(), cfg, sums)
}

// compareProgress reports done/total, rate and ETA at most every 2 s.
func compareProgress(w io.Writer, name string) func(done, total int) {
	return cli.ProgressLines(w, "compare: "+name, "units")
}

// noteMeasureFlags records which of the flags compare and sweep share
// were given, for checks where a flag's zero or default value and its
// absence differ.
// changed is the command's cmd.Flags().Changed.
func (o *compareOptions) noteMeasureFlags(changed func(name string) bool) {
	o.seedOrKeysSet = changed("seed") || changed("keys")
	o.oracleBitsSet = changed("oracle-bits")
	o.signaturesSet = changed("signatures")
	o.exactSigmaSet = changed("exact-sigma")
}

// checkMeasureFlags refuses flags that the other flags make meaningless
// (and that would otherwise be silently ignored).
func (o *compareOptions) checkMeasureFlags() error {
	if o.oracleBitsSet && o.Shadow != string(shadow.ShadowOracle) {
		return fmt.Errorf("--oracle-bits %d applies to --shadow oracle only, not to the %s shadow", o.OracleBits, o.Shadow)
	}
	switch {
	case o.signaturesSet && o.KATRecords != "":
		return fmt.Errorf("--kat-records takes each record's own key and randomness: it excludes --signatures (given as %d)", o.Signatures)
	case o.signaturesSet && o.Signatures <= 0:
		return fmt.Errorf("--signatures %d: want 1 or more", o.Signatures)
	}
	return nil
}
