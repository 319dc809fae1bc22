package campaign

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestTakeFlags: the campaign flags written among the command's
// arguments, as "--flag value" or "--flag=value", move into the job
// array, the command's own flags stay in order; a flag given before "--"
// and again after it, or twice after it, is refused, as are a flag
// without its value and a count that is no integer.
func TestTakeFlags(t *testing.T) {
	j := &Slurm{CPUs: 1, Args: []string{"compare", "--backend", "native", "--shards", "4", "--out", "/x", "--time=1:00:00", "--submit", "--params", "512",
		"--partition=p1,p2", "--cpus", "8", "--binary", "/opt/fprlab"}}
	given := map[string]bool{"--shards": false}
	if err := j.TakeFlags(given); err != nil {
		t.Fatal(err)
	}
	want := Slurm{Args: []string{"compare", "--backend", "native", "--params", "512"}, Shards: 4, Partition: "p1,p2", Time: "1:00:00", CPUs: 8, Out: "/x", Binary: "/opt/fprlab", Submit: true}
	if !reflect.DeepEqual(*j, want) {
		t.Errorf("got %+v, want %+v", *j, want)
	}
	taken := slices.Sorted(maps.Keys(given))
	if strings.Join(taken, " ") != "--binary --cpus --out --partition --shards --submit --time" {
		t.Errorf("given after taking: %v", given)
	}

	// A command without campaign flags keeps them all; --submit=false
	// asks for no submission.
	j = &Slurm{Args: []string{"sweep", "--format", "vprec:40", "--submit=false"}, Submit: false}
	if err := j.TakeFlags(nil); err != nil || strings.Join(j.Args, " ") != "sweep --format vprec:40" || j.Submit {
		t.Errorf("--submit=false: %v, %+v", err, j)
	}

	for _, c := range []struct {
		args    []string
		given   map[string]bool
		refusal string
	}{
		{[]string{"compare", "--out", "d"}, map[string]bool{"--out": true}, `--out is given both before and after "--" (or twice): give it once, as a campaign slurm flag`},
		{[]string{"compare", "--shards", "2", "--shards=3"}, nil, `--shards is given both before and after "--" (or twice): give it once, as a campaign slurm flag`},
		{[]string{"compare", "--submit", "--submit"}, nil, `--submit is given both before and after "--" (or twice): give it once, as a campaign slurm flag`},
		{[]string{"compare", "--shards"}, nil, "--shards needs a value"},
		{[]string{"compare", "--cpus", "x"}, nil, `--cpus "x": want an integer`},
		{[]string{"compare", "--binary", ""}, nil, "--binary is empty: give fprlab's path on the nodes (or leave the flag out for this program's)"},
		{[]string{"compare", "--shards=4k"}, nil, `--shards "4k": want an integer`},
	} {
		j := &Slurm{Args: c.args}
		if err := j.TakeFlags(c.given); err == nil || err.Error() != c.refusal {
			t.Errorf("%q: %v, want the refusal %q", c.args, err, c.refusal)
		}
	}
}

// TestSlurmCheck: a job array runs compare or sweep over 1..100000
// shards on at least one CPU each, into a directory; the flags the scripts
// set per task may not be among the command's.
func TestSlurmCheck(t *testing.T) {
	ok := Slurm{Args: []string{"compare", "--backend", "native"}, Shards: 4, CPUs: 1, Out: "d"}
	if err := ok.Check(); err != nil {
		t.Errorf("%+v refused: %v", ok, err)
	}
	sweep := ok
	sweep.Args, sweep.Shards = []string{"sweep"}, 100000
	if err := sweep.Check(); err != nil {
		t.Errorf("%+v refused: %v", sweep, err)
	}
	notCommand := `campaign slurm runs compare or sweep: give "-- compare ARGS" or "-- sweep ARGS"`
	for _, c := range []struct {
		change  func(*Slurm)
		refusal string
	}{
		{func(j *Slurm) { j.Args = nil }, notCommand},
		{func(j *Slurm) { j.Args = []string{"diverge", "--backend", "native"} }, notCommand},
		{func(j *Slurm) { j.Args = append(j.Args, "--workers=2") }, "campaign slurm sets --workers itself: leave it out of the compare arguments"},
		{func(j *Slurm) { j.Args = append(j.Args, "--shard", "0/4") }, "campaign slurm sets --shard itself: leave it out of the compare arguments"},
		{func(j *Slurm) { j.Args = append(j.Args, "--json") }, "campaign slurm sets --json itself: leave it out of the compare arguments"},
		{func(j *Slurm) { j.Args = append(j.Args, "--out=e") }, "campaign slurm sets --out itself: leave it out of the compare arguments"},
		{func(j *Slurm) { j.Shards = 0 }, "--shards 0: want 1..100000"},
		{func(j *Slurm) { j.Shards = 100001 }, "--shards 100001: want 1..100000"},
		{func(j *Slurm) { j.CPUs = 0 }, "--cpus 0: want at least 1"},
		{func(j *Slurm) { j.Out = "" }, "missing --out DIR (a directory every node can reach)"},
		{func(j *Slurm) { j.Out = "-" }, "--out -: this is a directory every node can reach, not standard output"},
	} {
		j := ok
		j.Args = slices.Clone(ok.Args)
		c.change(&j)
		if err := j.Check(); err == nil || err.Error() != c.refusal {
			t.Errorf("%+v: %v, want the refusal %q", j, err, c.refusal)
		}
	}
}
