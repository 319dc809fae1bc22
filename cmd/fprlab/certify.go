package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/internal/version"
	"github.com/fprlab/fprlab/scheme"
)

// certifyOptions holds the flags of certify.
type certifyOptions struct {
	Backends, Params, Scheme, KeySource, KATRecords, ErrorModel string
	// Keys and Seed are --keys K --seed S (compare's seeded keys), SK
	// --sk FILE: the other two sources of keys besides --kat-records.
	Keys int
	Seed string
	SK   string
	JSON bool
	// KeysSet and ErrorModelSet say that --keys and --error-model were
	// given: a value of 0 or "" is refused, not read as absent.
	KeysSet, ErrorModelSet bool
	CheckSignatures        int
	// CheckChosen is --check-chosen: signing attempts on hashed points
	// chosen for each key (certify.CheckChosen).
	CheckChosen int
	// ChosenDeviation is --chosen-deviation: where the chosen attempts'
	// samples lie, "drawn" or z0 in 0 to 18 (certify.Check.Edge);
	// ChosenDeviationSet says it was given.
	ChosenDeviation    string
	ChosenDeviationSet bool
	// CheckShadow is --check-shadow: what --check-signatures and
	// --check-chosen measure against (oracle or dd).
	CheckShadow string
	// CheckShadowSet says --check-shadow was given.
	CheckShadowSet bool
	// Progress forces progress lines of the signature checks;
	// Interactive shows them (stderr is a terminal).
	Progress, Interactive bool
	// PStar is --pstar: the least vprec precision certified per key.
	PStar bool
	// RequireProven is --require-proven: exit 1 unless every result is
	// proven.
	RequireProven bool
	// Checkpoint is --checkpoint FILE: every finished (backend, key) is
	// saved there, and a run started again with the same flags resumes
	// from it.
	Checkpoint string
	// ExactSigma is --exact-sigma, as compare's; ExactSigmaSet says it
	// was given (FN-DSA's default is the reference's table).
	ExactSigma    string
	ExactSigmaSet bool
	// SeedSet says --seed was given (it goes with --keys only).
	SeedSet bool
}

