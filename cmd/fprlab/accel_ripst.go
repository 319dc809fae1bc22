package main

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/plot"
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

func newAccelRipstCmd(s *streams) *cobra.Command {
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

func runAccelRipst(_ context.Context, opts *ripstOptions, s *streams) error {
	if err := checkPlotPrefix(opts.Plot); err != nil {
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
		return printAcceptance(logn, opts, s)
	}
	rows, err := accel.RIPSTTable()
	if err != nil {
		return err
	}
	rec, err := accel.KATSamplerRecord(opts.Backend, logn, opts.Records)
	if err != nil {
		return err
	}
	bits := rec.RandomBitsPerAttempt()
	sim, err := accel.SimulateRIPST(rec, logn, opts.Backend)
	if err != nil {
		return err
	}
	rows = append(rows, sim...)
	if opts.Plot != "" {
		inputs := fmt.Sprintf("acceptance rate p = %g; simulation: Falcon-%d, %d KAT records, %s", accel.AcceptRate, 1<<logn, opts.Records, opts.Backend)
		fig, err := plot.RIPST(ripstBars(rows), inputs)
		if err != nil {
			return err
		}
		if err := s.writeFigure(fig, opts.Plot); err != nil {
			return err
		}
	}
	if opts.JSON {
		return printJSON(s.Out, rows)
	}
	w := s.Out
	fmt.Fprintf(w, "RIPST (p = %g), Vojacek and Novotny, TCHES 2026/4\n\n", accel.AcceptRate)
	fmt.Fprintf(w, "%-28s %-13s %6s %6s %5s %10s %10s\n", "DESIGN", "MODEL", "TTFS", "TTNS", "MHZ", "CYCLES", "NS")
	for _, r := range rows[:len(accel.SamplerDesigns)] {
		fmt.Fprintf(w, "%-28s %-13s %6g %6g %5g %10.2f %10.2f\n", r.Design, r.Model, r.TTFS, r.TTNS, r.MHz, r.RIPSTCycles, r.RIPSTNs)
	}
	fmt.Fprintf(w, "\nSimulated on %d leaf pairs of real signing (Falcon-%d, %d KAT records, %s): %.4f attempts per pair, %.3f random bits per attempt (byte-wise BerExp)\n",
		sim[0].Pairs, 1<<logn, opts.Records, opts.Backend, sim[0].UsefulPerPair, bits)
	pm := accel.AcceptanceRate(rec.Attempts)
	pd := accel.SamplerDesigns[len(accel.SamplerDesigns)-1]
	alt, err := accel.RIPSTCycles(pd.Model, pd.TTFS, pd.TTNS, pm)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "Measured acceptance rate %.4f over %d attempts (%d samples), beside the table's p = %g; the %s formula\nat the measured rate gives %.2f cycles for %s (TTFS %g, TTNS %g).\n\n",
		pm, sumInts(rec.Attempts), len(rec.Attempts), accel.AcceptRate, pd.Model, alt, pd.Name, pd.TTFS, pd.TTNS)
	fmt.Fprintf(w, "%-28s %5s %10s %10s %10s %12s %12s %12s\n", "DESIGN", "LANES", "CYC/PAIR", "NS/PAIR", "ISSUED", "BITS BYTEW", "BITS 2xBER64", "BITS NEEDED")
	for _, r := range sim {
		fmt.Fprintf(w, "%-28s %5d %10.3f %10.2f %10.3f %12.1f %12.1f %12.1f\n", r.Design, r.Lanes, r.CyclesPerPair, r.RIPSTNs, r.IssuedPerPair,
			r.RandomBitsPerPair, r.RandomBitsPerPairTwoBern, r.RandomBitsPerPairUseful)
	}
	m := accel.PipelinedMeasured
	_, err = fmt.Fprintf(w, `
Their hardware measured %.2f cycles and %.2f random bits per pair
(%s). The simulation's bits count
every issued attempt with the reference's per-attempt randomness (72-bit base sample, sign byte, BerExp bytes)
or with two full 64-bit Bernoulli words; the pipelined design's own, smaller per-attempt budget is not in the
published abstract, so %.2f is not reproduced (it implies about %.1f bits per issued attempt).
`, m.CyclesPerPair, m.RandomBitsPerPair, m.Source, m.RandomBitsPerPair, m.RandomBitsPerPair/sim[len(sim)-1].IssuedPerPair)
	return err
}

// sumInts is the sum of xs.
func sumInts(xs []int) int {
	var t int
	for _, x := range xs {
		t += x
	}
	return t
}

// printAcceptance prints accel.CompareAcceptance (ripst --acceptance).
func printAcceptance(logn uint, opts *ripstOptions, s *streams) error {
	c, err := accel.CompareAcceptance(logn, opts.Records)
	if err != nil {
		return err
	}
	if opts.JSON {
		return printJSON(s.Out, c)
	}
	w := s.Out
	fmt.Fprintf(w, "SamplerZ acceptance on %d attempts of real signing (Falcon-%d, %d KAT records, emu64), against exact ccs exp(-x)\n\n", c.Attempts, c.Params, c.Records)
	fmt.Fprintf(w, "%-18s %14s %16s %16s\n", "DESIGN", "MAX REL ERR", "MEAN |P - P*|", "MAX |P - P*|")
	for _, d := range c.Designs {
		fmt.Fprintf(w, "%-18s %14s %16s %16s\n", d.Design, log2Str(d.MaxRelErr), log2Str(d.MeanAbsDiff), log2Str(d.MaxAbsDiff))
	}
	_, err = fmt.Fprintln(w, `
bytewise_berexp: the reference's BerExp over emu64's expm_p63 (fixed-point polynomial after range reduction).
two_bernoulli64: exp(-x) in binary64 without range reduction (math.Exp, within one ulp), then two 64-bit
Bernoulli trials. Mean |P - P*| is the rate of decisions an exact sampler would take otherwise (best
coupling). Both see the same x and ccs, computed by emu64: errors upstream of the trial are not included.`)
	return err
}

// log2Str prints a positive value as a power of two.
func log2Str(x float64) string {
	if !(x > 0) {
		return "0"
	}
	return fmt.Sprintf("2^%.2f", math.Log2(x))
}

// ripstBars pairs each table row with its simulation, for the plot.
func ripstBars(rows []accel.RIPSTRow) []plot.RIPSTBar {
	var bars []plot.RIPSTBar
	for _, r := range rows {
		if !r.Simulated {
			bars = append(bars, plot.RIPSTBar{Design: r.Design, Ns: r.RIPSTNs})
		}
	}
	for _, r := range rows {
		for i := range bars {
			if r.Simulated && bars[i].Design == r.Design {
				bars[i].SimNs, bars[i].HasSimulation = r.RIPSTNs, true
			}
		}
	}
	return bars
}
