package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/internal/shellword"
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
	// given names the campaign flags set on the command line before
	// "--"; takeCampaignFlags refuses the same flag again after it.
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
digits and - _ . / , : = +. The campaign flags may also be written after the
command's arguments, but each only once.

  fprlab campaign slurm --shards 100 --time 4:00:00 --cpus 8 --out camp -- \
      compare --backend native,triword --params 1024 --signatures 100000 --keys 100
  fprlab campaign slurm --shards 8 --out sweep -- \
      sweep --format 'vprec:{24..80}' --params 512 --signatures 1000`

func newCampaignCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "campaign",
		Short: "Run measurements on a cluster (campaign slurm)",
		// Run without a subcommand: see requireSubcommand.
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
	f.StringVar(&opts.Binary, "binary", "", "path of fprlab on the nodes (default: this program)")
	f.BoolVar(&opts.Submit, "submit", false, "submit the scripts with sbatch")
	cmd.AddCommand(sl)
	return cmd
}

// campaignFlags are the flags of campaign slurm.
var campaignFlags = []string{"shards", "partition", "time", "cpus", "out", "binary", "submit"}

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
			if err := opts.takeOnce(name); err != nil {
				return err
			}
			opts.Submit = !hasVal || val == "true"
			continue
		case "--shards", "--partition", "--time", "--cpus", "--out", "--binary":
		default:
			rest = append(rest, a)
			continue
		}
		if err := opts.takeOnce(name); err != nil {
			return err
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

// takeOnce records that the campaign flag name was given, refusing it a
// second time: either the campaign's flag twice, or -- for --out -- the
// command's own --out, which campaign slurm sets per shard; neither may
// silently replace the other.
func (o *campaignOptions) takeOnce(name string) error {
	if o.given[name] {
		return fmt.Errorf("%s is given both before and after \"--\" (or twice): give it once, as a campaign slurm flag", name)
	}
	if o.given == nil {
		o.given = map[string]bool{}
	}
	o.given[name] = true
	return nil
}

// Slurm's syntax for the values campaign slurm writes into #SBATCH lines
// (sbatch(1)): a partition name or a comma-separated list of them, and a
// time limit "minutes", "minutes:seconds", "hours:minutes:seconds",
// "days-hours", "days-hours:minutes", "days-hours:minutes:seconds" or
// INFINITE/UNLIMITED.
var (
	slurmPartition = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)
	slurmTime      = regexp.MustCompile(`^([0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2}|INFINITE|UNLIMITED|infinite|unlimited)$`)
)

// checkScriptValues refuses every value the scripts would carry that
// could change what they do. The scripts are bash, run by Slurm on every
// node: a control character (a newline above all) would end a #SBATCH
// comment line or a command and start a new one, whatever the quoting, so
// none is accepted anywhere. The #SBATCH lines are read by sbatch, which
// splits them at blanks and expands % patterns in --output: the campaign
// directory must be a plain path there, the partition and time limit must
// follow Slurm's syntax. Everything written into a command line is quoted
// for bash besides (package shellword).
func checkScriptValues(opts *campaignOptions, bin, dir string) error {
	for _, v := range []struct{ what, val string }{{"--out", opts.Out}, {"--binary", bin}, {"--partition", opts.Partition}, {"--time", opts.Time}} {
		if err := noControl(v.what, v.val); err != nil {
			return err
		}
	}
	for i, a := range opts.Args {
		if err := noControl(fmt.Sprintf("%s argument %d", opts.Args[0], i), a); err != nil {
			return err
		}
	}
	if opts.Partition != "" && !slurmPartition.MatchString(opts.Partition) {
		return fmt.Errorf("--partition %q: want a Slurm partition name (letters, digits, _ . -) or a comma-separated list of them", opts.Partition)
	}
	if opts.Time != "" && !slurmTime.MatchString(opts.Time) {
		return fmt.Errorf("--time %q: want a Slurm time limit: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED", opts.Time)
	}
	if shellword.Quote(dir) != dir || strings.Contains(dir, "%") {
		return fmt.Errorf("--out %q: the directory (%s) goes into the scripts' #SBATCH --output lines, which sbatch splits at blanks and where %% starts a pattern; choose a path of letters, digits and - _ . / , : = + only", opts.Out, dir)
	}
	return nil
}

// noControl refuses a value holding a control character (or bytes that
// are not UTF-8), naming it.
func noControl(what, v string) error {
	if !utf8.ValidString(v) {
		return fmt.Errorf("%s %q: not valid UTF-8", what, v)
	}
	if i := strings.IndexFunc(v, unicode.IsControl); i >= 0 {
		return fmt.Errorf("%s %q: holds the control character %U, which would end a line of the batch script", what, v, []rune(v[i:])[0])
	}
	return nil
}

// checkInnerCommand runs the command's own flag checks -- the same code
// as a real run, on the arguments each array task gets, stopping before
// any work (streams.validateOnly) -- so that a bad backend, degree or
// count is refused here, not by every task of the array.
func checkInnerCommand(ctx context.Context, opts *campaignOptions, dir string) error {
	vs := newStreams(strings.NewReader(""), io.Discard, io.Discard)
	vs.validateOnly = true
	check := newCompareCmd(vs)
	if opts.Args[0] == "sweep" {
		check = newSweepCmd(vs)
	}
	args := append(append([]string{}, opts.Args[1:]...),
		"--shard", fmt.Sprintf("0/%d", opts.Shards), "--workers", strconv.Itoa(opts.CPUs), "--out", filepath.Join(dir, "shard-0"), "--json")
	if err := repeatedFlags(check, args); err != nil {
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

// campaignScripts returns the array and merge scripts.
func campaignScripts(opts *campaignOptions, bin, dir string) (shards, merge string) {
	var hdr bytes.Buffer
	if opts.Partition != "" {
		fmt.Fprintf(&hdr, "#SBATCH --partition=%s\n", opts.Partition)
	}
	if opts.Time != "" {
		fmt.Fprintf(&hdr, "#SBATCH --time=%s\n", opts.Time)
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
`, opts.Shards, opts.Shards-1, opts.CPUs, shellword.Quote(dir), hdr.String(), opts.Shards, shellword.Quote(bin), shellword.Join(opts.Args), opts.Shards, opts.CPUs, shellword.Quote(dir), shellword.Quote(dir))
	var dirs []string
	for i := range opts.Shards {
		dirs = append(dirs, shellword.Quote(filepath.Join(dir, "shard-"+strconv.Itoa(i))))
	}
	merge = fmt.Sprintf(`#!/bin/bash
# Merges the shards of the campaign once every array task has succeeded.
#SBATCH --job-name=fprlab-merge
#SBATCH --output=%s/slurm-merge-%%j.out
%sset -euo pipefail
exec %s merge %s --out %s/merged --json > %s/merged.json
`, shellword.Quote(dir), hdr.String(), shellword.Quote(bin), strings.Join(dirs, " "), shellword.Quote(dir), shellword.Quote(dir))
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
		if name, _, _ := strings.Cut(a, "="); name == "--out" || name == "--shard" || name == "--workers" || name == "--json" {
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
	if err := checkScriptValues(opts, bin, dir); err != nil {
		return err
	}
	if err := checkInnerCommand(ctx, opts, dir); err != nil {
		return err
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
	fmt.Fprintf(s.Out, "wrote %s and %s; submit with:\n  jobid=$(sbatch --parsable %s) && sbatch --dependency=afterok:$jobid %s\n", sp, mp, shellword.Quote(sp), shellword.Quote(mp))
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
