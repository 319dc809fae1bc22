package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/falcon/katref"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/safefile"
)

// fprlab accel: the hardware datapath models of package accel, replayed on
// real Falcon runs (NIST KAT records). This file holds the parent command
// and what its subcommands share; each subcommand lives in accel_NAME.go,
// its experiment in package accel.

func newAccelCmd(s *cli.Streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "accel",
		Short: "Hardware models of Falcon's datapaths replayed on real runs: counts, fpr-unit, multipliers, ffSampling, SamplerZ",
		Long: `accel replays NIST KAT records through bit-exact models of hardware datapaths
and reports what they cost:

  counts      operation counts per phase (fpr operations as the reference's FPEMU
              build counts them, mq_montymul, Keccak-f[1600])
  fpru        the HORCRUX fpr-unit: instruction model checked on the record, and
              the estimated speedup per phase beside HORCRUX Table IV
  mult        mantissa multiplier designs (schoolbook, 25x18 DSP tiling, Comba,
              Karatsuba 64 and 64+32): cost, and the record regenerated with each
  ffsampling  ffSampling as a state machine with an explicit stack: depth,
              memory and state transitions, checked against the recursive version
  ripst       pipelined SamplerZ: the RIPST table and a cycle-level simulation
              driven by the accept/reject sequence of real signing
  cycles      cycles per phase from counted operations and a platform's cost
              table, over up to 100 KAT records, beside HORCRUX Table IV, and the
              verify path on Keccak and NTT units
  latency     cycles per signature of a signer built from an FFT unit, an fpr
              datapath, the ffSampling state machine, a SamplerZ pipeline and a
              host interface`,
		// Run without a subcommand: see cli.RequireSubcommand.
	}
	cmd.AddCommand(newAccelCountsCmd(s), newAccelFpruCmd(s), newAccelMultCmd(s), newAccelFFSamplingCmd(s), newAccelRipstCmd(s), newAccelCyclesCmd(s), newAccelLatencyCmd(s))
	return cmd
}

// accelRecordFlags are the flags that choose a KAT record.
type accelRecordFlags struct {
	Params string
	Record int
	JSON   bool
}

func (f *accelRecordFlags) bind(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.Params, "params", "", "degree: 512 or 1024")
	fl.IntVar(&f.Record, "kat-record", 0, "NIST KAT record, 0 to 99")
	fl.IntVar(&f.Record, "record", 0, "the same as --kat-record")
	fl.BoolVar(&f.JSON, "json", false, "print the result as JSON")
}

// degree validates the flags and returns logn.
func (f *accelRecordFlags) degree() (uint, error) {
	logn, err := katDegreeLogn(f.Params)
	if err != nil {
		return 0, err
	}
	ref, err := katref.Lookup(logn)
	if err != nil {
		return 0, err
	}
	if f.Record < 0 || f.Record >= ref.Records {
		return 0, fmt.Errorf("--kat-record %d: want a record of the published KAT, 0 to %d", f.Record, ref.Records-1)
	}
	return logn, nil
}

// countRecord counts the record the flags choose and checks it against
// the published file.
func countRecord(f *accelRecordFlags) (uint, *accel.KATCounts, error) {
	logn, err := f.degree()
	if err != nil {
		return 0, nil, err
	}
	k, err := accel.CountPublishedRecord(logn, f.Record)
	if err != nil {
		return 0, nil, err
	}
	return logn, k, nil
}

// stepError is the error of an experiment that stops between its steps
// when ctx is cancelled: the interrupt, not ctx's error.
func stepError(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return cli.Interrupted("")
	}
	return err
}

// notExactError is the failure of a command whose datapath is not exact
// (accel.ExactCheck).
func notExactError(what string) error {
	return &cli.ExitError{Code: cli.ExitFalse, Err: fmt.Errorf("%s: not bit-exact (see the digests above)", what)}
}

// writeFigure writes fig as PREFIX.png and PREFIX.svg.
func writeFigure(s *cli.Streams, fig *plot.Figure, prefix string) error {
	png, err := fig.Bytes("png")
	if err != nil {
		return err
	}
	svg, err := fig.Bytes("svg")
	if err != nil {
		return err
	}
	return s.WriteOutputs(safefile.File{Path: prefix + ".png", Data: png}, safefile.File{Path: prefix + ".svg", Data: svg})
}
