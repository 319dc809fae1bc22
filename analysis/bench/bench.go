// Package bench times Falcon's operations over arithmetic backends,
// interleaved: each round runs every (backend, degree, operation) once, in
// a rotating order, so that a change in the machine's load affects all of
// them alike; Run reports the median over the rounds with the minimum and
// maximum, and each backend's ratio to emu64 and to native of the same
// rounds. fprlab bench parses its flags into a Plan and prints the
// results.
package bench

import (
	"context"
	"crypto/sha3"
	"fmt"
	"io"
	"math"
	"slices"
	"time"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cputime"
	"github.com/fprlab/fprlab/scheme"
)

// Ops are the operations Run times, in output order: key
// generation, signing on the dynamic path (falcon_sign_dyn), signing with
// an expanded key (falcon_sign_tree), key expansion and verification (the
// reference speed.c's kg, sd, st, ek and vv).
var Ops = []string{"keygen", "sign", "sign_tree", "expand", "verify"}

// Round3Ops are the operations of Ops that only round 3 has: an expanded
// key and signing with it. Another scheme is timed in keygen, sign and
// verify.
var Round3Ops = []string{"sign_tree", "expand"}

// AllBackends are the backends fprlab bench --backend all measures: those whose
// arithmetic runs at machine speed (the big-float oracle and vprec:P take
// seconds per signature and are measured only when named).
var AllBackends = []string{"native", "emu64", "triword", "triword-acc", "dd"}

// References are always measured: every row's ratios are to them,
// measured in the same interleaved run.
var References = []string{"native", "emu64"}

// Result is the stable --json form (fprlab bench --json) of one measured (backend,
// params, op). Times are per operation in nanoseconds, of the clock named
// by clock; a ratio is null when the reference backend could not run the
// operation.
type Result struct {
	// Scheme is the scheme timed, absent for round 3.
	Scheme        string   `json:"scheme,omitempty"`
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

// Plan is what Run measures: every operation of Ops over every backend
// (References among them) at every degree 2^LogNs[i], Rounds times, each
// run repeating the operation until MinTime has passed (at least once).
// The clock is the process's CPU time (user + system, all threads, the
// garbage collector's included), or elapsed time when Wall is set or the
// system has no CPU clock.
type Plan struct {
	// Scheme is the scheme timed; nil is round 3 (falcon's API, the
	// reference speed.c's operations). Another scheme signs and verifies
	// through its Scheme methods, with keys of its own key generation when
	// it has one (integer: the same for every backend, so keygen is timed
	// once, over native's row).
	Scheme   scheme.Scheme
	Backends []arith.Backend
	LogNs    []uint
	Ops      []string
	Rounds   int
	MinTime  time.Duration
	Wall     bool
}

// task is one (backend, params, op) and its timed runs.
type task struct {
	backend string
	logn    uint
	op      string
	run     func() error
	perRun  int
	times   []time.Duration // per operation, one per round
}

// Run prepares every task (an operation a backend cannot run is reported
// on warn and skipped), calibrates the operations per run, and runs the
// interleaved rounds. It stops with ctx's error when ctx is cancelled
// between runs.
func Run(ctx context.Context, plan *Plan, warn io.Writer) ([]Result, error) {
	clock := func() time.Duration { d, _ := cputime.Now(); return d }
	clockName := "cpu"
	if _, ok := cputime.Now(); !ok || plan.Wall {
		start := time.Now()
		clock = func() time.Duration { return time.Since(start) }
		clockName = "wall"
	}
	var tasks []*task
	for _, logn := range plan.LogNs {
		ts, err := newTasks(plan, logn, warn)
		if err != nil {
			return nil, err
		}
		tasks = append(tasks, ts...)
	}
	// Calibrate: ops per run so that a run lasts MinTime.
	for _, t := range tasks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		t0 := clock()
		if err := t.run(); err != nil {
			return nil, fmt.Errorf("%s %s Falcon-%d: %w", t.backend, t.op, 1<<t.logn, err)
		}
		d := max(clock()-t0, time.Microsecond)
		t.perRun = max(1, int(math.Ceil(float64(plan.MinTime)/float64(d))))
	}
	for round := range plan.Rounds {
		for i := range tasks {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			t := tasks[(i+round)%len(tasks)]
			t0 := clock()
			for range t.perRun {
				if err := t.run(); err != nil {
					return nil, fmt.Errorf("%s %s Falcon-%d: %w", t.backend, t.op, 1<<t.logn, err)
				}
			}
			t.times = append(t.times, (clock()-t0)/time.Duration(t.perRun))
		}
	}
	res := results(tasks, clockName)
	if plan.Scheme != nil && !scheme.IsDefault(plan.Scheme) {
		for i := range res {
			res[i].Scheme = plan.Scheme.Name()
		}
	}
	return res, nil
}