const certifyLong = `certify proves, per key, how precise an arithmetic is at every signature:
not a sample maximum but a bound valid for every hashed point (n integers in
[0, q)) and every output of the sampler in its support. For each key and each
--backend it computes

  delta_sigma, exactly: the largest relative error of a leaf's 1/sigma
    against the oracle at 256 bits, whose 1/sigma is the specification's
    formula or, with --exact-sigma reference, the reference's binary64 table
    (compare --shadow oracle, under the same --exact-sigma, measures the same
    value at every signature of the key);
  delta_c, certified: an upper bound on |c_backend - c_exact| at every
    sampler call, by a forward error analysis of ffSampling (dynamic path)
    with Euclidean norm bounds of every intermediate, the key's tree values
    and the backend's twiddles read exactly, and the backend's per-operation
    error model (package analysis/certify documents the method);
  the verdict: "proven" when bound(delta_c) + delta_sigma <= 2^-46 (the
    Falcon specification's condition), "not proven" otherwise -- a bound
    above 2^-46 shows no failure, only that this analysis cannot exclude one.

Error models are built in for native, native-fma, emu64 (binary64; a
fused multiply-add is an unrounded product and a rounded sum; emu64 flushes
subnormals), vprec:P[:eE[:rz|:sr=SEED]] (2^-P relative to nearest,
2^-(P-1) toward zero or stochastic), dd and triword* (their proven
per-operation bounds), and precision plans whose target and ffsampling
stages are vprec formats (each stage's model, plus one rounding of each
value another stage hands it, the target's included); any other backend needs
--error-model rel=2^-P[,abs=2^-E], the bound you vouch for. Keys (one
source): --kat-records FROM:TO, the NIST KAT records' keys (published
responses); --keys K --seed S, the keys compare --keys K --seed S signs
with over the same backend (made on
it, or on emu64 where it cannot run NTRUSolve); or --sk FILE, one private key
(the scheme's encoding, falcon.h's for round 3; bytes or hex; --params, when
given, must be its degree).

--scheme certifies another scheme's signing (Falcon round 3 by default): the
key's values are read from one of its own signing attempts (FN-DSA builds
its tree with a self-adjoint LDL and normalises the leaves with its own
1/sigma table, which both sides take as exact, as compare's shadow does);
the analysed operations and the sampler's support are the same for every
scheme (the 2026 draft's base sampler has the same support, z0 in 0 to 18). --keys K
--seed S are then the keys compare --scheme signs with (--key-source as
compare's); --kat-records, the NIST KAT's keys, are round 3's only.

--pstar, instead of --backend, finds for each key the least P whose
vprec:P (round to nearest) is proven, by bisection over P = 24 to 160 with
the answer checked from both sides (P* proven, P* - 1 not), and the worst
over the keys: a certified counterpart of sweep's sampled P*. Its keys are
made in binary64, the same key for every P; --json prints {"pstar":
{"params", "per_key": [{"key", "pstar", "sum_bound_log2",
"below_sum_bound_log2"}], "worst_pstar"}}.

--json prints {"results": [...]}, one object per (backend, key) with
"backend", "scheme", "params", "key" {"source" (kat, seed or file),
"index", and for a seeded key "seed", "key_source" (FN-DSA) and
"keygen_backend" (round 3's key generation)}, "delta_c_bound_log2", "delta_sigma_log2" (null when exact),
"delta_sigma_leaf", "sum_bound_log2", "proven", "worst_call" {"call",
"leaf", "path"}, "stages" (each stage's terms at the worst call,
"bound_log2" and "share"), "error_model", "seconds" (the certificate's,
without the checks), with --check-signatures or --check-chosen
"check_shadow", with --check-signatures N "signatures",
"sampled_delta_c_max_log2" and "gap_bits" (log2 of the bound over the
sampled maximum; the dd shadow's allowance, below, is not in it), with
--check-chosen N "chosen_attempts", "chosen_deviation" (z0; absent when
drawn), "chosen_delta_c_max_log2" and "chosen_gap_bits" (a maximum and its gap are absent when every centre
checked was exact). A sampled delta_c above its bound is a bug (of the
analysis or of the model) and exits 1. A "not proven"
verdict alone exits 0 (it is not a "no"), unless --require-proven is given:
then exit 1 when any result is not proven. --check-shadow dd
measures the signatures against double-double instead of the oracle, about
13 times faster (for long soundness runs); dd's centres are within dd's own
certified bound of the oracle's, which is added, doubled, to the bound checked.
As compare's shadow, a check shadow must be 24 bits wider than the backend
(dd: up to 82 bits; the oracle, 256 bits: up to 232), or its figures would
be its own error: a narrower one is refused.

--check-chosen N runs N signing attempts on hashed points chosen for each
key instead of drawn by the hash: box vectors (every value 0 or q - 1)
aligned with the roots of unity where the key's basis is largest, which
make ffSampling's targets -- and the roundings that scale with them --
several times larger than a hashed message's. No message hashes to them
except by chance, but the certificate covers them. Their samples lie at the
edge of the sampler's support by default (--chosen-deviation 18: every
sample z0 = 18 from its centre, 18 to 19 away, where a drawn one is about
1.5 away), which the certificate covers too, whatever its probability; the
distances reach the centres through ffSampling's updates. The largest
delta_c of these attempts is a lower bound on the true worst case and checks
the bound where its magnitudes are reached (docs/certify.md gives the
measured figures; with few attempts it can fall below a sample of hashed
messages). Every attempt counts, whether or not the scheme would keep its
signature.

The first Ctrl-C stops after the signature or attempt under way, losing only
the (backend, key) under way: the finished ones are printed (--json marks the
document "interrupted": true) and certify exits 130. --checkpoint FILE saves
every (backend, key) to FILE as soon as it is finished (atomically, with a
checksum), for long checks: the same command started again resumes there, and
prints the finished ones as they were. A damaged checkpoint, one of another
run (other flags, another key file, another fprlab version), or one another
run is using (FILE.lock holds its lock) is refused.`

