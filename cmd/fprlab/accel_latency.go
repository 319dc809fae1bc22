package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/internal/cli"
)

// fprlab accel latency: end-to-end signing cycles of a signer built from
// units (accel.ModelSignLatency).

type accelLatencyOptions struct {
	Params  string
	Records int
	Units   accel.SignUnits
	JSON    bool
}

func newAccelLatencyCmd(s *cli.Streams) *cobra.Command {
	opts := &accelLatencyOptions{Units: accel.DefaultSignUnits}
	cmd := &cobra.Command{
		Use:   "latency --params 512|1024",
		Short: "Cycles per signature of a signer built from an FFT unit, an fpr datapath, the ffSampling state machine, a SamplerZ pipeline and a host interface",
		Long: `latency signs the first --records NIST KAT records (keys over emu64) and prices
each signature on a chosen set of units, one after another:

  host transfers        2n 32-bit words (key f, g, F, G; hashed message; s2)
  FFT unit              the operations of the plan stages fft, gram, target and
                        lattice, 10 per radix-2 complex butterfly
  ffSampling actuation  the operations of the stages ldl, leaf and ffsampling
                        on the fpr datapath
  ffSampling control    6(n-1) + 2n state transitions per attempt, and 2(n-1)
                        pushes and pops of an 8-word stack frame
  SamplerZ              the leaves' pairs on the chosen pipeline, simulated on
                        the attempts of the same signatures

Operation counts, transitions, leaves and sampler attempts are measured on the
signatures; the throughputs are the design's, given by the flags (they are
not published figures).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelLatency(cmd.Context(), opts, s) },
	}
	fl := cmd.Flags()
	u := &opts.Units
	fl.StringVar(&opts.Params, "params", "", "degree: 512 or 1024")
	fl.IntVar(&opts.Records, "records", 10, "KAT records to sign, the first 1 to 100")
	fl.Float64Var(&u.FFTButterflies, "fft-butterflies", u.FFTButterflies, "FFT unit: complex butterflies per cycle")
	fl.Float64Var(&u.FPROpsPerCycle, "fpr-ops", u.FPROpsPerCycle, "fpr datapath: operations per cycle")
	fl.Float64Var(&u.TransitionCycles, "transition-cycles", u.TransitionCycles, "state machine: cycles per state entered")
	fl.Float64Var(&u.StackWordCycles, "stack-word-cycles", u.StackWordCycles, "state machine: cycles per stack word pushed or popped")
	fl.Float64Var(&u.TransferCycles, "transfer-cycles", u.TransferCycles, "host interface: cycles per 32-bit word")
	fl.StringVar(&u.Sampler, "sampler", u.Sampler, "SamplerZ design (a serial or alternating row of 'accel ripst')")
	fl.BoolVar(&opts.JSON, "json", false, "print the result as JSON")
	return cmd
}

func runAccelLatency(_ context.Context, opts *accelLatencyOptions, s *cli.Streams) error {
	logn, err := katDegreeLogn(opts.Params)
	if err != nil {
		return err
	}
	if opts.Records < 1 || opts.Records > 100 {
		return fmt.Errorf("--records %d: want 1 to 100 (the published KAT records)", opts.Records)
	}
	l, err := accel.ModelSignLatency(logn, opts.Records, opts.Units)
	if err != nil {
		return err
	}
	if opts.JSON {
		return cli.PrintJSON(s.Out, l)
	}
	return l.WriteText(s.Out)
}
