package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/internal/cli"
)

// ---- fpru ----

type fpruOptions struct {
	accelRecordFlags
	Cycles  accel.FPRUnitCycles
	Records int
	Plot    string
}

func newAccelFpruCmd(s *cli.Streams) *cobra.Command {
	opts := &fpruOptions{Cycles: accel.DefaultFPRUnitCycles}
	cmd := &cobra.Command{
		Use:   "fpru --params 512|1024",
		Short: "HORCRUX fpr-unit: instruction model on a KAT record and the fpr-unit's speedup beside HORCRUX Table IV",
		Long: `fpru regenerates KAT record --kat-record over emu64 with FPR(s, e, m) and
FPR_NORM64 done by the bit-exact model of HORCRUX's fpr-unit instructions
(FPR_LOAD_SE, FPR_EXEC, FPR_RDHI, FPR_NORM64_EXEC/_RDHI/_RDE on 32-bit words) and
compares every rounded result with emu64's, then estimates each phase's cycles
with the fpr-unit alone, from the mean counts of the first --records KAT records
(Table IV's figures are averages over 100 KAT executions):

  optimised = baseline - mean n_FPR (soft_FPR - ext_FPR) - mean n_NORM64 (soft_NORM64 - ext_NORM64)

with HORCRUX's baseline cycles (Table IV) and per-call costs (defaults: 43 and 108
cycles in software, HORCRUX Table II; 3 with the extension, one per instruction).
The estimate is printed beside the published optimised cycles and speedups, with
the count's min and max, the speedup range of single records, and the per-call
cost the published figure implies. 'accel cycles' credits all of HORCRUX's units.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelFpru(cmd.Context(), opts, s) },
	}
	opts.bind(cmd)
	fl := cmd.Flags()
	fl.Float64Var(&opts.Cycles.SoftFPR, "soft-fpr", opts.Cycles.SoftFPR, "cycles per FPR call in software")
	fl.Float64Var(&opts.Cycles.SoftNorm64, "soft-norm64", opts.Cycles.SoftNorm64, "cycles per FPR_NORM64 call in software")
	fl.Float64Var(&opts.Cycles.ExtFPR, "ext-fpr", opts.Cycles.ExtFPR, "cycles per FPR call with the fpr-unit")
	fl.Float64Var(&opts.Cycles.ExtNorm64, "ext-norm64", opts.Cycles.ExtNorm64, "cycles per FPR_NORM64 call with the fpr-unit")
	fl.IntVar(&opts.Records, "records", 100, "KAT records whose mean counts the estimate uses, the first 1 to 100")
	fl.StringVar(&opts.Plot, "plot", "", "also write the cycle breakdown per phase as PREFIX.png and PREFIX.svg")
	return cmd
}

func runAccelFpru(ctx context.Context, opts *fpruOptions, s *cli.Streams) error {
	if err := cli.CheckPlotPrefix(opts.Plot); err != nil {
		return err
	}
	c := opts.Cycles
	for _, v := range []struct {
		name string
		x    float64
	}{{"--soft-fpr", c.SoftFPR}, {"--soft-norm64", c.SoftNorm64}, {"--ext-fpr", c.ExtFPR}, {"--ext-norm64", c.ExtNorm64}} {
		if !(v.x >= 0) || v.x > 1e9 {
			return fmt.Errorf("%s %v: want a number of cycles from 0 to 1e9", v.name, v.x)
		}
	}
	if opts.Records < 1 || opts.Records > 100 {
		return fmt.Errorf("--records %d: want 1 to 100 (the published KAT records)", opts.Records)
	}
	logn, err := opts.degree()
	if err != nil {
		return err
	}
	res, err := accel.CheckFPRUnit(ctx, logn, opts.Record, opts.Records, c)
	if err != nil {
		return stepError(ctx, err)
	}
	if opts.Plot != "" {
		inputs := fmt.Sprintf("mean counts of KAT records 0-%d; cycles per call: FPR %g in software, %g with the fpr-unit; FPR_NORM64 %g, %g", opts.Records-1, c.SoftFPR, c.ExtFPR, c.SoftNorm64, c.ExtNorm64)
		var phases []plot.FPRUnitPhase
		for _, p := range res.PhaseCycles() {
			phases = append(phases, plot.FPRUnitPhase(p))
		}
		fig, err := plot.FPRUnit(phases, 1<<logn, inputs)
		if err != nil {
			return err
		}
		if err := writeFigure(s, fig, opts.Plot); err != nil {
			return err
		}
	}
	if opts.JSON {
		err = cli.PrintJSON(s.Out, res)
	} else {
		err = res.WriteText(s.Out)
	}
	if err != nil {
		return err
	}
	if !res.Exact.Exact() {
		return notExactError("the fpr-unit model")
	}
	return nil
}
