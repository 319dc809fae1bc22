package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/internal/cli"
)

// ---- ffsampling ----

type ffsOptions struct {
	accelRecordFlags
	Signatures int
	Seed       string
}

func newAccelFFSamplingCmd(s *cli.Streams) *cobra.Command {
	opts := &ffsOptions{}
	cmd := &cobra.Command{
		Use:   "ffsampling --params 512|1024",
		Short: "ffSampling as a state machine with an explicit stack: depth, memory, transitions; checked bit for bit",
		Long: `ffsampling regenerates the KAT record with crypto_sign's ffSampling run by the
state machine and checks it against the published file, then signs the record's
message with its key --signatures more times (compressed format, nonce and
sampler seeds from SHAKE256(seed || i) for signature i), once with Falcon's
recursive ffSampling and once with the state machine that hardware
runs (Peregrino: S_FFSAMPLING at three checkpoints, S_RIGHT, S_LEFT, ascend; a
custom stack of frames holding six region addresses, the degree and the
checkpoint), checks that the signatures are equal, and reports the stack depth,
the memory words held at the deepest point (stack plus the workspace of 9n
floating-point values) and the state transitions per signature.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runAccelFFSampling(cmd.Context(), opts, s) },
	}
	opts.bind(cmd)
	cmd.Flags().IntVar(&opts.Signatures, "signatures", 4, "signatures to make, 1 to 1000")
	cmd.Flags().StringVar(&opts.Seed, "seed", "fprlab accel ffsampling", "seed string of the random streams")
	return cmd
}

func runAccelFFSampling(ctx context.Context, opts *ffsOptions, s *cli.Streams) error {
	if opts.Signatures < 1 || opts.Signatures > 1000 {
		return fmt.Errorf("--signatures %d: want 1 to 1000", opts.Signatures)
	}
	logn, err := opts.degree()
	if err != nil {
		return err
	}
	res, err := accel.CompareFFSampling(ctx, logn, opts.Record, opts.Signatures, opts.Seed)
	if err != nil {
		return stepError(ctx, err)
	}
	if opts.JSON {
		err = cli.PrintJSON(s.Out, res)
	} else {
		err = res.WriteText(s.Out)
	}
	if err != nil {
		return err
	}
	if !res.BitExact || !res.KATMatch {
		return &cli.ExitError{Code: cli.ExitFalse, Err: errors.New("the state machine's signatures, results or sampler outputs differ from the recursive ffSampling's (or the KAT record)")}
	}
	return nil
}
