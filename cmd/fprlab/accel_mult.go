package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/internal/cli"
)

// ---- mult ----

// accelMultOptions holds the flags of accel mult.
type accelMultOptions struct {
	accelRecordFlags
}

func newAccelMultCmd(s *cli.Streams) *cobra.Command {
	opts := &accelMultOptions{}
	cmd := &cobra.Command{
		Use:   "mult --params 512|1024",
		Short: "Mantissa multiplier designs: cost per product and per phase, and the KAT record regenerated with each",
		Long: `mult lists the 53- and 64-bit mantissa multiplier designs (schoolbook on 32-bit
limbs, tiling onto 25x18 DSPs, Comba on 16-bit limbs with one DSP, Karatsuba on 64
bits and on 64+32 bits) with their cost model (multiplier blocks, partial products,
adders, adder depth, latency and issue interval under the stated pipelining), the
products each phase of the KAT record needs (fpr_mul's 53x53 products, and for a
64-bit design also the 13 fixed-point 64x64 products of each fpr_expm_p63) with
their cycle bounds, and whether the record regenerated over emu64 with the design
as its multiplier equals the published one.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelMult(cmd.Context(), opts, s) },
	}
	opts.bind(cmd)
	return cmd
}

func runAccelMult(_ context.Context, opts *accelMultOptions, s *cli.Streams) error {
	logn, k, err := countRecord(&opts.accelRecordFlags)
	if err != nil {
		return err
	}
	res, err := accel.CheckMultipliers(logn, opts.Record, k)
	if err != nil {
		return err
	}
	if opts.JSON {
		err = cli.PrintJSON(s.Out, res)
	} else {
		err = res.WriteText(s.Out)
	}
	if err != nil {
		return err
	}
	if !res.Exact() {
		return notExactError("a multiplier design")
	}
	return nil
}
