package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/safefile"
)

// plotOptions holds the flags of plot.
type plotOptions struct {
	// Kind is the argument, the kind of figure.
	Kind            string
	In, Out, Format string
	Backends        []string
	Points          int
	// Cost is cost's BACKEND=N list, CostUnit what N counts.
	Cost     []string
	CostUnit string
}

func plotLong() string {
	var b strings.Builder
	b.WriteString(`Draw one figure from the JSON documents of compare, sweep, arith errors
and tune (--json output saved to files, or tune's DIR/result.json): --in names one
document or a campaign directory (every *.json in it). The output format follows the extension of --out
(.png, .svg, .pdf); with --out - give --format.

Kinds and what they draw from:
`)
	for _, k := range plot.Kinds {
		fmt.Fprintf(&b, "  %-10s %s\n", k.Kind, k.Needs)
	}
	b.WriteString(`
histogram: log2(delta_c + delta_sigma) per backend per sampler call and per
signature (the specification's 2^-46 test), and delta_c and delta_sigma
apart (TWFalcon's 2^-37, Falcon-1024 over 10^5 signatures, on delta_c's).
precision: per-signature worst and per-call median against the significand
precision, fixed backends as points, P* (worst, median) marked. security:
bits lost at 2^64 queries and log2 of the largest query count, worst and
average case. stages: the error of each signing stage per backend. expm:
expm_p63 error over [0, ln 2) per backend, measured now against the exact
value (--backend, --points). kat: KAT records reproduced, key generations
failed and failed signing attempts against precision. ops: each operation's
largest and median error per backend, the proven bounds and the errors below
the backend's range (arith errors --json). pareto: the cost and error of every
precision plan tune measured, its Pareto front, the target and margin, and the
chosen plan's width per stage. cost: the per-signature worst and median
delta_c of each backend given --cost BACKEND=N (a figure measured outside
fprlab: Yosys cells, LUTs, cycles; --cost-unit names it) against that cost,
2^-46 marked -- examples/rtl/run.sh draws its truncations so. diverge: per
diverge document, the rate of signatures the two arithmetics sign
differently with its 95 % interval (the interval's upper end when none
differed) and the rate of key-revealing pairs.`)
	return b.String()
}

// plotShort is the one-line help, naming every kind of plot.Kinds.
func plotShort() string {
	names := make([]string, len(plot.Kinds))
	for i, k := range plot.Kinds {
		names[i] = string(k.Kind)
	}
	return "Draw a figure (" + strings.Join(names, ", ") + ") from compare, sweep, arith errors, tune or diverge JSON"
}

func newPlotCmd(s *cli.Streams) *cobra.Command {
	opts := &plotOptions{}
	cmd := &cobra.Command{
		Use:   "plot KIND --in FILE|DIR --out FILE.png|.svg|.pdf",
		Short: plotShort(),
		Long:  plotLong(),
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Kind = args[0]
			return runPlot(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.In, "in", "", "compare or sweep JSON `FILE`, or a campaign DIR (optional for expm)")
	f.StringVar(&opts.Out, "out", "", "output `FILE` (.png, .svg or .pdf; - for standard output with --format)")
	f.StringVar(&opts.Format, "format", "", "output format png, svg or pdf (default: from the extension of --out)")
	f.StringSliceVar(&opts.Backends, "backend", nil, "expm: backends to measure (default: those of the compare documents, else native, emu64, triword); histogram, stages: backends or sweep formats to draw (default: every fixed backend, and 5 swept formats chosen around each curve's P*)")
	f.IntVar(&opts.Points, "points", plot.DefaultExpmPoints, "expm: grid points over [0, ln 2)")
	f.StringArrayVar(&opts.Cost, "cost", nil, "cost: `BACKEND=N`, the cost of a backend of the compare documents (repeat per backend)")
	f.StringVar(&opts.CostUnit, "cost-unit", "", "cost: what the costs count, the x axis's label (default \"cost\")")
	return cmd
}

// runPlot reads the documents, draws the figure and writes it.
func runPlot(_ context.Context, opts *plotOptions, s *cli.Streams) error {
	kind, err := plot.ParseKind(opts.Kind)
	if err != nil {
		return err
	}
	if opts.Out == "" {
		return errors.New("--out is required (a .png, .svg or .pdf file, or - with --format)")
	}
	format := opts.Format
	if format == "" {
		if opts.Out == safefile.Stdio {
			return errors.New("--out - needs --format png, svg or pdf")
		}
		if format, err = plot.FormatOf(opts.Out); err != nil {
			return err
		}
	} else if _, err := plot.FormatOf("x." + format); err != nil {
		return fmt.Errorf("--format %q: want png, svg or pdf", format)
	} else if ext, err := plot.FormatOf(opts.Out); err == nil && ext != format {
		return fmt.Errorf("--format %s contradicts --out %s, whose extension says %s: give one of them", format, opts.Out, ext)
	}
	if opts.Points < 1 {
		return fmt.Errorf("--points %d: need at least 1", opts.Points)
	}
	cost, err := parseCosts(kind, opts.Cost)
	if err != nil {
		return err
	}
	c := &results.Campaign{}
	switch {
	case opts.In != "":
		if c, err = results.Read(opts.In); err != nil {
			return err
		}
		if err := safefile.Distinct(c.InputArgs("in"), []safefile.Arg{{Flag: "out", Path: opts.Out}}); err != nil {
			return err
		}
		noteRenamed(s, c)
	case kind != plot.KindExpm:
		return fmt.Errorf("--in is required for %s (a compare or sweep JSON file, or a directory of them)", kind)
	}
	fig, err := plot.Draw(kind, c, plot.Options{ExpmBackends: opts.Backends, ExpmPoints: opts.Points, Select: opts.Backends, Cost: cost, CostUnit: opts.CostUnit})
	if err != nil {
		if errors.Is(err, results.ErrNoData) && opts.In != "" {
			return fmt.Errorf("%s: %w", opts.In, err)
		}
		return err
	}
	data, err := fig.Bytes(format)
	if err != nil {
		return err
	}
	return s.WriteOutputs(safefile.File{Path: opts.Out, Data: data})
}

// parseCosts reads the --cost BACKEND=N list (the last '=' separates: a
// plugin's path may hold one), which only the cost figure takes and needs.
func parseCosts(kind plot.Kind, list []string) (map[string]float64, error) {
	if kind != plot.KindCost {
		if len(list) > 0 {
			return nil, fmt.Errorf("--cost is for plot cost, not plot %s", kind)
		}
		return nil, nil
	}
	if len(list) == 0 {
		return nil, errors.New("plot cost needs --cost BACKEND=N for each backend to draw (for instance --cost so:./lib.so=20052)")
	}
	cost := map[string]float64{}
	for _, e := range list {
		i := strings.LastIndex(e, "=")
		if i <= 0 {
			return nil, fmt.Errorf("--cost %q: want BACKEND=N", e)
		}
		v, err := strconv.ParseFloat(e[i+1:], 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("--cost %q: %q is not a finite cost of 0 or more", e, e[i+1:])
		}
		if _, dup := cost[e[:i]]; dup {
			return nil, fmt.Errorf("--cost: backend %s given twice", e[:i])
		}
		cost[e[:i]] = v
	}
	return cost, nil
}
