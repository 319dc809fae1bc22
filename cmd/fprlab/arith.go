package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/version"
)

func newArithCmd(s *cli.Streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "arith",
		Short: "Measure arithmetic backends operation by operation against the oracle",
		// Run without a subcommand: see cli.RequireSubcommand.
	}
	cmd.AddCommand(newArithErrorsCmd(s))
	return cmd
}

// unboundedNote is printed with every vprec result.
func unboundedNote(b arith.Backend) string {
	if a, ok := b.Impl.(interface{ Virtual() bool }); ok && a.Virtual() {
		return fmt.Sprintf("%s models a %d-bit significand only: its exponent range is unbounded (no overflow, underflow or subnormals)", b.Name, b.Bits)
	}
	return ""
}

// progressThreshold is the number of samples per operation from which
// progress is reported on stderr.
const progressThreshold = 100_000

// arithErrorsOptions holds the flags of arith errors.
type arithErrorsOptions struct {
	Backend, Ops string
	N            int
	Seed         uint64
	Emin, Emax   int
	JSON         bool
	Checkpoint   string
}

const arithErrorsLong = `errors draws random inputs for each operation (add, sub, mul, sqr, inv, div,
sqrt, of, rint, floor, trunc, expm_p63), runs the backend and the oracle
(256-bit big floats) on them and reports the largest and the median relative
error as log2, the correct bits in the worst case, and, for backends with a
proven bound (triword), the bound and the ratio worst/bound.

Floating-point operands and exact results have binary exponents in
--emin..--emax (Falcon's range -110..80 by default), with random significands
and signs; sqrt takes positive operands, of takes int64 values of 0..63 bits,
rint/floor/trunc values below 2^62 in magnitude (one in eight an exact tie),
expm_p63 takes x in [0, ln 2) and ccs in [0, 1). The inputs are binary64
values imported with FromFloat64, the same for every backend for a given
--seed; a backend with fewer than 53 bits rounds them, and its errors are
measured on the rounded inputs.

Errors are |got - exact| / |exact|, except: integer results relative to
max(1, |exact|); expm_p63 relative to its full scale 2^63; an exact zero
result counts as error 1 if the backend's result is not zero. In --json
output, log2 errors of zero (exact) are null.

--backend all measures every registered backend (not the name:P families)
in turn; the JSON array then holds every backend's rows.

Long runs: with --checkpoint FILE every finished operation is saved to FILE
(atomically); run the same command again after an interruption (Ctrl-C)
and the finished operations are taken from FILE instead of being measured
again. The file records --n, --seed, --emin, --emax and the program version
and carries a checksum: a damaged checkpoint or another run's is refused.`