func newCertifyCmd(s *cli.Streams) *cobra.Command {
	opts := &certifyOptions{}
	cmd := &cobra.Command{
		Use:   "certify --backend B[,B...] --params 512|1024 (--kat-records FROM:TO | --keys K [--seed S] | --sk FILE)",
		Short: "Prove per key a bound on delta_c + delta_sigma valid for every message (exact delta_sigma, certified delta_c)",
		Long:  certifyLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Interactive = s.ErrIsTerminal
			opts.KeysSet, opts.ErrorModelSet = cmd.Flags().Changed("keys"), cmd.Flags().Changed("error-model")
			opts.ChosenDeviationSet = cmd.Flags().Changed("chosen-deviation")
			opts.CheckShadowSet = cmd.Flags().Changed("check-shadow")
			opts.ExactSigmaSet = cmd.Flags().Changed("exact-sigma")
			opts.SeedSet = cmd.Flags().Changed("seed")
			return runCertify(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Backends, "backend", "", "backends to certify, comma-separated")
	f.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	addSchemeFlag(cmd, &opts.Scheme)
	f.StringVar(&opts.KATRecords, "kat-records", "", "NIST KAT records `FROM:TO` whose keys are certified (TO excluded, at most 100)")
	f.IntVar(&opts.Keys, "keys", 0, "certify the first `K` keys of compare's seeded campaign (--seed) instead of KAT records")
	f.StringVar(&opts.Seed, "seed", "fprlab", "seed of the keys of --keys (as compare's --seed)")
	f.StringVar(&opts.SK, "sk", "", "certify the private key in `FILE` (the scheme's encoding; bytes or hex)")
	f.StringVar(&opts.KeySource, "key-source", "", keySourceUsage)
	f.StringVar(&opts.ErrorModel, "error-model", "", "declared per-operation error model `rel=2^-P[,abs=2^-E]` (required for backends without a built-in one; replaces it otherwise)")
	f.IntVar(&opts.CheckSignatures, "check-signatures", 0, "also sign `N` messages per key under compare's shadow (--check-shadow) and print the sampled maximum of delta_c beside the bound (exit 1 if it exceeds the bound)")
	f.IntVar(&opts.CheckChosen, "check-chosen", 0, "also run `N` signing attempts per key on hashed points chosen for its largest targets (see above) and print their largest delta_c beside the bound (exit 1 if it exceeds the bound)")
	f.StringVar(&opts.ChosenDeviation, "chosen-deviation", strconv.Itoa(falcon.MaxBaseSample), "where the samples of --check-chosen's attempts lie: `Z0`, the base sampler's value fixed at z0 = Z0 (0 to 18), every sample Z0 to Z0 + 1 from its centre; or drawn (by the sampler, as signing draws them)")
	f.StringVar(&opts.CheckShadow, "check-shadow", "oracle", "`KIND`, the exact side of --check-signatures and --check-chosen: oracle (the certificate's own, 256 bits) or dd (double-double, about 13 times faster; its own certified bound, doubled, is added to the bound checked; not for --backend dd)")
	f.BoolVar(&opts.Progress, "progress", false, "show the progress of --check-signatures and --check-chosen on stderr (default: when stderr is a terminal)")
	f.BoolVar(&opts.PStar, "pstar", false, "instead of --backend: the least precision P whose vprec:P (round to nearest) is proven for each key, and the worst over the keys")
	f.BoolVar(&opts.JSON, "json", false, "print the results as JSON")
	f.BoolVar(&opts.RequireProven, "require-proven", false, "exit 1 unless every (backend, key) is proven (for gating a build on the verdict)")
	f.StringVar(&opts.Checkpoint, "checkpoint", "", "save every finished (backend, key) to `FILE` and resume from it (see above)")
	f.StringVar(&opts.ExactSigma, "exact-sigma", string(shadow.SigmaFormula), "the exact 1/sigma delta_sigma is measured against, as compare's: formula or reference (--scheme fn-dsa and fn-dsa-2026: reference only, their default)")
	return cmd
}

// certifyPlan is what certify's flags ask for.
type certifyPlan struct {
	logn     uint
	from, to int // --kat-records
	// edge is --chosen-deviation (shadow.Drawn for drawn).
	edge int
	jobs []certify.Job
	sc   scheme.Scheme
	// sigma is --exact-sigma, after the scheme's default.
	sigma shadow.ExactSigma
	// campaign holds the seeded keys' campaign (--keys).
	campaign shadow.Config
}

// decimal is an unsigned decimal integer without a sign, a leading zero
// or blanks.
var decimal = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)

