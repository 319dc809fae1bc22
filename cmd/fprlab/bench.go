package main

import (
	"context"
	"crypto/sha3"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cpuinfo"
	"github.com/fprlab/fprlab/internal/cputime"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// benchOps are the operations bench times, in output order: key
// generation, signing on the dynamic path (falcon_sign_dyn), signing with
// an expanded key (falcon_sign_tree), key expansion and verification (the
// reference speed.c's kg, sd, st, ek and vv).
var benchOps = []string{"keygen", "sign", "sign_tree", "expand", "verify"}

// benchAllBackends are the backends --backend all measures: those whose
// arithmetic runs at machine speed (the big-float oracle and vprec:P take
// seconds per signature and are measured only when named).
var benchAllBackends = []string{"native", "emu64", "triword", "triword-acc", "dd"}

// benchReferences are always measured: every row's ratios are to them,
// measured in the same interleaved run.
var benchReferences = []string{"native", "emu64"}

// benchResultJSON is the stable --json form of one measured (backend,
// params, op). Times are per operation in nanoseconds, of the clock named
// by clock; a ratio is null when the reference backend could not run the
// operation.
type benchResultJSON struct {
	Backend       string   `json:"backend"`
	Params        int      `json:"params"`
	Op            string   `json:"op"`
	MedianNS      int64    `json:"median_ns"`
	MinNS         int64    `json:"min_ns"`
	MaxNS         int64    `json:"max_ns"`
	Runs          int      `json:"runs"`
	OpsPerRun     int      `json:"ops_per_run"`
	Clock         string   `json:"clock"`
	RatioToEmu64  *float64 `json:"ratio_to_emu64"`
	RatioToNative *float64 `json:"ratio_to_native"`
}

// benchOptions holds the flags of bench.
type benchOptions struct {
	Backend string
	Params  string
	Ops     string
	Count   int
	MinTime time.Duration
	Clock   string
	JSON    bool
}

const benchLong = `bench times Falcon's operations over arithmetic backends, interleaved: each
round runs every (backend, params, op) once, in a rotating order, so that a
change in the machine's load affects all of them alike; the median over the
--count rounds is reported, with the minimum and maximum, and each backend's
ratio to emu64 and to native of the same round set (native and emu64 are
always measured for that reason).

A run repeats the operation until --min-time has passed (at least once) and
reports the time per operation. The clock is the process's CPU time by
default (user + system, all threads, the garbage collector's included): on a
shared machine it excludes the time spent waiting for a core, and it is what
the reference implementation's speed.c measures with clock(). --clock wall
measures elapsed time instead.

Keys are generated on native from a fixed seed, so every backend signs with
the same key; keygen reads a new SHAKE256 seed for each key. Verification is
integer arithmetic only (the same code for every backend): it verifies a
signature made by the backend of the row. A backend that cannot run an
operation (triword cannot generate keys) is reported on stderr and skipped.`

func newBenchCmd(s *streams) *cobra.Command {
	opts := &benchOptions{}
	cmd := &cobra.Command{
		Use:   "bench [--backend B|all] [--params 512|1024] [--op keygen,sign,sign_tree,expand,verify] [--count N] [--json]",
		Short: "Time keygen, signing, key expansion and verification per backend (interleaved runs, medians)",
		Long:  benchLong,
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runBench(cmd.Context(), opts, s)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Backend, "backend", "all", "backend name, a comma-separated list, or all ("+strings.Join(benchAllBackends, ", ")+")")
	fl.StringVar(&opts.Params, "params", "512", "degree: 512, 1024, or both (512,1024)")
	fl.StringVar(&opts.Ops, "op", strings.Join(benchOps, ","), "operations, comma-separated: "+strings.Join(benchOps, ", "))
	fl.IntVar(&opts.Count, "count", 9, "rounds (timed runs per backend, params and op)")
	fl.DurationVar(&opts.MinTime, "min-time", 20*time.Millisecond, "least duration of one run (the operation is repeated within it)")
	fl.StringVar(&opts.Clock, "clock", "cpu", "cpu (process CPU time) or wall (elapsed time)")
	fl.BoolVar(&opts.JSON, "json", false, `print a JSON array of {"backend", "params", "op", "median_ns", "min_ns", "max_ns", "runs", "ops_per_run", "clock", "ratio_to_emu64", "ratio_to_native"}`)
	return cmd
}

// benchTask is one (backend, params, op) and its timed runs.
type benchTask struct {
	backend string
	logn    uint
	op      string
	run     func() error
	perRun  int
	times   []time.Duration // per operation, one per round
}

// benchPlan is a parsed command line.
type benchPlan struct {
	backends []arith.Backend
	logns    []uint
	ops      []string
	wall     bool
}

func parseBenchOptions(opts *benchOptions) (*benchPlan, error) {
	p := &benchPlan{}
	if opts.Count < 1 {
		return nil, fmt.Errorf("--count %d: want at least 1 round", opts.Count)
	}
	if opts.MinTime < 0 {
		return nil, fmt.Errorf("--min-time %v: want a duration of 0 or more", opts.MinTime)
	}
	switch opts.Clock {
	case "cpu":
	case "wall":
		p.wall = true
	default:
		return nil, fmt.Errorf("--clock %q: want cpu or wall", opts.Clock)
	}
	names := benchAllBackends
	if opts.Backend != "all" {
		var err error
		if names, err = distinctList("backend", opts.Backend); err != nil {
			return nil, err
		}
		if len(names) == 0 {
			return nil, fmt.Errorf("--backend %q: want a backend name, a comma-separated list, or all", opts.Backend)
		}
	}
	for _, r := range benchReferences {
		if !slices.Contains(names, r) {
			names = append(names, r)
		}
	}
	for _, name := range names {
		b, err := lookupBackend(name)
		if err != nil {
			return nil, fmt.Errorf("--backend: %w", err)
		}
		p.backends = append(p.backends, b)
	}
	for _, ps := range splitList(opts.Params) {
		logn, err := degreeLogn(ps)
		if err != nil {
			return nil, err
		}
		if slices.Contains(p.logns, logn) {
			return nil, fmt.Errorf("--params %q names Falcon-%d twice", opts.Params, 1<<logn)
		}
		p.logns = append(p.logns, logn)
	}
	if len(p.logns) == 0 {
		return nil, fmt.Errorf("--params %q: want 512, 1024 or 512,1024", opts.Params)
	}
	ops, err := distinctList("op", opts.Ops)
	if err != nil {
		return nil, err
	}
	for _, op := range ops {
		if !slices.Contains(benchOps, op) {
			return nil, fmt.Errorf("--op %q: unknown operation; want a comma-separated list of %s", op, strings.Join(benchOps, ", "))
		}
		p.ops = append(p.ops, op)
	}
	if len(p.ops) == 0 {
		return nil, fmt.Errorf("--op %q: want a comma-separated list of %s", opts.Ops, strings.Join(benchOps, ", "))
	}
	return p, nil
}

// splitList splits a comma-separated flag value, dropping empty items.
func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// distinctList is splitList for a list whose items must differ: an item
// given twice is a mistake to report, not to drop (bench --op
// verify,verify would otherwise measure verify once, silently).
func distinctList(flag, s string) ([]string, error) {
	items := splitList(s)
	for i, it := range items {
		if slices.Contains(items[:i], it) {
			return nil, fmt.Errorf("--%s %q names %s twice", flag, s, it)
		}
	}
	return items, nil
}

// runBench sets up every task, then runs the interleaved rounds.
func runBench(ctx context.Context, opts *benchOptions, s *streams) error {
	plan, err := parseBenchOptions(opts)
	if err != nil {
		return err
	}
	clock := func() time.Duration { d, _ := cputime.Now(); return d }
	clockName := "cpu"
	if _, ok := cputime.Now(); !ok || plan.wall {
		start := time.Now()
		clock = func() time.Duration { return time.Since(start) }
		clockName = "wall"
	}
	var tasks []*benchTask
	for _, logn := range plan.logns {
		ts, err := benchTasks(plan, logn, s.Err)
		if err != nil {
			return err
		}
		tasks = append(tasks, ts...)
	}
	// Calibrate: ops per run so that a run lasts --min-time.
	for _, t := range tasks {
		if err := ctx.Err(); err != nil {
			return interrupted("")
		}
		t0 := clock()
		if err := t.run(); err != nil {
			return fmt.Errorf("%s %s Falcon-%d: %w", t.backend, t.op, 1<<t.logn, err)
		}
		d := max(clock()-t0, time.Microsecond)
		t.perRun = max(1, int(math.Ceil(float64(opts.MinTime)/float64(d))))
	}
	for round := range opts.Count {
		for i := range tasks {
			if err := ctx.Err(); err != nil {
				return interrupted("")
			}
			t := tasks[(i+round)%len(tasks)]
			t0 := clock()
			for range t.perRun {
				if err := t.run(); err != nil {
					return fmt.Errorf("%s %s Falcon-%d: %w", t.backend, t.op, 1<<t.logn, err)
				}
			}
			t.times = append(t.times, (clock()-t0)/time.Duration(t.perRun))
		}
	}
	res := benchResults(tasks, clockName)
	// The CPU the figures are of (on stderr with --json, whose output is
	// the array alone).
	cpuOut := s.Out
	if opts.JSON {
		cpuOut = s.Err
	}
	fmt.Fprintf(cpuOut, "CPU: %s; vector paths (GOEXPERIMENT=simd): %v\n", cpuinfo.Model(), samplerprng.Vectorized())
	if opts.JSON {
		return printJSON(s.Out, res)
	}
	return printBench(s.Out, res, opts.Count)
}

// benchTasks prepares the tasks of one degree: the shared key, and per
// backend its expanded key and a signature to verify.
func benchTasks(plan *benchPlan, logn uint, warn io.Writer) ([]*benchTask, error) {
	nat, err := lookupBackend("native")
	if err != nil {
		return nil, err
	}
	sk, pk, err := falcon.Keygen(nat, logn, shakeStream(fmt.Sprintf("fprlab bench key %d", logn)))
	if err != nil {
		return nil, fmt.Errorf("generating the benchmark key: %w", err)
	}
	msg := []byte("fprlab bench message")
	var tasks []*benchTask
	for _, b := range plan.backends {
		rng := shakeStream("fprlab bench signing " + b.Name)
		var ek *falcon.ExpandedKey
		var sig []byte
		keys := 0
		for _, op := range plan.ops {
			var run func() error
			switch op {
			case "keygen":
				run = func() error {
					keys++
					_, _, err := falcon.Keygen(b, logn, shakeStream(fmt.Sprintf("fprlab bench keygen %d", keys)))
					return err
				}
			case "sign":
				run = func() error { _, err := falcon.Sign(b, sk, msg, falcon.Compressed, rng); return err }
			case "sign_tree":
				if ek == nil {
					if ek, err = falcon.ExpandPrivateKey(b, sk); err != nil {
						return nil, fmt.Errorf("%s: expanding the benchmark key: %w", b.Name, err)
					}
				}
				run = func() error { _, err := ek.Sign(msg, falcon.Compressed, rng); return err }
			case "expand":
				run = func() error { _, err := falcon.ExpandPrivateKey(b, sk); return err }
			case "verify":
				if sig == nil {
					if sig, err = falcon.Sign(b, sk, msg, falcon.Compressed, rng); err != nil {
						return nil, fmt.Errorf("%s: signing the benchmark message: %w", b.Name, err)
					}
				}
				run = func() error { return falcon.Verify(pk, msg, sig) }
			}
			// An operation the backend cannot run at all is skipped
			// (triword's exponent range cannot run NTRUSolve).
			if err := run(); err != nil {
				fmt.Fprintf(warn, "fprlab bench: %s %s Falcon-%d skipped: %v\n", b.Name, op, 1<<logn, err)
				continue
			}
			tasks = append(tasks, &benchTask{backend: b.Name, logn: logn, op: op, run: run})
		}
	}
	return tasks, nil
}

// shakeStream is an endless deterministic byte stream: SHAKE256(seed).
func shakeStream(seed string) io.Reader {
	h := sha3.NewSHAKE256()
	h.Write([]byte(seed))
	return h
}

// benchResults summarises each task and computes the ratios to the
// reference backends' medians of the same degree and operation.
func benchResults(tasks []*benchTask, clock string) []benchResultJSON {
	type key struct {
		backend string
		params  int
		op      string
	}
	medians := map[key]time.Duration{}
	var res []benchResultJSON
	for _, t := range tasks {
		ts := slices.Clone(t.times)
		slices.Sort(ts)
		med := ts[len(ts)/2]
		if len(ts)%2 == 0 {
			med = (ts[len(ts)/2-1] + ts[len(ts)/2]) / 2
		}
		medians[key{t.backend, 1 << t.logn, t.op}] = med
		res = append(res, benchResultJSON{
			Backend: t.backend, Params: 1 << t.logn, Op: t.op,
			MedianNS: med.Nanoseconds(), MinNS: ts[0].Nanoseconds(), MaxNS: ts[len(ts)-1].Nanoseconds(),
			Runs: len(ts), OpsPerRun: t.perRun, Clock: clock,
		})
	}
	ratio := func(r benchResultJSON, ref string) *float64 {
		m, ok := medians[key{ref, r.Params, r.Op}]
		if !ok || m == 0 {
			return nil
		}
		v := float64(r.MedianNS) / float64(m.Nanoseconds())
		return &v
	}
	for i := range res {
		res[i].RatioToEmu64 = ratio(res[i], "emu64")
		res[i].RatioToNative = ratio(res[i], "native")
	}
	// Output order: degree, operation, then backend as requested.
	slices.SortStableFunc(res, func(a, b benchResultJSON) int {
		if a.Params != b.Params {
			return a.Params - b.Params
		}
		return slices.Index(benchOps, a.Op) - slices.Index(benchOps, b.Op)
	})
	return res
}

// printBench prints one aligned table per degree.
func printBench(w io.Writer, res []benchResultJSON, rounds int) error {
	if len(res) == 0 {
		_, err := fmt.Fprintln(w, "nothing measured")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	ratio := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.2fx", *v)
	}
	params := 0
	for _, r := range res {
		if r.Params != params {
			if params != 0 {
				fmt.Fprintln(tw)
			}
			params = r.Params
			fmt.Fprintf(tw, "Falcon-%d, %s time per operation, median of %d interleaved rounds\n", params, r.Clock, rounds)
			fmt.Fprintln(tw, "OP\tBACKEND\tMEDIAN\tMIN\tMAX\tOPS/RUN\tvs EMU64\tvs NATIVE\t")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t\n", r.Op, r.Backend,
			benchDuration(r.MedianNS), benchDuration(r.MinNS), benchDuration(r.MaxNS), r.OpsPerRun,
			ratio(r.RatioToEmu64), ratio(r.RatioToNative))
	}
	return tw.Flush()
}

// benchDuration formats nanoseconds as us below 10 ms, else ms.
func benchDuration(ns int64) string {
	if ns < 10_000_000 {
		return fmt.Sprintf("%.1f us", float64(ns)/1e3)
	}
	return fmt.Sprintf("%.2f ms", float64(ns)/1e6)
}
