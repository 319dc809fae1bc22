package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	_ "github.com/fprlab/fprlab/arith/plan" // and precision plans
	"github.com/fprlab/fprlab/internal/cli"
	_ "github.com/fprlab/fprlab/valuetype" // every backend, its value type registered with every consumer
)

// commands lists the top-level commands. A new command adds its
// constructor here (no init-time registration: the list is the one place
// that says what the program contains).
func commands(s *cli.Streams) []*cobra.Command {
	return []*cobra.Command{
		newKatCmd(s),
		newCompareCmd(s),
		newDivergeCmd(s),
		newCertifyCmd(s),
		newLeakCmd(s),
		newSweepCmd(s),
		newTuneCmd(s),
		newMergeCmd(s),
		newDiffCmd(s),
		newRecordsCmd(s),
		newCampaignCmd(s),
		newArithCmd(s),
		newKeygenCmd(s),
		newSignCmd(s),
		newVerifyCmd(s),
		newAccelCmd(s),
		newBenchCmd(s),
		newBackendsCmd(s),
		newPlotCmd(s),
		newReportCmd(s),
		newVersionCmd(s),
	}
}

func newRootCmd(s *cli.Streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "fprlab",
		Short: "Which floating-point arithmetic is precise enough for Falcon, and what does it cost?",
		Long: `fprlab runs the Falcon signature scheme (round 3, Falcon-impl-20211101) over
interchangeable floating-point backends -- integer-emulated binary64, native
binary64, triple-word binary32, and a big-float oracle -- and measures each:
KAT conformance, operation errors against the oracle, and sampler error
bounds against an exact shadow (double-double by default, or the oracle).

Files: "-" as an output means standard output. Outputs are written
atomically (temporary file, then rename); symbolic links are written
through; devices and pipes are written into, never replaced. A directory
(DIR) is never "-", and a path given empty is refused, not taken as absent.

Shell completion: fprlab completion bash|zsh|fish|powershell --help.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error {
			return cli.CheckPathFlags(cmd)
		},
	}
	root.AddCommand(commands(s)...)
	cli.RequireSubcommand(root)
	root.SetHelpCommand(cli.NewHelpCmd(root))
	return root
}

// run executes the command line and returns the process exit code. Errors
// go to stderr prefixed with "fprlab: ".
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	s := cli.NewStreams(stdin, stdout, stderr)
	return s.Run(ctx, newRootCmd(s), args)
}