// chosenDeviation parses --chosen-deviation: "drawn" (shadow.Drawn) or an
// integer z0 of the base sampler's support.
func chosenDeviation(s string) (int, error) {
	if s == "drawn" {
		return shadow.Drawn, nil
	}
	z0, err := strconv.Atoi(s)
	if !decimal.MatchString(s) || err != nil || z0 < 0 || z0 > falcon.MaxBaseSample {
		return 0, fmt.Errorf("--chosen-deviation %q: want drawn or an integer 0 to %d (the base sampler's support)", s, falcon.MaxBaseSample)
	}
	return z0, nil
}

// certifyConfig validates the flags.
func certifyConfig(opts *certifyOptions) (plan certifyPlan, err error) {
	if opts.CheckSignatures < 0 || opts.CheckSignatures > 10_000_000 {
		return plan, fmt.Errorf("--check-signatures %d: want 0 to 10000000", opts.CheckSignatures)
	}
	if opts.CheckChosen < 0 || opts.CheckChosen > 10_000_000 {
		return plan, fmt.Errorf("--check-chosen %d: want 0 to 10000000", opts.CheckChosen)
	}
	if plan.edge, err = chosenDeviation(opts.ChosenDeviation); err != nil {
		return plan, err
	}
	if opts.ChosenDeviationSet && opts.CheckChosen == 0 {
		return plan, errors.New("--chosen-deviation places the samples of --check-chosen's attempts: give --check-chosen N with N > 0")
	}
	if opts.CheckShadowSet && opts.CheckSignatures == 0 && opts.CheckChosen == 0 {
		return plan, fmt.Errorf("--check-shadow %s: it is the exact side of --check-signatures and --check-chosen: give one of them with N > 0", opts.CheckShadow)
	}
	switch shadow.Kind(opts.CheckShadow) {
	case shadow.ShadowOracle:
	case shadow.ShadowDD:
		if slices.Contains(campaign.SplitBackends(opts.Backends), "dd") {
			return plan, errors.New("--check-shadow dd cannot check --backend dd (it would measure dd against itself): use --check-shadow oracle")
		}
	default:
		return plan, fmt.Errorf("--check-shadow %q: want oracle or dd", opts.CheckShadow)
	}
	if opts.ErrorModelSet && strings.TrimSpace(opts.ErrorModel) == "" {
		return plan, errors.New("--error-model is empty: want rel=2^-P[,abs=2^-E] (or leave the flag out for the built-in model)")
	}
	if opts.PStar && (opts.Backends != "" || opts.CheckSignatures != 0 || opts.CheckChosen != 0 || opts.ErrorModelSet || opts.RequireProven || opts.Checkpoint != "") {
		return plan, errors.New("--pstar certifies vprec:P formats of its own choosing: it excludes --backend, --error-model, --check-signatures, --check-chosen, --require-proven and --checkpoint")
	}
	if opts.Checkpoint != "" {
		if safefile.IsStdout(opts.Checkpoint) {
			return plan, errors.New("--checkpoint -: a checkpoint is a file certify reads back and rewrites, not standard output; give a file name")
		}
		if err := safefile.Distinct([]safefile.Arg{{Flag: "sk", Path: opts.SK}}, []safefile.Arg{{Flag: "checkpoint", Path: opts.Checkpoint}}); err != nil {
			return plan, err
		}
	}
	if opts.Backends == "" && !opts.PStar {
		return plan, errors.New("missing --backend B[,B...] (or --pstar)")
	}
	if opts.SK == "" || opts.Params != "" {
		if plan.logn, err = paramSetLogn(opts.Params); err != nil {
			return plan, err
		}
	}
	if plan.sc, err = parseScheme(opts.Scheme); err != nil {
		return plan, err
	}
	if plan.sigma, err = shadow.SigmaFor(plan.sc, opts.ExactSigma, opts.ExactSigmaSet); err != nil {
		return plan, err
	}
	if _, err := scheme.AttempterOf(plan.sc); err != nil {
		return plan, fmt.Errorf("--scheme: %w", err)
	}
	if opts.KATRecords != "" && !plan.sc.ReplaysNISTKAT() {
		return plan, fmt.Errorf("--kat-records: the NIST KAT's keys are Falcon round 3's; certify %s keys with --keys K --seed S or --sk FILE", plan.sc.Description())
	}
	ks, err := parseKeySource(opts.KeySource, plan.sc)
	if err != nil {
		return plan, err
	}
	plan.campaign = shadow.Config{LogN: plan.logn, Seed: opts.Seed, Keys: opts.Keys, KeySource: ks}
	if !scheme.IsDefault(plan.sc) {
		plan.campaign.Scheme = plan.sc
	}
	sources := 0
	for _, set := range []bool{opts.KATRecords != "", opts.Keys != 0 || opts.KeysSet, opts.SK != ""} {
		if set {
			sources++
		}
	}
	switch {
	case sources == 0:
		return plan, errors.New("missing --kat-records FROM:TO, --keys K or --sk FILE (the keys to certify)")
	case sources > 1:
		return plan, errors.New("--kat-records, --keys and --sk are three sources of keys: give one")
	case opts.KeysSet && (opts.Keys < 1 || opts.Keys > 1000):
		return plan, fmt.Errorf("--keys %d: want 1 to 1000 keys", opts.Keys)
	case !opts.KeysSet && (opts.SeedSet || opts.KeySource != ""):
		// Nothing is silently ignored: the seed and the key source make
		// the keys of --keys only.
		return plan, errors.New("--seed and --key-source make the keys of --keys K: the keys of --kat-records and --sk are given, not made")
	case opts.KATRecords != "":
		if plan.from, plan.to, err = campaign.ParseKATRecords(opts.KATRecords); err != nil {
			return plan, err
		}
	}
	if opts.PStar {
		return plan, nil
	}
	bks, err := campaign.LookupBackends(campaign.SplitBackends(opts.Backends), lookupBackend, "--backend: %s is listed twice")
	if err != nil {
		return plan, err
	}
	for _, bk := range bks {
		m, err := certify.ModelFor(bk, opts.ErrorModel)
		if err != nil {
			return plan, err
		}
		plan.jobs = append(plan.jobs, certify.Job{Backend: bk, Model: m})
	}
	if opts.CheckSignatures > 0 || opts.CheckChosen > 0 {
		// The checks measure the backend's distance from the shadow, as
		// compare does: a shadow not ShadowMargin bits wider than the
		// backend measures its own error.
		cfg := shadow.Config{Shadow: shadow.Kind(opts.CheckShadow), OracleBits: certify.DefaultOracleBits}
		if bk, narrow := campaign.NarrowShadow(bks, cfg); narrow {
			hint := "certify it without --check-signatures and --check-chosen: no check shadow is wide enough"
			if cfg.Shadow == shadow.ShadowDD && bk.Bits+campaign.ShadowMargin <= int(certify.DefaultOracleBits) {
				hint = "use --check-shadow oracle"
			}
			return plan, fmt.Errorf("--check-shadow %s (%d bits) is not %d bits wider than %s (%d bits): the sampled delta_c would be the shadow's own error, not the backend's; %s",
				opts.CheckShadow, campaign.ShadowBits(cfg), campaign.ShadowMargin, bk.Name, bk.Bits, hint)
		}
	}
	return plan, nil
}

