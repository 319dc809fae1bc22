package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/bench"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/cpuinfo"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// benchOptions holds the flags of bench.
type benchOptions struct {
	Backend string
	Params  string
	Ops     string
	Count   int
	MinTime time.Duration
	Clock   string
	JSON    bool
	Scheme  string
	// changed reports whether a flag was given.
	changed func(name string) bool
}

const benchLong = `bench times Falcon's operations over arithmetic backends, interleaved: each
round runs every (backend, params, op) once, in a rotating order, so that a
change in the machine's load affects all of them alike; the median over the
--count rounds is reported, with the minimum and maximum, and each backend's
ratio to emu64 and to native of the same round set (native and emu64 are
always measured for that reason).

A run repeats the operation until --min-time has passed (at least once) and
reports the time per operation. The clock is the process's CPU time by
default (user + system, all threads, the garbage collector's included): on a
shared machine it excludes the time spent waiting for a core, and it is what
the reference implementation's speed.c measures with clock(). --clock wall
measures elapsed time instead.

Keys are generated on native from a fixed seed, so every backend signs with
the same key; keygen reads a new SHAKE256 seed for each key. Verification is
integer arithmetic only (the same code for every backend): it verifies a
signature made by the backend of the row. A backend that cannot run an
operation (triword cannot generate keys) is reported on stderr and skipped.

--scheme times another scheme's keygen, sign and verify (sign_tree and
expand are round 3's): its own key generation, integer and the same on
every backend, timed on native's row only; signing with the key decoded
once, as an application holds it; verification of the row's signature.`

func newBenchCmd(s *cli.Streams) *cobra.Command {
	opts := &benchOptions{}
	cmd := &cobra.Command{
		Use:   "bench [--backend B|all] [--params 512|1024] [--op keygen,sign,sign_tree,expand,verify] [--count N] [--json]",
		Short: "Time keygen, signing, key expansion and verification per backend (interleaved runs, medians)",
		Long:  benchLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.changed = cmd.Flags().Changed
			return runBench(cmd.Context(), opts, s)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Backend, "backend", "all", "backend name, a comma-separated list, or all ("+strings.Join(bench.AllBackends, ", ")+")")
	fl.StringVar(&opts.Params, "params", "512", "degree: 512, 1024, or both (512,1024)")
	fl.StringVar(&opts.Ops, "op", strings.Join(bench.Ops, ","), "operations, comma-separated: "+strings.Join(bench.Ops, ", "))
	fl.IntVar(&opts.Count, "count", 9, "rounds (timed runs per backend, params and op)")
	fl.DurationVar(&opts.MinTime, "min-time", 20*time.Millisecond, "least duration of one run (the operation is repeated within it)")
	fl.StringVar(&opts.Clock, "clock", "cpu", "cpu (process CPU time) or wall (elapsed time)")
	addSchemeFlag(cmd, &opts.Scheme)
	fl.BoolVar(&opts.JSON, "json", false, `print a JSON array of {"backend", "params", "op", "median_ns", "min_ns", "max_ns", "runs", "ops_per_run", "clock", "ratio_to_emu64", "ratio_to_native"}`)
	return cmd
}

// parseBenchOptions validates the flags into what bench.Run measures.
func parseBenchOptions(opts *benchOptions) (*bench.Plan, error) {
	p := &bench.Plan{Rounds: opts.Count, MinTime: opts.MinTime}
	if opts.Count < 1 {
		return nil, fmt.Errorf("--count %d: want at least 1 round", opts.Count)
	}
	if opts.MinTime < 0 {
		return nil, fmt.Errorf("--min-time %v: want a duration of 0 or more", opts.MinTime)
	}
	switch opts.Clock {
	case "cpu":
	case "wall":
		p.Wall = true
	default:
		return nil, fmt.Errorf("--clock %q: want cpu or wall", opts.Clock)
	}
	if err := p.SetBackends(opts.Backend, lookupBackend); err != nil {
		return nil, err
	}
	for _, ps := range bench.SplitList(opts.Params) {
		logn, err := degreeLogn(ps)
		if err != nil {
			return nil, err
		}
		if slices.Contains(p.LogNs, logn) {
			return nil, fmt.Errorf("--params %q names Falcon-%d twice", opts.Params, 1<<logn)
		}
		p.LogNs = append(p.LogNs, logn)
	}
	if len(p.LogNs) == 0 {
		return nil, fmt.Errorf("--params %q: want 512, 1024 or 512,1024", opts.Params)
	}
	sc, err := parseScheme(opts.Scheme)
	if err != nil {
		return nil, err
	}
	p.Scheme = sc
	if err := p.SetOps(opts.Ops, opts.changed != nil && opts.changed("op")); err != nil {
		return nil, err
	}
	return p, nil
}

// runBench measures the plan of the flags (bench.Run) and prints it.
func runBench(ctx context.Context, opts *benchOptions, s *cli.Streams) error {
	plan, err := parseBenchOptions(opts)
	if err != nil {
		return err
	}
	res, err := bench.Run(ctx, plan, s.Err)
	if err != nil {
		return stepError(ctx, err)
	}
	// The CPU the figures are of (on stderr with --json, whose output is
	// the array alone).
	cpuOut := s.Out
	if opts.JSON {
		cpuOut = s.Err
	}
	fmt.Fprintf(cpuOut, "CPU: %s; vector paths (GOEXPERIMENT=simd): %v\n", cpuinfo.Model(), samplerprng.Vectorized())
	if opts.JSON {
		return cli.PrintJSON(s.Out, res)
	}
	return bench.WriteText(s.Out, res, opts.Count)
}
