package main

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/tune"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/version"
)

// tuneOptions holds the flags of tune.
type tuneOptions struct {
	Params     string
	Scheme     string
	KeySource  string
	Target     string
	Margin     float64
	Statistic  string
	Cost       string
	Signatures int
	Confirm    int
	Keys       int
	Seed       string
	Exp        int
	Rounding   string
	Start      int
	Step       int
	Floor      int
	Workers    int
	Out        string
	JSON       bool
	Progress   bool
}

const tuneLong = `tune searches for the cheapest precision plan -- a significand width for
each stage of signing (` + "fft, gram, ldl, leaf, target, ffsampling, sampler, expm, lattice" + `; see
` + "`fprlab backends`" + `, family plan) -- whose shadowed signatures keep the statistic within
--target, keep the Bernoulli trials' acceptance probabilities within
(sqrt(154)/1.312) x target relative error (what the specification's precision
argument grants the centre), and flip no decision.

It starts from the uniform plan at --start bits, lowers one stage at a time
(most expensive first) by its step, keeps a move when the plan still meets
the target on the same --signatures signatures, and halves a stage's step
when it does not; the search's measurements must stay --margin bits below
the target. Every measured plan is a point (cost, error); the Pareto front
of the plans that meet the target is printed. The chosen plan is measured again on
--confirm-signatures fresh signatures; if it misses there, the search walks
back along its accepted moves to the last plan that holds. Each front plan
is confirmed too.

Cost: --cost bits (operations x significand bits) or accel-model (uses of
25x18 DSP blocks: products tiled on 24x17, additions on 48-bit adders,
Newton-Raphson division and square root, expm_p63's polynomial), from the
operations each stage performs (counted per signature on binary64).

Formats: vprec:P (unbounded exponent, round to nearest), or with --exp E
vprec:P:eE, and --rounding rz (toward zero) or sr=SEED (stochastic).

--scheme fn-dsa searches plans of FN-DSA signing (FIPS 206 draft as go-fn-dsa
implements it; the scheme's 1/sigma table on the exact side) with FN-DSA's
own keys, the keys compare --scheme fn-dsa signs with for the same --seed
(fndsa.KeyGen of seeds derived from it); --key-source falcon signs with
round 3's keys generated on emu64, as tune --scheme fn-dsa did before FN-DSA
key generation existed. Its ApproxExp is integer, so the expm stage has no
floating-point work: it is reported as not tuned (its width changes
nothing), and the cost prices the floating-point work only. The scheme and
the key source are part of the --out identity: an FN-DSA directory written
before --key-source existed has round 3's keys and resumes with
--key-source falcon only.

--out DIR keeps every finished measurement (DIR/evaluations.json), the
result (DIR/result.json) and manifest.json (what was run, for fprlab
report --in DIR); the same command run again continues where it
stopped.`