// runCertify certifies every (backend, key) and prints the results.
func runCertify(ctx context.Context, opts *certifyOptions, s *cli.Streams) error {
	plan, err := certifyConfig(opts)
	if err != nil || s.ValidateOnly {
		return err
	}
	keysFor, logn, keyFile, err := certifyKeys(opts, s, plan)
	if err != nil {
		return err
	}
	if opts.PStar {
		return runCertifyPStar(ctx, opts, s, logn, plan.sc, plan.sigma, keysFor)
	}
	check := certify.Check{Signatures: opts.CheckSignatures, Chosen: opts.CheckChosen, Edge: plan.edge, Shadow: shadow.Kind(opts.CheckShadow), Sigma: plan.sigma}
	if opts.Progress || opts.Interactive {
		check.Progress = func(b arith.Backend, k certify.KeyRef, what string) func(done, total int) {
			if what == "chosen" {
				return cli.ProgressLines(s.Err, "certify: "+b.Name+", "+k.Name()+": --check-chosen", "attempts")
			}
			return cli.ProgressLines(s.Err, "certify: "+b.Name+", "+k.Name()+": --check-signatures", "signatures")
		}
	}
	release, err := lockCheckpoint(s, opts.Checkpoint)
	if err != nil {
		return err
	}
	defer release()
	resume, err := certifyResume(opts, s, plan, logn, keyFile)
	if err != nil {
		return err
	}
	// Interruptible between pairs and between a check's signatures, with
	// or without a checkpoint: the pairs finished are printed.
	s.StopOnInterrupt()
	out, exceeded, err := certify.All(ctx, plan.jobs, keysFor, logn, check, plan.sc, resume)
	if err != nil && ctx.Err() == nil {
		return err
	}
	interrupted := err != nil
	if out == nil {
		out = []certify.Document{} // "results": [], not null
	}
	var err2 error
	switch {
	case opts.JSON:
		doc := map[string]any{"results": out}
		if interrupted {
			doc["interrupted"] = true
		}
		err2 = cli.PrintJSON(s.Out, doc)
	case len(out) > 0 || !interrupted:
		if interrupted {
			fmt.Fprintf(s.Out, "interrupted: %d (backend, key) pairs finished, printed below; the others were not certified\n\n", len(out))
		}
		err2 = certify.WriteText(s.Out, out)
	}
	if interrupted {
		if err2 != nil {
			return err2
		}
		if opts.Checkpoint == "" {
			return &cli.ExitError{Code: cli.ExitInterrupted, Err: fmt.Errorf("interrupted: the %d (backend, key) pairs finished are printed; nothing is saved (with --checkpoint FILE a run resumes where it stopped)", len(out))}
		}
		return cli.Interrupted(opts.Checkpoint)
	}
	if err2 == nil && exceeded > 0 {
		err2 = &cli.ExitError{Code: cli.ExitFalse, Err: fmt.Errorf("%d sampled delta_c maxima (signatures or chosen hashed points) exceed their certified bound: the analysis or an error model is wrong", exceeded)}
	}
	if err2 == nil && opts.RequireProven {
		unproven := 0
		for _, d := range out {
			if !d.Proven {
				unproven++
			}
		}
		if unproven > 0 {
			err2 = &cli.ExitError{Code: cli.ExitFalse, Err: fmt.Errorf("--require-proven: %d of %d not proven (which shows no failure: the bound cannot exclude one)", unproven, len(out))}
		}
	}
	return err2
}

