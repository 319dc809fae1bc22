package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// campaignOptions holds the flags of campaign slurm.
type campaignOptions struct {
	Args      []string // the compare command and its flags
	Shards    int
	Partition string
	Time      string
	CPUs      int
	Out       string
	Binary    string
	Submit    bool
}

const campaignLong = `campaign slurm writes the Slurm batch scripts of a sharded compare campaign:
DIR/shards.sbatch, a job array of --shards tasks each running
"fprlab compare ARGS --shard I/N --out DIR/shard-I", and DIR/merge.sbatch,
which merges the shards into DIR/merged once every task has succeeded
(submit it with --dependency=afterok on the array). It prints the two sbatch
commands; --submit runs them when sbatch is on PATH. A task that is killed
and started again resumes its shard without losing a finished signature;
one task is resubmitted alone with "sbatch --array=I DIR/shards.sbatch".

  fprlab campaign slurm --shards 100 --time 4:00:00 --cpus 8 --out camp -- \
      compare --backend native,triword --params 1024 --signatures 100000 --keys 100`

func newCampaignCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "campaign",
		Short: "Run measurements on a cluster (campaign slurm)",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	opts := &campaignOptions{}
	sl := &cobra.Command{
		Use:   "slurm --shards N --out DIR -- compare|sweep ARGS...",
		Short: "Write (and optionally submit) the sbatch scripts of a sharded compare or sweep campaign",
		Long:  campaignLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args = args
			return runCampaignSlurm(cmd.Context(), opts, s)
		},
	}
	f := sl.Flags()
	f.IntVar(&opts.Shards, "shards", 0, "number of array tasks (shards)")
	f.StringVar(&opts.Partition, "partition", "", "Slurm partition")
	f.StringVar(&opts.Time, "time", "", "time limit per task (Slurm's --time)")
	f.IntVar(&opts.CPUs, "cpus", 1, "CPUs per task (the shard's --workers)")
	f.StringVar(&opts.Out, "out", "", "campaign `DIR` (shared by the cluster's nodes)")
	f.StringVar(&opts.Binary, "binary", "", "path of fprlab on the nodes (default: this program)")
	f.BoolVar(&opts.Submit, "submit", false, "submit the scripts with sbatch")
	cmd.AddCommand(sl)
	return cmd
}

// takeCampaignFlags moves campaign flags written among the command's
// arguments ("-- compare ARGS --shards 4 --out DIR", the order of the issue
// tracker's examples) into opts: --shards, --partition, --time, --cpus,
// --out, --binary, --submit belong to the campaign, never to the command.
func takeCampaignFlags(opts *campaignOptions) error {
	var rest []string
	args := opts.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "--submit":
			opts.Submit = !hasVal || val == "true"
			continue
		case "--shards", "--partition", "--time", "--cpus", "--out", "--binary":
		default:
			rest = append(rest, a)
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return fmt.Errorf("%s needs a value", name)
			}
			i++
			val = args[i]
		}
		switch name {
		case "--shards", "--cpus":
			n, err := strconv.Atoi(val)
			if err != nil {
				return fmt.Errorf("%s %q: want an integer", name, val)
			}
			if name == "--shards" {
				opts.Shards = n
			} else {
				opts.CPUs = n
			}
		case "--partition":
			opts.Partition = val
		case "--time":
			opts.Time = val
		case "--out":
			opts.Out = val
		case "--binary":
			opts.Binary = val
		}
	}
	opts.Args = rest
	return nil
}

