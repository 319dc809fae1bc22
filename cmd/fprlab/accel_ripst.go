package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/internal/cli"
)

// ---- ripst ----

type ripstOptions struct {
	Params     string
	Records    int
	Backend    string
	JSON       bool
	Plot       string
	Acceptance bool
}

func newAccelRipstCmd(s *cli.Streams) *cobra.Command {
	opts := &ripstOptions{}
	cmd := &cobra.Command{
		Use:   "ripst",
		Short: "Pipelined SamplerZ: the RIPST table and a cycle-level simulation on the accept/reject sequence of real signing",
		Long: `ripst prints the rejection-inclusive pair sampling time of the SamplerZ designs
compared by Vojacek and Novotny (TCHES 2026/4), from the serial, alternating,
parallel_last and parallel_both formulas with p = 0.575752, then simulates each
design cycle by cycle (serial: lanes 1; the pipelined design: alternating, lanes
2) on the attempts per sample of real signing: the first --records NIST KAT
records of --params signed over --backend. Random bits per pair are given for the
reference's byte-wise BerExp (bits per attempt measured in the run) and for the
two-Bernoulli 64-bit acceptance (two full 64-bit words per attempt), over the
attempts a speculative pipeline issues and over the attempts needed.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelRipst(cmd.Context(), opts, s) },
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Params, "params", "512", "degree of the signing runs: 512 or 1024")
	fl.IntVar(&opts.Records, "records", 10, "KAT records to sign, 1 to 100")
	fl.StringVar(&opts.Backend, "backend", "emu64", "signing backend (see 'fprlab backends')")
	fl.BoolVar(&opts.JSON, "json", false, "print an array of rows: the table, then the simulations (\"simulated\": true)")
	fl.StringVar(&opts.Plot, "plot", "", "also write the RIPST comparison as PREFIX.png and PREFIX.svg")
	fl.BoolVar(&opts.Acceptance, "acceptance", false, "instead, compare the acceptance probability of each attempt under the byte-wise BerExp and the two-Bernoulli design with the exact one (emu64)")
	return cmd
}

func runAccelRipst(_ context.Context, opts *ripstOptions, s *cli.Streams) error {
	if err := cli.CheckPlotPrefix(opts.Plot); err != nil {
		return err
	}
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return err
	}
	if opts.Records < 1 || opts.Records > 100 {
		return fmt.Errorf("--records %d: want 1 to 100", opts.Records)
	}
	if opts.Acceptance {
		if opts.Plot != "" || opts.Backend != "emu64" {
			return errors.New("--acceptance runs over emu64 and draws no plot: drop --backend and --plot")
		}
		c, err := accel.CompareAcceptance(logn, opts.Records)
		if err != nil {
			return err
		}
		if opts.JSON {
			return cli.PrintJSON(s.Out, c)
		}
		return c.WriteText(s.Out)
	}
	rep, err := accel.CompareRIPST(logn, opts.Records, opts.Backend)
	if err != nil {
		return err
	}
	if opts.Plot != "" {
		inputs := fmt.Sprintf("acceptance rate p = %g; simulation: Falcon-%d, %d KAT records, %s", accel.AcceptRate, 1<<logn, opts.Records, opts.Backend)
		var bars []plot.RIPSTBar
		for _, p := range rep.Pairs() {
			bars = append(bars, plot.RIPSTBar(p))
		}
		fig, err := plot.RIPST(bars, inputs)
		if err != nil {
			return err
		}
		if err := writeFigure(s, fig, opts.Plot); err != nil {
			return err
		}
	}
	if opts.JSON {
		return cli.PrintJSON(s.Out, rep.Rows())
	}
	return rep.WriteText(s.Out)
}