// certifyKeys returns the keys to certify over a backend (seeded keys
// are made over the backend, as compare makes them), the degree, read
// from the key file with --sk, and that file's content.
func certifyKeys(opts *certifyOptions, s *cli.Streams, plan certifyPlan) (func(arith.Backend) ([]certify.Key, error), uint, []byte, error) {
	logn := plan.logn
	switch {
	case opts.SK != "":
		data, err := s.ReadInput("sk", opts.SK, maxPrivateKey, cli.KeyMode)
		if err != nil {
			return nil, 0, nil, err
		}
		key, err := certify.FileKey(plan.sc, data, opts.SK, plan.logn)
		if err != nil {
			return nil, 0, nil, err
		}
		keys := []certify.Key{key}
		return func(arith.Backend) ([]certify.Key, error) { return keys, nil }, key.SK.LogN, data, nil
	case opts.Keys > 0:
		return func(b arith.Backend) ([]certify.Key, error) {
			return certify.SeededKeys(plan.campaign, b)
		}, logn, nil, nil
	}
	keys, err := certify.KATKeys(logn, plan.from, plan.to)
	if err != nil {
		return nil, 0, nil, err
	}
	return func(arith.Backend) ([]certify.Key, error) { return keys, nil }, logn, nil, nil
}

// certifyCheckpoint is the payload of certify's checkpoint: the (backend,
// key) pairs finished, as --json prints them.
type certifyCheckpoint struct {
	Done []certify.Finished `json:"done"`
}

