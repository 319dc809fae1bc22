package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/scheme"
)

// fprlab accel cycles: the per-phase cycle model of package accel (counted
// operations times a platform's per-unit costs), averaged over KAT records.

type accelCyclesOptions struct {
	Params    string
	Scheme    string
	KeySource string
	Platform  string
	Records   int
	JSON      bool
	// recordsSet is whether --records was given.
	recordsSet bool
}

func newAccelCyclesCmd(s *cli.Streams) *cobra.Command {
	opts := &accelCyclesOptions{}
	cmd := &cobra.Command{
		Use:   "cycles --params 512|1024",
		Short: "Cycle model per phase: counted operations times a platform's per-unit costs, beside the published speedups",
		Long: `cycles counts the operations of the first --records NIST KAT records (each checked
against the published file) per phase -- FPR and FPR_NORM64 (the fpr packing and
normalising blocks), modp_montymul, mq_montymul, Keccak-f[1600] -- and applies a
cost table: software and accelerated cycles per operation, and the platform's
measured software cycles per phase. Per phase:

  saved     = sum over units of mean count x (software - accelerated cycles)
  optimised = baseline - saved,   speedup = baseline / optimised

printed beside the published optimised cycles and speedup, with the count's mean,
min and max over the records and the speedup range of single records. A speedup
within 10 % of the published one is reproduced; otherwise the row says which
published figure disagrees and by how much.

--platform horcrux is HORCRUX's table (software costs from its Table II,
accelerated ones from Table VII and section VI-B, baselines from Table IV);
--platform FILE.json reads a table of the same form (see accel/costs/horcrux.json).
Each miss names the accelerated cost per operation that alone would give the
published figure and the speedup with KAT record 0's counts alone (HORCRUX Table
II's run). A table with a "verify_path" section also gets the verify path bottom
up: hash-to-point's Keccak permutations, NTT and iNTT butterflies, pointwise
products and the per-coefficient rest (with the norm check), in software and on
the units, in cycles and, when the table gives energy_nj, in energy.
--platform cortex-m4f instead prices the signing calls counted over triword and
emu64 with TWFalcon's Cortex-M4F cycles per operation, beside its 40.7M / 22.5M
cycles (1.84x) for Falcon-512.
The NIST flow signs with the dynamic variant, so key expansion is part of sign.

--scheme fn-dsa prices FN-DSA's verify path only (a table with a "verify_path"
section): the FN-DSA signatures of accel counts --scheme fn-dsa, verified as
go-fn-dsa verifies -- the key's digest and hash-to-point on the Keccak unit, 2n
pointwise products instead of round 3's 3n. They are go-fn-dsa's KAT records of
the degree with their FN-DSA keys (10, j = 0 to 9; --records 1 to 10, default
all ten), or with --key-source falcon the signatures made with the keys and
seeds of the first --records NIST KAT records (round-3 keys).
The phase model is round 3's only (its baselines are measured round-3 cycles), as
is --platform cortex-m4f.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.recordsSet = cmd.Flags().Changed("records")
			return runAccelCycles(cmd.Context(), opts, s)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	fl.StringVar(&opts.Platform, "platform", "horcrux", "cost table: a built-in platform (horcrux), cortex-m4f (signing in triword against emu64), or a JSON file")
	fl.IntVar(&opts.Records, "records", 100, "KAT records to count and average, the first 1 to 100 (--scheme fn-dsa with FN-DSA keys: go-fn-dsa's, 1 to 10, default 10)")
	fl.BoolVar(&opts.JSON, "json", false, "print the report as JSON")
	addSchemeFlag(cmd, &opts.Scheme)
	fl.StringVar(&opts.KeySource, "key-source", "", "fn-dsa: keys from `SOURCE`: fn-dsa (go-fn-dsa's KAT records with their own keys; the default) or falcon (the NIST KAT records' round-3 keys)")
	return cmd
}

func runAccelCycles(ctx context.Context, opts *accelCyclesOptions, s *cli.Streams) error {
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return err
	}
	if opts.Records < 1 || opts.Records > falcon.MaxKATRequests || opts.Records > 100 {
		return fmt.Errorf("--records %d: want 1 to 100 (the published KAT records)", opts.Records)
	}
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return err
	}
	ks, err := parseKeySource(opts.KeySource, sc)
	if err != nil {
		return err
	}
	c, counted := sc.(schemeCounter)
	if !counted && !sc.ReplaysNISTKAT() {
		return fmt.Errorf("--scheme %s: accel cycles prices the NIST round-3 flow and the schemes %s", sc.Name(), strings.Join(scheme.With(isCounter), ", "))
	}
	ownKeys := counted && ks != shadow.KeysFalcon
	if ownKeys {
		n := c.KATRecordsPerDegree()
		if !opts.recordsSet {
			opts.Records = n
		}
		if opts.Records > n {
			return fmt.Errorf("--records %d: %s's KAT has %d records per degree (%s keys); --key-source falcon takes up to 100 NIST records (round-3 keys)", opts.Records, c.KATSource(), n, c.Description())
		}
	}
	if opts.Platform == "cortex-m4f" {
		if counted {
			return fmt.Errorf("--scheme %s: --platform cortex-m4f prices round-3 signing with TWFalcon's figures; it is round 3 only", sc.Name())
		}
		p, err := accel.PredictCortexM4F(logn, opts.Records)
		if err != nil {
			return err
		}
		if opts.JSON {
			return cli.PrintJSON(s.Out, p.Document())
		}
		return p.WriteText(s.Out)
	}
	t, err := accel.LoadCostTable(opts.Platform, func(path string, limit int) ([]byte, error) {
		return s.ReadInput("platform", path, limit, cli.RawFile)
	})
	if err != nil {
		return err
	}
	if counted {
		return runAccelCyclesScheme(ctx, c, logn, ownKeys, opts, t, s)
	}
	params := 1 << logn
	if _, ok := t.Phases[fmt.Sprint(params)]; !ok {
		return fmt.Errorf("--platform %s: the cost table has no figures for Falcon-%d", opts.Platform, params)
	}
	recs, counts, err := accel.CountKATPhases(ctx, logn, opts.Records)
	if err != nil {
		return stepError(ctx, err)
	}
	rep, err := accel.ModelCycles(t, params, recs, counts)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cli.PrintJSON(s.Out, rep)
	}
	return rep.WriteText(s.Out, t)
}

// runAccelCyclesScheme prices the verify path of a scheme with a counter
// over the first opts.Records records: of its own KAT with its own keys
// (ownKeys), or made with the keys of the NIST KAT records.
func runAccelCyclesScheme(ctx context.Context, sc schemeCounter, logn uint, ownKeys bool, opts *accelCyclesOptions, t *accel.CostTable, s *cli.Streams) error {
	if t.VerifyPath == nil {
		return fmt.Errorf("--scheme %s: the cost table of --platform %s has no verify_path section, and the phase model is round 3's only", sc.Name(), opts.Platform)
	}
	v, recs, err := accel.ModelCounterVerifyPath(ctx, sc, t, logn, ownKeys, opts.Records)
	if err != nil {
		return stepError(ctx, err)
	}
	ks := shadow.KeysFalcon
	if ownKeys {
		ks = shadow.KeysOf(sc)
	}
	res := accel.SchemeVerifyPath{Scheme: sc.Name(), Params: 1 << logn, KeySource: string(ks), Platform: opts.Platform, Records: recs, VerifyPath: v, Notes: sc.CyclesNotes()}
	if opts.JSON {
		return cli.PrintJSON(s.Out, res)
	}
	res.WriteText(s.Out, t, sc.Title(logn), sc.Description(), sc.KATSource(), ownKeys)
	return nil
}