// shellQuote quotes one word for bash.
func shellQuote(w string) string {
	if w != "" && strings.IndexFunc(w, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == ',' || r == ':' || r == '=' || r == '+' ||
			(r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'))
	}) < 0 {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// campaignScripts returns the array and merge scripts.
func campaignScripts(opts *campaignOptions, bin, dir string) (shards, merge string) {
	var hdr bytes.Buffer
	if opts.Partition != "" {
		fmt.Fprintf(&hdr, "#SBATCH --partition=%s\n", opts.Partition)
	}
	if opts.Time != "" {
		fmt.Fprintf(&hdr, "#SBATCH --time=%s\n", opts.Time)
	}
	quoted := make([]string, len(opts.Args))
	for i, a := range opts.Args {
		quoted[i] = shellQuote(a)
	}
	shards = fmt.Sprintf(`#!/bin/bash
# A sharded fprlab compare campaign: task I measures shard I of %d.
#SBATCH --job-name=fprlab-shards
#SBATCH --array=0-%d
#SBATCH --cpus-per-task=%d
#SBATCH --output=%s/slurm-%%A_%%a.out
%sset -euo pipefail
# The shard count is written out rather than read from SLURM_ARRAY_TASK_COUNT,
# which counts the tasks of one submission: a task resubmitted alone
# (sbatch --array=I) must still be shard I of %d.
exec %s %s --shard "$SLURM_ARRAY_TASK_ID/%d" --workers "${SLURM_CPUS_PER_TASK:-%d}" --out %s/shard-"$SLURM_ARRAY_TASK_ID" --json \
  > %s/shard-"$SLURM_ARRAY_TASK_ID".json
`, opts.Shards, opts.Shards-1, opts.CPUs, shellQuote(dir), hdr.String(), opts.Shards, shellQuote(bin), strings.Join(quoted, " "), opts.Shards, opts.CPUs, shellQuote(dir), shellQuote(dir))
	var dirs []string
	for i := range opts.Shards {
		dirs = append(dirs, shellQuote(filepath.Join(dir, "shard-"+strconv.Itoa(i))))
	}
	merge = fmt.Sprintf(`#!/bin/bash
# Merges the shards of the campaign once every array task has succeeded.
#SBATCH --job-name=fprlab-merge
#SBATCH --output=%s/slurm-merge-%%j.out
%sset -euo pipefail
exec %s merge %s --out %s/merged --json > %s/merged.json
`, shellQuote(dir), hdr.String(), shellQuote(bin), strings.Join(dirs, " "), shellQuote(dir), shellQuote(dir))
	return shards, merge
}

// runCampaignSlurm writes the scripts, prints how to submit them, and
// submits them with --submit.
func runCampaignSlurm(ctx context.Context, opts *campaignOptions, s *streams) error {
	if err := takeCampaignFlags(opts); err != nil {
		return err
	}
	if len(opts.Args) == 0 || (opts.Args[0] != "compare" && opts.Args[0] != "sweep") {
		return errors.New("campaign slurm runs compare or sweep: give \"-- compare ARGS\" or \"-- sweep ARGS\"")
	}
	for _, a := range opts.Args[1:] {
		if a == "--out" || strings.HasPrefix(a, "--out=") || a == "--shard" || strings.HasPrefix(a, "--shard=") || a == "--workers" || strings.HasPrefix(a, "--workers=") {
			return fmt.Errorf("campaign slurm sets %s itself: leave it out of the compare arguments", strings.SplitN(a, "=", 2)[0])
		}
	}
	if opts.Shards < 1 || opts.Shards > 100000 {
		return fmt.Errorf("--shards %d: want 1..100000", opts.Shards)
	}
	if opts.CPUs < 1 {
		return fmt.Errorf("--cpus %d: want at least 1", opts.CPUs)
	}
	if opts.Out == "" {
		return errors.New("missing --out DIR (a directory every node can reach)")
	}
	// The command's flags must at least parse here.
	check := newCompareCmd(s)
	if opts.Args[0] == "sweep" {
		check = newSweepCmd(s)
	}
	if err := check.ParseFlags(opts.Args[1:]); err != nil {
		return fmt.Errorf("%s arguments: %w", opts.Args[0], err)
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
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	shards, merge := campaignScripts(opts, bin, dir)
	sp, mp := filepath.Join(dir, "shards.sbatch"), filepath.Join(dir, "merge.sbatch")
	if err := writeFileAtomic(sp, []byte(shards)); err != nil {
		return err
	}
	if err := writeFileAtomic(mp, []byte(merge)); err != nil {
		return err
	}
	fmt.Fprintf(s.Out, "wrote %s and %s; submit with:\n  jobid=$(sbatch --parsable %s) && sbatch --dependency=afterok:$jobid %s\n", sp, mp, shellQuote(sp), shellQuote(mp))
	if !opts.Submit {
		return nil
	}
	sbatch, err := exec.LookPath("sbatch")
	if err != nil {
		return errors.New("--submit: sbatch is not on PATH")
	}
	jid, err := exec.CommandContext(ctx, sbatch, "--parsable", sp).Output()
	if err != nil {
		return fmt.Errorf("sbatch %s: %w", sp, err)
	}
	id := strings.TrimSpace(strings.SplitN(string(jid), ";", 2)[0])
	mid, err := exec.CommandContext(ctx, sbatch, "--parsable", "--dependency=afterok:"+id, mp).Output()
	if err != nil {
		return fmt.Errorf("sbatch %s: %w", mp, err)
	}
	fmt.Fprintf(s.Out, "submitted: array job %s, merge job %s\n", id, strings.TrimSpace(string(mid)))
	return nil
}