// certifyIdentity is the identity of certify's checkpoint: every flag
// that determines the documents (the key file by its content's SHA-256,
// the degree as read from it).
func certifyIdentity(opts *certifyOptions, plan certifyPlan, logn uint, keyFile []byte) checkpoint.Identity {
	var backends []string
	for _, j := range plan.jobs {
		backends = append(backends, j.Backend.Name)
	}
	f := map[string]string{
		"backend": strings.Join(backends, ","), "params": strconv.Itoa(1 << logn), "scheme": plan.sc.Name(),
		"check-signatures": strconv.Itoa(opts.CheckSignatures), "check-chosen": strconv.Itoa(opts.CheckChosen),
		"error-model": opts.ErrorModel, "exact-sigma": string(plan.sigma),
	}
	if opts.CheckSignatures > 0 || opts.CheckChosen > 0 {
		f["check-shadow"] = opts.CheckShadow
	}
	if opts.CheckChosen > 0 {
		f["chosen-deviation"] = opts.ChosenDeviation
	}
	switch {
	case opts.SK != "":
		sum := sha256.Sum256(keyFile)
		f["sk"] = "sha256:" + hex.EncodeToString(sum[:])
	case opts.Keys > 0:
		f["keys"], f["seed"], f["key-source"] = strconv.Itoa(opts.Keys), opts.Seed, string(plan.campaign.KeySource)
	default:
		f["kat-records"] = fmt.Sprintf("%d:%d", plan.from, plan.to)
	}
	return checkpoint.Identity{Command: "certify", Flags: f, Version: version.Release()}
}

// certifyResume opens --checkpoint: the pairs an earlier run of the same
// command finished, and the function that saves each new one. nil without
// --checkpoint.
func certifyResume(opts *certifyOptions, s *cli.Streams, plan certifyPlan, logn uint, keyFile []byte) (*certify.Resume, error) {
	if opts.Checkpoint == "" {
		return nil, nil
	}
	id := certifyIdentity(opts, plan, logn, keyFile)
	var ckpt certifyCheckpoint
	found, err := checkpoint.LoadFile(opts.Checkpoint, id, &ckpt)
	if err != nil {
		return nil, err
	}
	if found {
		fmt.Fprintf(s.Err, "certify: %d (backend, key) pairs finished earlier, read from %s\n", len(ckpt.Done), opts.Checkpoint)
	}
	return &certify.Resume{Done: ckpt.Done, Save: func(done []certify.Finished) error {
		return checkpoint.Save(opts.Checkpoint, id, certifyCheckpoint{Done: done})
	}}, nil
}

// runCertifyPStar finds, per key, the least P with vprec:P proven, by
// bisection between pstarLow and certify.PStarHigh, and checks the answer: P*
// proven and P* - 1 not. Keys are made in binary64 (native), the same key
// for every P.
func runCertifyPStar(ctx context.Context, opts *certifyOptions, s *cli.Streams, logn uint, sc scheme.Scheme, sigma shadow.ExactSigma, keysFor func(arith.Backend) ([]certify.Key, error)) error {
	nat, err := lookupBackend("native")
	if err != nil {
		return err
	}
	keys, err := keysFor(nat)
	if err != nil {
		return err
	}
	s.StopOnInterrupt() // between keys: the keys finished are printed
	doc, err := certify.PStarAll(ctx, logn, keys, sc, sigma)
	if err != nil && ctx.Err() == nil {
		return err
	}
	if opts.JSON {
		err = cli.PrintJSON(s.Out, map[string]any{"pstar": doc})
	} else {
		err = doc.WriteText(s.Out, sc.Title(logn))
	}
	if err == nil && doc.Interrupted {
		err = &cli.ExitError{Code: cli.ExitInterrupted, Err: fmt.Errorf("interrupted: the certified P* of %d of %d keys are printed", len(doc.PerKey), doc.Keys)}
	}
	return err
}

// certifySummary certifies each key of the compare campaign cfg over b
// and records the bound in sum (compare --certify).
func certifySummary(cfg shadow.Config, b arith.Backend, sum *shadow.Summary) error {
	keys, err := certify.CampaignKeys(cfg, b)
	if err != nil {
		return err
	}
	c, err := certify.Summarize(b, cfg.Scheme, cfg.Sigma, keys)
	if err != nil {
		return err
	}
	sum.Certified = c
	return nil
}
