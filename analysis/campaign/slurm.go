package campaign

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fprlab/fprlab/internal/shellword"
)

// Slurm is a sharded campaign run as a Slurm job array: Args is the
// command and its flags (compare or sweep ARGS), each of the Shards array
// tasks running it with --shard I/N on CPUs CPUs, in Partition with the
// time limit Time (both optional), its directory under Out.
type Slurm struct {
	Args      []string
	Shards    int
	Partition string
	Time      string
	CPUs      int
	Out       string
}

// Slurm's syntax for the values the scripts carry in #SBATCH lines
// (sbatch(1)): a partition name or a comma-separated list of them, and a
// time limit "minutes", "minutes:seconds", "hours:minutes:seconds",
// "days-hours", "days-hours:minutes", "days-hours:minutes:seconds" or
// INFINITE/UNLIMITED.
var (
	slurmPartition = regexp.MustCompile(`^[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*$`)
	slurmTime      = regexp.MustCompile(`^([0-9]+(:[0-9]+){0,2}|[0-9]+-[0-9]+(:[0-9]+){0,2}|INFINITE|UNLIMITED|infinite|unlimited)$`)
)

// CheckScriptValues refuses every value the scripts would carry that
// could change what they do, bin being fprlab's path on the nodes and dir
// the absolute campaign directory. The scripts are bash, run by Slurm on
// every node: a control character (a newline above all) would end a
// #SBATCH comment line or a command and start a new one, whatever the
// quoting, so none is accepted anywhere. The #SBATCH lines are read by
// sbatch, which splits them at blanks and expands % patterns in --output:
// the campaign directory must be a plain path there, the partition and
// time limit must follow Slurm's syntax. Everything written into a
// command line is quoted for bash besides (package shellword).
func (j *Slurm) CheckScriptValues(bin, dir string) error {
	for _, v := range []struct{ what, val string }{{"--out", j.Out}, {"--binary", bin}, {"--partition", j.Partition}, {"--time", j.Time}} {
		if err := noControl(v.what, v.val); err != nil {
			return err
		}
	}
	for i, a := range j.Args {
		if err := noControl(fmt.Sprintf("%s argument %d", j.Args[0], i), a); err != nil {
			return err
		}
	}
	if j.Partition != "" && !slurmPartition.MatchString(j.Partition) {
		return fmt.Errorf("--partition %q: want a Slurm partition name (letters, digits, _ . -) or a comma-separated list of them", j.Partition)
	}
	if j.Time != "" && !slurmTime.MatchString(j.Time) {
		return fmt.Errorf("--time %q: want a Slurm time limit: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S or UNLIMITED", j.Time)
	}
	if shellword.Quote(dir) != dir || strings.Contains(dir, "%") {
		return fmt.Errorf("--out %q: the directory (%s) goes into the scripts' #SBATCH --output lines, which sbatch splits at blanks and where %% starts a pattern; choose a path of letters, digits and - _ . / , : = + only", j.Out, dir)
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

// Scripts returns the array script, whose task I runs shard I into
// dir/shard-I, and the merge script, which merges them into dir/merged;
// bin is fprlab's path on the nodes.
func (j *Slurm) Scripts(bin, dir string) (shards, merge string) {
	var hdr bytes.Buffer
	if j.Partition != "" {
		fmt.Fprintf(&hdr, "#SBATCH --partition=%s\n", j.Partition)
	}
	if j.Time != "" {
		fmt.Fprintf(&hdr, "#SBATCH --time=%s\n", j.Time)
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
`, j.Shards, j.Shards-1, j.CPUs, shellword.Quote(dir), hdr.String(), j.Shards, shellword.Quote(bin), shellword.Join(j.Args), j.Shards, j.CPUs, shellword.Quote(dir), shellword.Quote(dir))
	var dirs []string
	for i := range j.Shards {
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