func newArithErrorsCmd(s *cli.Streams) *cobra.Command {
	opts := &arithErrorsOptions{}
	cmd := &cobra.Command{
		Use:   "errors --backend NAME",
		Short: "Measure the relative error of each operation of a backend against the 256-bit oracle",
		Long:  arithErrorsLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runArithErrors(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Backend, "backend", "", "`NAME` of the backend to measure, or all (see 'fprlab backends')")
	f.StringVar(&opts.Ops, "op", "all", "operation, comma-separated operations, or all: "+strings.Join(arith.OpNames, ", "))
	f.IntVar(&opts.N, "n", 100_000, "samples per operation")
	f.Uint64Var(&opts.Seed, "seed", 1, "seed of the input generator")
	f.IntVar(&opts.Emin, "emin", analysis.MinExp, fmt.Sprintf("smallest binary exponent of operands and results (-%d..-4)", analysis.ExpLimit))
	f.IntVar(&opts.Emax, "emax", analysis.MaxExp, fmt.Sprintf("largest binary exponent of operands and results (4..%d)", analysis.ExpLimit))
	f.BoolVar(&opts.JSON, "json", false, "print a JSON array, one object per operation")
	f.StringVar(&opts.Checkpoint, "checkpoint", "", "save finished operations to `FILE` and resume from it")
	return cmd
}

// runArithErrors measures the operations of the backends and prints them.
func runArithErrors(ctx context.Context, opts *arithErrorsOptions, s *cli.Streams) error {
	backends, err := backendsOrAll(opts.Backend)
	if err != nil {
		return err
	}
	opList, err := arith.ParseOps(opts.Ops)
	if err != nil {
		return err
	}
	if opts.N < 1 || opts.N > analysis.MaxSamples {
		return fmt.Errorf("--n %d out of range 1..%d", opts.N, analysis.MaxSamples)
	}
	// Checked here, not left to analysis, where 0 means "the default":
	// --emin 0 must be refused, not replaced.
	if opts.Emin < -analysis.ExpLimit || opts.Emin > -4 {
		return fmt.Errorf("--emin %d: the exponent range needs -%d <= emin <= -4", opts.Emin, analysis.ExpLimit)
	}
	if opts.Emax < 4 || opts.Emax > analysis.ExpLimit {
		return fmt.Errorf("--emax %d: the exponent range needs 4 <= emax <= %d", opts.Emax, analysis.ExpLimit)
	}
	cfg := analysis.OpErrorConfig{N: opts.N, Seed: opts.Seed, MinExp: opts.Emin, MaxExp: opts.Emax}
	if opts.N >= progressThreshold {
		cfg.Progress = progressPrinter(s.Err)
	}
	release, err := lockCheckpoint(s, opts.Checkpoint)
	if err != nil {
		return err
	}
	defer release()
	ckpt, err := loadErrorsCheckpoint(opts, cfg, s)
	if err != nil {
		return err
	}
	var rows []results.OpError
	for i, b := range backends {
		ops, err := measureOps(ctx, b, opList, cfg, ckpt, opts, s)
		if err != nil {
			return err
		}
		note := unboundedNote(b)
		if opts.JSON {
			for _, r := range ops {
				r.Note = note
				rows = append(rows, r)
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(s.Out)
		}
		if err := analysis.WriteOpErrorText(s.Out, b, cfg, ops, note); err != nil {
			return err
		}
	}
	if opts.JSON {
		return cli.PrintJSON(s.Out, rows)
	}
	return nil
}

// measureOps measures each operation on b, taking finished ones from the
// checkpoint and saving new ones to it.
func measureOps(ctx context.Context, b arith.Backend, ops []string, cfg analysis.OpErrorConfig, ckpt *analysis.OpErrorCheckpoint, opts *arithErrorsOptions, s *cli.Streams) ([]results.OpError, error) {
	var have func(op string) (results.OpError, bool)
	if ckpt != nil {
		have = ckpt.Have(b.Name)
	}
	done := func(r results.OpError, took time.Duration) error {
		if cfg.Progress != nil {
			fmt.Fprintf(s.Err, "arith errors: %s %s done: %d samples in %.1f s\n", b.Name, r.Op, cfg.N, took.Seconds())
		}
		if ckpt == nil {
			return nil
		}
		return ckpt.Add(r)
	}
	res, err := analysis.MeasureOpErrorsFrom(ctx, b, ops, cfg, have, done)
	if err != nil && ctx.Err() != nil {
		return nil, cli.Interrupted(opts.Checkpoint)
	}
	return res, err
}

// progressPrinter reports each operation's progress on w as
// cli.ProgressLines does (at most every two seconds, with its rate and
// ETA).
func progressPrinter(w io.Writer) func(op string, done, total int) {
	var mu sync.Mutex
	lines := map[string]func(done, total int){}
	return func(op string, done, total int) {
		if done == total {
			return // measureOps reports the operation done
		}
		mu.Lock()
		p, ok := lines[op]
		if !ok || done == 0 {
			// The operation starts: its clock too.
			p = cli.ProgressLines(w, "arith errors: "+op, "samples")
			lines[op] = p
		}
		mu.Unlock()
		if done > 0 {
			p(done, total)
		}
	}
}

// loadErrorsCheckpoint reads --checkpoint, if given (nil without one).
func loadErrorsCheckpoint(o *arithErrorsOptions, cfg analysis.OpErrorConfig, s *cli.Streams) (*analysis.OpErrorCheckpoint, error) {
	if o.Checkpoint == "" {
		return nil, nil
	}
	ckpt, err := analysis.LoadOpErrorCheckpoint(o.Checkpoint, cfg, version.Release())
	if err != nil {
		return nil, err
	}
	if n := ckpt.Len(); n > 0 {
		fmt.Fprintf(s.Err, "arith errors: resuming from %s: %d operations already measured\n", o.Checkpoint, n)
	}
	return ckpt, nil
}