// newTasks prepares the tasks of one degree: the shared key, and per
// backend its expanded key and a signature to verify.
func newTasks(plan *Plan, logn uint, warn io.Writer) ([]*task, error) {
	nat, err := arith.Lookup("native")
	if err != nil {
		return nil, err
	}
	sc := plan.Scheme
	if sc != nil && scheme.IsDefault(sc) {
		sc = nil
	}
	var sk *falcon.PrivateKey
	var pk *falcon.PublicKey
	if sc != nil && sc.KeySeedSize() > 0 {
		if sk, err = sc.KeyGen(logn, shakeBytes(fmt.Sprintf("fprlab bench key %d", logn), sc.KeySeedSize())); err == nil {
			pk, err = sk.Public()
		}
	} else {
		sk, pk, err = falcon.Keygen(nat, logn, shakeStream(fmt.Sprintf("fprlab bench key %d", logn)))
	}
	if err != nil {
		return nil, fmt.Errorf("generating the benchmark key: %w", err)
	}
	msg := []byte("fprlab bench message")
	sign := func(b arith.Backend, rng io.Reader) ([]byte, error) {
		return falcon.Sign(b, sk, msg, falcon.Compressed, rng)
	}
	if sc != nil {
		sign = func(b arith.Backend, rng io.Reader) ([]byte, error) { return sc.Sign(b, sk, msg, rng) }
		if kh, ok := sc.(scheme.KeyHolder); ok {
			// An application keeps its decoded key: time signing with it.
			held, err := kh.HoldKey(sk)
			if err != nil {
				return nil, err
			}
			sign = func(b arith.Backend, rng io.Reader) ([]byte, error) { return held(b, msg, rng) }
		}
	}
	if sc != nil {
		for _, op := range plan.Ops {
			if slices.Contains(Round3Ops, op) {
				return nil, fmt.Errorf("%s: %s is round 3's only (%s has no expanded key)", sc.Name(), op, sc.Description())
			}
		}
	}
	var out []*task
	for _, b := range plan.Backends {
		rng := shakeStream("fprlab bench signing " + b.Name)
		var ek *falcon.ExpandedKey
		var sig []byte
		keys := 0
		for _, op := range plan.Ops {
			var run func() error
			switch op {
			case "keygen":
				if sc != nil && sc.KeySeedSize() > 0 {
					if b.Name != "native" {
						continue // integer key generation: the same on every backend
					}
					run = func() error {
						keys++
						_, err := sc.KeyGen(logn, shakeBytes(fmt.Sprintf("fprlab bench keygen %d", keys), sc.KeySeedSize()))
						return err
					}
					break
				}
				run = func() error {
					keys++
					_, _, err := falcon.Keygen(b, logn, shakeStream(fmt.Sprintf("fprlab bench keygen %d", keys)))
					return err
				}
			case "sign":
				run = func() error { _, err := sign(b, rng); return err }
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
					if sig, err = sign(b, rng); err != nil {
						return nil, fmt.Errorf("%s: signing the benchmark message: %w", b.Name, err)
					}
				}
				run = func() error {
					if sc != nil {
						return sc.Verify(pk, msg, sig)
					}
					return falcon.Verify(pk, msg, sig)
				}
			}
			// An operation the backend cannot run at all is skipped
			// (triword's exponent range cannot run NTRUSolve).
			if err := run(); err != nil {
				fmt.Fprintf(warn, "fprlab bench: %s %s Falcon-%d skipped: %v\n", b.Name, op, 1<<logn, err)
				continue
			}
			out = append(out, &task{backend: b.Name, logn: logn, op: op, run: run})
		}
	}
	return out, nil
}

// shakeBytes is the first n bytes of SHAKE256(seed).
func shakeBytes(seed string, n int) []byte {
	return sha3.SumSHAKE256([]byte(seed), n)
}

// shakeStream is an endless deterministic byte stream: SHAKE256(seed).
func shakeStream(seed string) io.Reader {
	h := sha3.NewSHAKE256()
	h.Write([]byte(seed))
	return h
}

// results summarises each task and computes the ratios to the
// reference backends' medians of the same degree and operation.
func results(tasks []*task, clock string) []Result {
	type key struct {
		backend string
		params  int
		op      string
	}
	medians := map[key]time.Duration{}
	var res []Result
	for _, t := range tasks {
		ts := slices.Clone(t.times)
		slices.Sort(ts)
		med := ts[len(ts)/2]
		if len(ts)%2 == 0 {
			med = (ts[len(ts)/2-1] + ts[len(ts)/2]) / 2
		}
		medians[key{t.backend, 1 << t.logn, t.op}] = med
		res = append(res, Result{
			Backend: t.backend, Params: 1 << t.logn, Op: t.op,
			MedianNS: med.Nanoseconds(), MinNS: ts[0].Nanoseconds(), MaxNS: ts[len(ts)-1].Nanoseconds(),
			Runs: len(ts), OpsPerRun: t.perRun, Clock: clock,
		})
	}
	ratio := func(r Result, ref string) *float64 {
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
	slices.SortStableFunc(res, func(a, b Result) int {
		if a.Params != b.Params {
			return a.Params - b.Params
		}
		return slices.Index(Ops, a.Op) - slices.Index(Ops, b.Op)
	})
	return res
}
