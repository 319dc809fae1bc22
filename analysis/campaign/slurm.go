package campaign

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/internal/shellword"
)

// Slurm is a sharded campaign run as a Slurm job array: Args is the
// command and its flags (compare or sweep ARGS), each of the Shards array
// tasks running it with --shard I/N on CPUs CPUs, in Partition with the
// time limit Time (both optional), its directory under Out. Binary is
// fprlab's path on the nodes as given ("" for the program writing the
// scripts) and Submit asks for the scripts to be submitted once written:
// with the others they are the flags of campaign slurm, which may also be
// written among Args (TakeFlags).
type Slurm struct {
	Args      []string
	Shards    int
	Partition string
	Time      string
	CPUs      int
	Out       string
	Binary    string
	Submit    bool
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
	if filepath.Dir(dir) == dir {
		return fmt.Errorf("--out %q: the campaign writes its scripts, shard-I directories and merged result into DIR; give it a directory of its own, not the file system's root", j.Out)
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

// backendFlags are the flags of compare and sweep whose values name
// backends, and so may name plugin libraries (so:PATH, or a plan's
// so:PATH stage).
var backendFlags = []string{"--backend", "--format", "--reference"}

// pluginPath is a plugin library's path in a backend name: after "so:" at
// the start of a name, after a "," between names or a "=" of a plan's
// stage, up to the next name, stage or @CONFIG.
var pluginPath = regexp.MustCompile(`(^|[,=])so:([^,+@]+)`)

// AbsPluginArgs returns args (a compare or sweep command line) with every
// plugin library path made absolute: a task of the job array starts in
// whatever directory Slurm gives it, where a relative path names another
// file or none. Each library must exist and be a regular file; it is not
// loaded (its initialisation is the tasks' business, and a crashing one
// must not take the script writer down).
func AbsPluginArgs(args []string) ([]string, error) {
	out := append([]string(nil), args...)
	for i := range out {
		val, isValue := "", false
		for _, f := range backendFlags {
			if v, ok := strings.CutPrefix(out[i], f+"="); ok {
				val, isValue = v, true
			} else if i > 0 && out[i-1] == f {
				val, isValue = out[i], true
			}
		}
		if !isValue {
			continue
		}
		var err error
		abs := pluginPath.ReplaceAllStringFunc(val, func(m string) string {
			sub := pluginPath.FindStringSubmatch(m)
			p, aerr := filepath.Abs(sub[2])
			if aerr == nil && strings.ContainsAny(strings.TrimSuffix(p, sub[2]), ",+@") {
				aerr = fmt.Errorf("the working directory %s holds one of , + @, which end a plugin path in a backend name: give the path absolute", filepath.Dir(p))
			}
			if aerr == nil {
				var st os.FileInfo
				// A plan writes a ',' in a path as %2C.
				if st, aerr = os.Stat(strings.ReplaceAll(p, "%2C", ",")); aerr == nil && !st.Mode().IsRegular() {
					aerr = fmt.Errorf("%s is not a regular file", p)
				}
			}
			if aerr != nil && err == nil {
				err = fmt.Errorf("plugin library so:%s: %w", sub[2], aerr)
			}
			return sub[1] + "so:" + p
		})
		if err != nil {
			return nil, err
		}
		out[i] = strings.Replace(out[i], val, abs, 1)
	}
	return out, nil
}

// WriteScripts writes the campaign's scripts (Scripts) into dir as
// shards.sbatch and merge.sbatch and returns their paths, once bin and dir
// pass CheckScriptValues. A script of another campaign already there is
// not replaced: its jobs may be queued or its shards half done
// (sameScript). Neither is written unless both may be.
func (j *Slurm) WriteScripts(bin, dir string) (shardsPath, mergePath string, err error) {
	if err := j.CheckScriptValues(bin, dir); err != nil {
		return "", "", err
	}
	shards, merge := j.Scripts(bin, dir)
	shardsPath, mergePath = filepath.Join(dir, "shards.sbatch"), filepath.Join(dir, "merge.sbatch")
	files := []safefile.File{{Path: shardsPath, Data: []byte(shards)}, {Path: mergePath, Data: []byte(merge)}}
	for _, f := range files {
		if err := sameScript(f.Path, string(f.Data)); err != nil {
			return "", "", err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", "", err
	}
	for _, f := range files {
		if err := WriteFile(f.Path, f.Data); err != nil {
			return "", "", err
		}
	}
	return shardsPath, mergePath, nil
}

// maxScript bounds the read of an existing script: the ones written here
// are a few kilobytes.
const maxScript = 1 << 20

// sameScript refuses to replace the script at path with another one: the
// directory then holds another campaign (other flags, shards or binary).
// The same script again (the command run twice) is fine.
func sameScript(path, script string) error {
	old, err := safefile.Read(nil, path, maxScript)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err == nil && string(old) == script:
		return nil
	case err == nil:
		return fmt.Errorf("%s holds the script of another campaign (other flags, shards or binary), which this one would replace: use another --out, or remove %s", filepath.Dir(path), filepath.Base(path))
	}
	return err
}