func newTuneCmd(s *cli.Streams) *cobra.Command {
	opts := &tuneOptions{}
	cmd := &cobra.Command{
		Use:   "tune --params 512|1024 --signatures K [--target 2^-46] [--statistic per-signature-worst|per-leaf-median] [--cost bits|accel-model]",
		Short: "Mixed-precision search: the cheapest per-stage plan that meets the error target",
		Long:  tuneLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if !cmd.Flags().Changed("progress") {
				opts.Progress = s.ErrIsTerminal
			}
			if !cmd.Flags().Changed("confirm-signatures") {
				opts.Confirm = opts.Signatures
			}
			return runTune(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	f.StringVar(&opts.Target, "target", "2^-46", "error target `2^E` (or E)")
	f.Float64Var(&opts.Margin, "margin", 0.5, "bits below the target the search's own measurements must stay (confirmations are judged against the target)")
	f.StringVar(&opts.Statistic, "statistic", string(tune.PerSignatureWorst), "per-signature-worst or per-leaf-median (of delta_c + delta_sigma)")
	f.StringVar(&opts.Cost, "cost", string(tune.CostAccel), "cost model: accel-model or bits")
	f.IntVar(&opts.Signatures, "signatures", 200, "signatures per measured plan")
	f.IntVar(&opts.Confirm, "confirm-signatures", 0, "fresh signatures of each confirmation (default: --signatures)")
	f.IntVar(&opts.Keys, "keys", 1, "number of keys (round 3's generated on emu64; FN-DSA's own with --scheme fn-dsa)")
	f.StringVar(&opts.Seed, "seed", "tune", "seed of keys, messages and signing randomness")
	f.IntVar(&opts.Exp, "exp", 0, "exponent width E of the formats (default: unbounded; 11 with --rounding rz or sr)")
	f.StringVar(&opts.Rounding, "rounding", "rn", "rounding of the formats: rn, rz or sr=SEED")
	f.IntVar(&opts.Start, "start", 64, "width of the uniform plan the descent starts from")
	f.IntVar(&opts.Step, "step", 8, "first step of each stage's descent, in bits")
	f.IntVar(&opts.Floor, "floor", 16, "narrowest width tried")
	f.IntVar(&opts.Workers, "workers", 0, campaign.WorkersHelp)
	f.StringVar(&opts.Out, "out", "", "result `DIR`, resumable")
	f.BoolVar(&opts.JSON, "json", false, "print the result as JSON")
	f.BoolVar(&opts.Progress, "progress", false, "print each measurement on stderr (default: when stderr is a terminal)")
	addSchemeFlag(cmd, &opts.Scheme)
	f.StringVar(&opts.KeySource, "key-source", "", keySourceUsage)
	return cmd
}

// tuneConfig validates the flags.
func tuneConfig(opts *tuneOptions) (tune.Config, error) {
	var cfg tune.Config
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return cfg, err
	}
	ks, err := parseKeySource(opts.KeySource, sc)
	if err != nil {
		return cfg, err
	}
	logn, err := paramSetLogn(opts.Params)
	if err != nil {
		return cfg, err
	}
	t := strings.TrimPrefix(strings.TrimSpace(opts.Target), "2^")
	target, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return cfg, fmt.Errorf("--target %q: want 2^E, e.g. 2^-46", opts.Target)
	}
	st, err := tune.ParseStatistic(opts.Statistic)
	if err != nil {
		return cfg, fmt.Errorf("--statistic: %w", err)
	}
	cm, err := tune.ParseCostModel(opts.Cost)
	if err != nil {
		return cfg, fmt.Errorf("--cost: %w", err)
	}
	format, err := tune.FormatTemplate(opts.Exp, opts.Rounding)
	if err != nil {
		return cfg, err
	}
	if err := campaign.CheckWorkers(opts.Workers); err != nil {
		return cfg, err
	}
	cfg = tune.Config{
		LogN: logn, TargetLog2: target, MarginBits: opts.Margin, Statistic: st, Cost: cm,
		Signatures: opts.Signatures, Keys: opts.Keys, ConfirmSignatures: opts.Confirm, Seed: opts.Seed,
		Format: format, Start: opts.Start, Step: opts.Step, Floor: opts.Floor, Workers: opts.Workers, Scheme: sc, KeySource: ks,
	}
	return cfg, cfg.Check()
}

func runTune(ctx context.Context, opts *tuneOptions, s *cli.Streams) error {
	cfg, err := tuneConfig(opts)
	if err != nil {
		return err
	}
	if opts.Progress {
		cfg.Progress = func(line string) { fmt.Fprintln(s.Err, "tune:", line) }
	}
	var ckptPath string
	if opts.Out != "" {
		if ckptPath, err = tune.Resume(opts.Out, &cfg, version.Release()); err != nil {
			return err
		}
		s.StopOnInterrupt()
	}
	res, err := tune.Search(ctx, cfg)
	if err != nil {
		if ctx.Err() != nil {
			return cli.Interrupted(ckptPath)
		}
		return err
	}
	data, err := tune.Save(opts.Out, res, cfg, s.CommandArgv("tune"), version.Release())
	if err != nil {
		return err
	}
	if opts.JSON {
		_, err := s.Out.Write(data)
		return err
	}
	return res.WriteText(s.Out)
}
