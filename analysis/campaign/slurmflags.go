package campaign

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The command line of campaign slurm is "--shards N --out DIR ... --
// compare|sweep ARGS": the campaign's flags, then the command each array
// task runs. Users also write the campaign's flags after the command's
// ("-- compare ARGS --shards 4 --out DIR", the order of the issue
// tracker's examples); TakeFlags moves them back, and Check refuses what
// no script can be written for. Both are rules of the job array, not of
// any command line parser: the command keeps only the parsing of its
// flags and the check of the task's command (which runs it).

// TakeFlags moves the campaign flags written among the command's
// arguments (--shards, --partition, --time, --cpus, --out, --binary,
// --submit, as "--flag value" or "--flag=value") from Args into j: they
// belong to the campaign, never to the command. given names the flags
// ("--shards", ...) already set before "--" (nil: none); a flag found in
// given, or twice in Args, is refused, and each flag taken is added to
// given.
func (j *Slurm) TakeFlags(given map[string]bool) error {
	if given == nil {
		given = map[string]bool{}
	}
	var rest []string
	args := j.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, val, hasVal := strings.Cut(a, "=")
		switch name {
		case "--submit":
			if err := takeOnce(given, name); err != nil {
				return err
			}
			j.Submit = !hasVal || val == "true"
			continue
		case "--shards", "--partition", "--time", "--cpus", "--out", "--binary":
		default:
			rest = append(rest, a)
			continue
		}
		if err := takeOnce(given, name); err != nil {
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
				j.Shards = n
			} else {
				j.CPUs = n
			}
		case "--partition":
			j.Partition = val
		case "--time":
			j.Time = val
		case "--out":
			j.Out = val
		case "--binary":
			if val == "" {
				return errors.New("--binary is empty: give fprlab's path on the nodes (or leave the flag out for this program's)")
			}
			j.Binary = val
		}
	}
	j.Args = rest
	return nil
}

// takeOnce records in given that the campaign flag name was given,
// refusing it a second time: either the campaign's flag twice, or -- for
// --out -- the command's own --out, which campaign slurm sets per shard;
// neither may silently replace the other.
func takeOnce(given map[string]bool, name string) error {
	if given[name] {
		return fmt.Errorf("%s is given both before and after \"--\" (or twice): give it once, as a campaign slurm flag", name)
	}
	given[name] = true
	return nil
}

// Check refuses a job array no script can be written for: a command
// other than compare or sweep, a flag of the command that the scripts set
// for each task (--out, --shard, --workers, --json), a shard count outside
// 1..100000, fewer than one CPU, no campaign directory. It runs after
// TakeFlags, before any value is resolved (CheckScriptValues checks the
// values the scripts carry).
func (j *Slurm) Check() error {
	if len(j.Args) == 0 || (j.Args[0] != "compare" && j.Args[0] != "sweep") {
		return errors.New("campaign slurm runs compare or sweep: give \"-- compare ARGS\" or \"-- sweep ARGS\"")
	}
	for _, a := range j.Args[1:] {
		if name, _, _ := strings.Cut(a, "="); name == "--out" || name == "--shard" || name == "--workers" || name == "--json" {
			return fmt.Errorf("campaign slurm sets %s itself: leave it out of the compare arguments", strings.SplitN(a, "=", 2)[0])
		}
	}
	if j.Shards < 1 || j.Shards > 100000 {
		return fmt.Errorf("--shards %d: want 1..100000", j.Shards)
	}
	if j.CPUs < 1 {
		return fmt.Errorf("--cpus %d: want at least 1", j.CPUs)
	}
	if j.Out == "" {
		return errors.New("missing --out DIR (a directory every node can reach)")
	}
	if j.Out == "-" {
		return errors.New("--out -: this is a directory every node can reach, not standard output")
	}
	return nil
}
