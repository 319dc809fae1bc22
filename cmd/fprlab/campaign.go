package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/shellword"
)

// campaignOptions holds the flags of campaign slurm.
type campaignOptions struct {
	// Slurm holds the compare or sweep command and its flags (Args) and
	// the job array's flags.
	campaign.Slurm
	// given names the campaign flags set on the command line before
	// "--"; Slurm.TakeFlags refuses the same flag again after it.
	given map[string]bool
}

const campaignLong = `campaign slurm writes the Slurm batch scripts of a sharded compare or sweep
campaign: DIR/shards.sbatch, a job array of --shards tasks each running
"fprlab compare ARGS --shard I/N --out DIR/shard-I" (or "fprlab sweep ARGS
..." likewise: a sweep is sharded by format), and DIR/merge.sbatch, which
merges the shards into DIR/merged once every task has succeeded (submit it
with --dependency=afterok on the array). It prints the two sbatch commands;
--submit runs them when sbatch is on PATH. A task that is killed and started
again resumes its shard without losing a finished signature; one task is
resubmitted alone with "sbatch --array=I DIR/shards.sbatch".

The command and its flags are checked as the tasks will run them before
anything is written (a bad backend or degree is refused here, not by every
task). Every value is quoted for bash in the scripts; a control character in
any value is refused, --partition and --time must follow Slurm's syntax, and
DIR, which sbatch reads from #SBATCH --output, must be a path of letters,
digits and - _ . / , : = +, and not the root directory. The campaign flags may also be written after the
command's arguments, but each only once. Run again with the same flags, it
writes the same scripts; a DIR holding another campaign's scripts is refused.

  fprlab campaign slurm --shards 100 --time 4:00:00 --cpus 8 --out camp -- \
      compare --backend native,triword --params 1024 --signatures 100000 --keys 100
  fprlab campaign slurm --shards 8 --out sweep -- \
      sweep --format 'vprec:{24..80}' --params 512 --signatures 1000`

func newCampaignCmd(s *cli.Streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "campaign",
		Short: "Run measurements on a cluster (campaign slurm)",
		// Run without a subcommand: see cli.RequireSubcommand.
	}
	opts := &campaignOptions{}
	sl := &cobra.Command{
		Use:   "slurm --shards N --out DIR -- compare|sweep ARGS...",
		Short: "Write (and optionally submit) the sbatch scripts of a sharded compare or sweep campaign",
		Long:  campaignLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			opts.given = map[string]bool{}
			for _, name := range campaignFlags {
				opts.given["--"+name] = cmd.Flags().Changed(name)
			}
			return runCampaignSlurm(cmd.Context(), opts, s)
		},
	}
	f := sl.Flags()
	f.IntVar(&opts.Shards, "shards", 0, "number of array tasks (shards)")
	f.StringVar(&opts.Partition, "partition", "", "Slurm partition")
	f.StringVar(&opts.Time, "time", "", "time limit per task (Slurm's --time)")
	f.IntVar(&opts.CPUs, "cpus", 1, "CPUs per task (the shard's --workers)")
	f.StringVar(&opts.Out, "out", "", "campaign `DIR` (shared by the cluster's nodes)")
	f.StringVar(&opts.Binary, "binary", "", "`FILE`, fprlab's path on the nodes (default: this program)")
	f.BoolVar(&opts.Submit, "submit", false, "submit the scripts with sbatch")
	cmd.AddCommand(sl)
	return cmd
}

// campaignFlags are the flags of campaign slurm.
var campaignFlags = []string{"shards", "partition", "time", "cpus", "out", "binary", "submit"}

// checkInnerCommand runs the command's own flag checks -- the same code
// as a real run, on the arguments each array task gets, stopping before
// any work (cli.Streams.ValidateOnly) -- so that a bad backend, degree or
// count is refused here, not by every task of the array.
func checkInnerCommand(ctx context.Context, opts *campaignOptions, dir string) error {
	vs := cli.NewStreams(strings.NewReader(""), io.Discard, io.Discard)
	vs.ValidateOnly = true
	check := newCompareCmd(vs)
	if opts.Args[0] == "sweep" {
		check = newSweepCmd(vs)
	}
	args := append(append([]string{}, opts.Args[1:]...),
		"--shard", fmt.Sprintf("0/%d", opts.Shards), "--workers", strconv.Itoa(opts.CPUs), "--out", filepath.Join(dir, "shard-0"), "--json")
	if err := cli.RepeatedFlags(check, args); err != nil {
		return fmt.Errorf("%s arguments: %w", opts.Args[0], err)
	}
	check.SetArgs(args)
	check.SetOut(io.Discard)
	check.SetErr(io.Discard)
	check.SilenceErrors, check.SilenceUsage = true, true
	if err := check.ExecuteContext(ctx); err != nil {
		return fmt.Errorf("%s arguments: %w", opts.Args[0], err)
	}
	return nil
}

// runCampaignSlurm writes the scripts, prints how to submit them, and
// submits them with --submit.
func runCampaignSlurm(ctx context.Context, opts *campaignOptions, s *cli.Streams) error {
	if err := opts.TakeFlags(opts.given); err != nil {
		return err
	}
	if err := opts.Check(); err != nil {
		return err
	}
	dir, err := filepath.Abs(opts.Out)
	if err != nil {
		return err
	}
	bin := opts.Binary
	if bin == "" {
		if bin, err = os.Executable(); err != nil {
			return err
		}
	}
	if opts.Args, err = campaign.AbsPluginArgs(opts.Args); err != nil {
		return err
	}
	if err := opts.CheckScriptValues(bin, dir); err != nil {
		return err
	}
	if err := checkInnerCommand(ctx, opts, dir); err != nil {
		return err
	}
	sp, mp, err := opts.WriteScripts(bin, dir)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "wrote %s and %s; submit with:\n  jobid=$(sbatch --parsable %s) && sbatch --dependency=afterok:$jobid %s\n", sp, mp, shellword.Quote(sp), shellword.Quote(mp))
	if !opts.Submit {
		return nil
	}
	sbatch, err := exec.LookPath("sbatch")
	if err != nil {
		return errors.New("--submit: sbatch is not on PATH")
	}
	id, mid, err := campaign.Submit(ctx, sbatch, sp, mp)
	if err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "submitted: array job %s, merge job %s\n", id, mid)
	return nil
}
