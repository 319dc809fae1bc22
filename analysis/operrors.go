// Package analysis measures floating-point backends, one operation at a
// time, against the big-float oracle: the error statistics of each
// operation on random inputs (MeasureOpError, this file) and the error of
// expm_p63 across its domain (MeasureExpmCurve). The analyses of Falcon
// runs live in its subpackages: the exact shadow of signing (shadow), the
// precision search (tune), and the documents, figures and reports made of
// their results (results, plot, report).
package analysis

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// The default exponent range of the inputs, Falcon's: the binary exponents
// of the values signing and key generation add and multiply lie within it
// (TWFalcon, ePrint 2025/1991, measures -105..34 for the inputs of
// additions and products over 100M Falcon-1024 signatures; the range keeps
// a margin on both sides).
const (
	MinExp = -110
	MaxExp = 80
)

// ExpLimit bounds the exponent range a configuration may choose: it keeps
// binary64 inputs and results normal.
const ExpLimit = 500

// MaxSamples bounds OpErrorConfig.N: the relative errors of all samples
// are kept (4 bytes each) to compute the exact median.
const MaxSamples = 100_000_000

// OpErrorConfig sets how MeasureOpError samples.
type OpErrorConfig struct {
	// N is the number of samples per operation, 1 <= N <= MaxSamples.
	N int
	// Seed selects the inputs; the same seed gives the same inputs to
	// every backend, and the same statistics whatever Workers is.
	Seed uint64
	// MinExp and MaxExp set the binary exponent range of operands and
	// results of the floating-point operations; zero values select the
	// defaults MinExp and MaxExp. They must satisfy
	// -ExpLimit <= MinExp <= -4 and 4 <= MaxExp <= ExpLimit.
	MinExp, MaxExp int
	// Workers is the number of goroutines (0: GOMAXPROCS). The backend
	// must be safe for concurrent use, as every registered backend is
	// (they are stateless).
	Workers int
	// Progress, if not nil, is called from the calling goroutine when an
	// operation starts (done 0), about four times a second, and once at
	// the end with the samples done.
	Progress func(op string, done, total int)
}

// NonFiniteLog2 is the error (log2) charged to a NaN or infinite result
// for a value the format can hold (an arithmetic failure, not an overflow,
// which AboveRange counts): larger than any finite relative error, so it
// is always the maximum. Reports show it as a failure, not as a number.
const NonFiniteLog2 = 1024

// parseOp returns the measured operation named name and its position in
// arith.MeasuredOps, which seeds its input stream (so a run's inputs do not
// depend on how the operation list is numbered elsewhere).
func parseOp(name string) (arith.Op, int, error) {
	for i, o := range arith.MeasuredOps {
		if o.String() == name {
			return o, i, nil
		}
	}
	return 0, 0, fmt.Errorf("unknown operation %q (known: %v)", name, arith.OpNames)
}

// MeasureOpErrors measures each named operation in turn (see
// MeasureOpError).
func MeasureOpErrors(b arith.Backend, ops []string, cfg OpErrorConfig) ([]results.OpError, error) {
	return MeasureOpErrorsFrom(context.Background(), b, ops, cfg, nil, nil)
}

// MeasureOpErrorsFrom measures each named operation in turn, resumably:
// an operation have holds a finished result of (when have is not nil) is
// taken from it, and each new result is handed to done (when not nil: a
// checkpoint saves it) with the time it took, before the next operation
// starts. It stops with ctx's error when ctx is cancelled between
// operations.
func MeasureOpErrorsFrom(ctx context.Context, b arith.Backend, ops []string, cfg OpErrorConfig,
	have func(op string) (results.OpError, bool), done func(r results.OpError, took time.Duration) error) ([]results.OpError, error) {
	out := make([]results.OpError, 0, len(ops))
	for _, op := range ops {
		if have != nil {
			if r, ok := have(op); ok {
				out = append(out, r)
				continue
			}
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		start := time.Now()
		r, err := MeasureOpError(b, op, cfg)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
		if done != nil {
			if err := done(r, time.Since(start)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// MeasureOpError runs cfg.N samples of operation op (one of arith.OpNames)
// on backend b and compares each result with the oracle at 256 bits.
//
// Inputs are binary64 values imported with FromFloat64, so every backend
// gets the same inputs for a seed; a backend with fewer than 53 bits rounds
// them on import, and the error is then measured on the rounded inputs
// (the oracle computes on the backend's own values, Big(FromFloat64(x))).
// The inputs are random significands with exponents drawn so that operands
// and exact results lie in 2^MinExp..2^MaxExp (or the configured range):
//   - add, sub: any exponents, the second operand within 60 binades of the
//     first (a quarter within 2, where sums cancel), random signs;
//   - mul, div: exponents drawn so that the result is in range too; sqr and
//     inv likewise; sqrt: positive operands;
//   - of: int64 values with 0..63 significant bits, random signs;
//   - rint, floor, trunc: |x| < 2^62, one in eight an exact tie n + 1/2;
//   - expm_p63: x uniform in [0, ln 2), ccs uniform in [0, 1).
func MeasureOpError(b arith.Backend, op string, cfg OpErrorConfig) (results.OpError, error) {
	k, seq, err := parseOp(op)
	if err != nil {
		return results.OpError{}, err
	}
	if cfg.N < 1 || cfg.N > MaxSamples {
		return results.OpError{}, fmt.Errorf("number of samples %d out of range 1..%d", cfg.N, MaxSamples)
	}
	if cfg.MinExp == 0 {
		cfg.MinExp = MinExp
	}
	if cfg.MaxExp == 0 {
		cfg.MaxExp = MaxExp
	}
	if cfg.MinExp < -ExpLimit || cfg.MinExp > -4 || cfg.MaxExp < 4 || cfg.MaxExp > ExpLimit {
		return results.OpError{}, fmt.Errorf("exponent range %d..%d: need -%d <= min <= -4 and 4 <= max <= %d", cfg.MinExp, cfg.MaxExp, ExpLimit, ExpLimit)
	}
	// Without a bound-validity range every sample counts (minExp below any
	// exponent the drawer produces).
	minExp := math.MinInt32
	res := results.OpError{Backend: b.Name, Op: op, Drawn: cfg.N}
	if eb, ok := b.Impl.(arith.ErrorBounds); ok {
		if bound, ok := eb.RelErrBound(op); ok && bound > 0 {
			res.BoundLog2, res.HasBound = math.Log2(bound), true
		}
		minExp = eb.BoundMinExp()
		res.RangeMinExp, res.HasRange = minExp, true
	}
	m, err := measurersOf(b)
	if err != nil {
		return results.OpError{}, err
	}
	st := m.op(k, seq, cfg, minExp)
	res.Samples = len(st.errs)
	res.MaxRelErrLog2 = st.worst.errLog2
	res.Worst = st.worst.in
	res.MedianRelErrLog2 = math.Inf(-1)
	if len(st.errs) > 0 {
		slices.Sort(st.errs)
		res.MedianRelErrLog2 = float64(st.errs[(len(st.errs)-1)/2])
	}
	res.BelowRange = st.below
	res.AboveRange = st.above
	res.BelowRangeMaxRelErrLog2 = st.belowRel
	res.BelowRangeMaxAbsErrLog2 = st.belowAbs
	return res, nil
}

// runStats is what run measured: the log2 errors of the in-range samples
// (unsorted), the first in-range sample with the largest error, and the
// count and largest errors of the samples below range.
type runStats struct {
	errs               []float32
	worst              sampleResult
	below, above       int
	belowRel, belowAbs float64
}

// chunkSize is the number of samples drawn from one random stream. Chunk c
// of operation k uses the stream seeded (Seed, k<<40 | c), so the samples do
// not depend on how chunks are spread over workers.
const chunkSize = 4096

// sampleResult is the error of one sample and its inputs.
type sampleResult struct {
	errLog2 float64
	in      results.Inputs
}

// chunkResult gathers one chunk's in-range worst sample and its
// below-range statistics.
type chunkResult struct {
	worst              sampleResult
	found              bool
	below, above       int
	belowRel, belowAbs float64
}

// run measures op k over cfg.N samples on backend a; samples whose operands
// or exact result lie below 2^minExp are set apart (see results.OpError).
func run[F any, A arith.Arith[F]](a A, k arith.Op, seq int, cfg OpErrorConfig, minExp int) runStats {
	ref, err := oracle.New(oracle.DefaultPrec)
	if err != nil {
		panic(err) // DefaultPrec is in range
	}
	n := cfg.N
	chunks := (n + chunkSize - 1) / chunkSize
	errs := make([]float32, n)
	inRange := make([]bool, n)
	results := make([]chunkResult, chunks)
	d := drawer{emin: cfg.MinExp, emax: cfg.MaxExp}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, chunks)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	if cfg.Progress != nil {
		cfg.Progress(k.String(), 0, n)
	}
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				rng := rand.New(rand.NewPCG(cfg.Seed, uint64(seq)<<40|uint64(c)))
				cr := chunkResult{worst: sampleResult{errLog2: math.Inf(-1)}, belowRel: math.Inf(-1), belowAbs: math.Inf(-1)}
				end := min(n, (c+1)*chunkSize)
				for i := c * chunkSize; i < end; i++ {
					in := d.draw(rng, k)
					e := eval(a, ref, k, in, minExp)
					if e.overflow {
						cr.above++
						continue
					}
					if !e.inRange {
						cr.below++
						cr.belowRel = max(cr.belowRel, e.rel)
						cr.belowAbs = max(cr.belowAbs, e.abs)
						continue
					}
					errs[i], inRange[i] = float32(e.rel), true
					if e.rel > cr.worst.errLog2 || !cr.found {
						cr.worst, cr.found = sampleResult{e.rel, in}, true
					}
				}
				results[c] = cr
				done.Add(int64(end - c*chunkSize))
			}
		}()
	}
	if cfg.Progress != nil {
		finished := make(chan struct{})
		go func() { wg.Wait(); close(finished) }()
		tick := time.NewTicker(250 * time.Millisecond)
		defer tick.Stop()
	wait:
		for {
			select {
			case <-finished:
				break wait
			case <-tick.C:
				cfg.Progress(k.String(), int(done.Load()), n)
			}
		}
		cfg.Progress(k.String(), n, n)
	}
	wg.Wait()
	st := runStats{worst: sampleResult{errLog2: math.Inf(-1)}, belowRel: math.Inf(-1), belowAbs: math.Inf(-1)}
	found := false
	for _, r := range results {
		if r.found && (!found || r.worst.errLog2 > st.worst.errLog2) {
			st.worst, found = r.worst, true
		}
		st.below += r.below
		st.above += r.above
		st.belowRel = max(st.belowRel, r.belowRel)
		st.belowAbs = max(st.belowAbs, r.belowAbs)
	}
	st.errs = errs[:0]
	for i, ok := range inRange {
		if ok {
			st.errs = append(st.errs, errs[i])
		}
	}
	return st
}

// sampleErr is the error of one sample: log2 of the relative error as
// results.OpError defines it, log2 of the absolute error (floating-point results;
// equal to rel otherwise), and whether the sample is in range.
type sampleErr struct {
	rel, abs float64
	inRange  bool
	overflow bool // the backend's format overflowed (see results.OpError.AboveRange)
}

// exact is a sampleErr for operations measured without a range.
func exact(rel float64) sampleErr { return sampleErr{rel: rel, abs: rel, inRange: true} }

// eval runs op k on the inputs with the backend and the oracle and returns
// the sample's error. The floating-point operations (not of, whose inputs
// are integers) are in range when every nonzero operand and the exact
// result have magnitude at least 2^minExp. The drawn binary64 operands are
// checked too: an operand that underflowed to zero on import is below the
// range, not an exact zero (its exact result, say 0/0, is meaningless).
func eval[F any, A arith.Arith[F]](a A, ref oracle.Arith, k arith.Op, in results.Inputs, minExp int) sampleErr {
	switch k {
	case arith.OpOf:
		return exact(floatErr(a, a.Of(in.I), new(big.Float).SetInt64(in.I), minExp, nil).rel)
	case arith.OpRint, arith.OpFloor, arith.OpTrunc:
		x := a.FromFloat64(in.X)
		bx := a.Big(x)
		switch k {
		case arith.OpRint:
			return exact(intErr(a.Rint(x), ref.Rint(bx)))
		case arith.OpFloor:
			return exact(intErr(a.Floor(x), ref.Floor(bx)))
		}
		return exact(intErr(a.Trunc(x), ref.Trunc(bx)))
	case arith.OpExpmP63:
		return exact(expmErrLog2(a, ref, in.X, in.Y))
	}
	x, y := a.FromFloat64(in.X), a.FromFloat64(in.Y)
	bx, by := a.Big(x), a.Big(y)
	// Unary operations draw Y = 0, which the range check skips.
	dx, dy := new(big.Float).SetFloat64(in.X), new(big.Float).SetFloat64(in.Y)
	switch k {
	case arith.OpAdd:
		return floatErr(a, a.Add(x, y), ref.Add(bx, by), minExp, []*big.Float{bx, by, dx, dy})
	case arith.OpSub:
		return floatErr(a, a.Sub(x, y), ref.Sub(bx, by), minExp, []*big.Float{bx, by, dx, dy})
	case arith.OpMul:
		return floatErr(a, a.Mul(x, y), ref.Mul(bx, by), minExp, []*big.Float{bx, by, dx, dy})
	case arith.OpSqr:
		return floatErr(a, a.Sqr(x), ref.Sqr(bx), minExp, []*big.Float{bx, dx})
	case arith.OpInv:
		return floatErr(a, a.Inv(x), ref.Inv(bx), minExp, []*big.Float{bx, dx})
	case arith.OpDiv:
		return floatErr(a, a.Div(x, y), ref.Div(bx, by), minExp, []*big.Float{bx, by, dx, dy})
	case arith.OpSqrt:
		return floatErr(a, a.Sqrt(x), ref.Sqrt(bx), minExp, []*big.Float{bx, dx})
	}
	panic("analysis: unhandled operation")
}

// expmErrLog2 returns log2 of the error of the backend's ExpmP63(x, ccs)
// relative to full scale 2^63 (-Inf when exact), against the oracle's exact
// floor(2^63 ccs exp(-x)) on the values the backend holds.
func expmErrLog2[F any, A arith.Arith[F]](a A, ref oracle.Arith, x, ccs float64) float64 {
	bx, bc := a.FromFloat64(x), a.FromFloat64(ccs)
	got := a.ExpmP63(bx, bc)
	want := ref.ExpmP63(a.Big(bx), a.Big(bc))
	if got == want {
		return math.Inf(-1)
	}
	d := float64(got) - float64(want) // |d| < 2^64: the float64 rounding is harmless
	return math.Log2(math.Abs(d)) - 63
}

// floatErr returns the error of the backend value got against the oracle
// value want; the sample is in range when want and every nonzero operand
// have magnitude at least 2^minExp.
func floatErr[F any, A arith.Arith[F]](a A, got F, want *big.Float, minExp int, operands []*big.Float) sampleErr {
	inRange := true
	for _, v := range append(operands, want) {
		if v.Sign() != 0 && !v.IsInf() && v.MantExp(nil)-1 < minExp {
			inRange = false
		}
	}
	// The drawn operands are finite, so an infinite imported operand (the
	// backend's value, listed before the drawn one) is an overflow.
	overflow := false
	for _, v := range operands {
		overflow = overflow || v.IsInf()
	}
	if overflow {
		return sampleErr{overflow: true}
	}
	if gf := a.Float64(got); (math.IsNaN(gf) || math.IsInf(gf, 0)) && !want.IsInf() && overflows(a, want) {
		return sampleErr{overflow: true}
	}
	if math.IsNaN(a.Float64(got)) {
		return sampleErr{rel: NonFiniteLog2, abs: NonFiniteLog2, inRange: inRange}
	}
	g := a.Big(got)
	if g.IsInf() || want.IsInf() {
		if g.IsInf() && want.IsInf() && g.Signbit() == want.Signbit() {
			return sampleErr{rel: math.Inf(-1), abs: math.Inf(-1), inRange: inRange}
		}
		return sampleErr{rel: NonFiniteLog2, abs: NonFiniteLog2, inRange: inRange}
	}
	d := new(big.Float).SetPrec(64).Sub(g, want)
	if d.Sign() == 0 {
		return sampleErr{rel: math.Inf(-1), abs: math.Inf(-1), inRange: inRange}
	}
	abs := log2Abs(d)
	if want.Sign() == 0 {
		return sampleErr{rel: 0, abs: abs, inRange: inRange}
	}
	return sampleErr{rel: log2Abs(d.Quo(d, want)), abs: abs, inRange: inRange}
}

// overflows reports whether the finite value v is beyond the backend's
// range: it imports (through binary64) as an infinity. A non-finite result
// for such a v is the format's overflow; for a representable v it is an
// error of the backend and is charged as one.
func overflows[F any, A arith.Arith[F]](a A, v *big.Float) bool {
	f, _ := v.Float64()
	return math.IsInf(a.Float64(a.FromFloat64(f)), 0)
}

// intErr returns log2 of |got - want| / max(1, |want|).
func intErr(got, want int64) float64 {
	if got == want {
		return math.Inf(-1)
	}
	d := new(big.Float).SetPrec(64).Sub(new(big.Float).SetInt64(got), new(big.Float).SetInt64(want))
	if want != 0 {
		d.Quo(d, new(big.Float).SetInt64(want))
	}
	return log2Abs(d)
}

// log2Abs returns log2|x| for a finite nonzero x of any exponent.
func log2Abs(x *big.Float) float64 {
	m := new(big.Float)
	e := x.MantExp(m)
	f, _ := m.Float64()
	return float64(e) + math.Log2(math.Abs(f))
}

// randSig returns a random binary64 significand in [1, 2).
func randSig(rng *rand.Rand) float64 {
	return math.Float64frombits(rng.Uint64()>>12 | 0x3FF0000000000000)
}

// randF returns a random value with binary exponent e and a random sign.
func randF(rng *rand.Rand, e int) float64 {
	x := math.Ldexp(randSig(rng), e)
	if rng.Uint64()&1 != 0 {
		x = -x
	}
	return x
}

// randExp returns a uniform exponent in [lo, hi].
func randExp(rng *rand.Rand, lo, hi int) int { return lo + rng.IntN(hi-lo+1) }

// drawer draws the inputs of samples within an exponent range.
type drawer struct{ emin, emax int }

// draw returns the inputs of one sample of op k. The floating-point
// operands and exact results stay within 2^emin..2^emax; the significand
// of a product lies in [1, 4) and of a quotient in (1/2, 2), hence the
// one-binade margins.
func (d drawer) draw(rng *rand.Rand, k arith.Op) results.Inputs {
	switch k {
	case arith.OpAdd, arith.OpSub:
		ex := randExp(rng, d.emin, d.emax-1)
		w := 60
		if rng.IntN(4) == 0 {
			w = 2
		}
		ey := min(d.emax-1, max(d.emin, ex+randExp(rng, -w, w)))
		return results.Inputs{X: randF(rng, ex), Y: randF(rng, ey)}
	case arith.OpMul:
		for {
			ex, er := randExp(rng, d.emin, d.emax), randExp(rng, d.emin, d.emax-1)
			if ey := er - ex; ey >= d.emin && ey <= d.emax {
				return results.Inputs{X: randF(rng, ex), Y: randF(rng, ey)}
			}
		}
	case arith.OpDiv:
		for {
			ex, er := randExp(rng, d.emin, d.emax), randExp(rng, d.emin+1, d.emax)
			if ey := ex - er; ey >= d.emin && ey <= d.emax {
				return results.Inputs{X: randF(rng, ex), Y: randF(rng, ey)}
			}
		}
	case arith.OpSqr:
		return results.Inputs{X: randF(rng, randExp(rng, (d.emin+1)/2, (d.emax-1)/2))}
	case arith.OpInv:
		return results.Inputs{X: randF(rng, randExp(rng, max(d.emin, -d.emax), min(d.emax, -d.emin-1)))}
	case arith.OpSqrt:
		return results.Inputs{X: math.Abs(randF(rng, randExp(rng, d.emin, d.emax)))}
	case arith.OpOf:
		return results.Inputs{I: randInt64(rng)}
	case arith.OpRint, arith.OpFloor, arith.OpTrunc:
		return results.Inputs{X: randIntRange(rng)}
	case arith.OpExpmP63:
		x := rng.Float64() * math.Ln2
		return results.Inputs{X: x, Y: rng.Float64()}
	}
	panic("analysis: unhandled operation")
}

// randInt64 returns an int64 with 0..63 significant bits (uniform bit
// length, then uniform value), with a random sign.
func randInt64(rng *rand.Rand) int64 {
	bits := rng.IntN(64)
	if bits == 0 {
		return 0
	}
	v := int64(rng.Uint64()>>(64-bits) | 1<<(bits-1))
	if rng.Uint64()&1 != 0 {
		v = -v
	}
	return v
}

// randIntRange returns a value for rint, floor and trunc: |x| < 2^62 with
// a uniform exponent in [-8, 61], or (one in eight) a tie n + 1/2.
func randIntRange(rng *rand.Rand) float64 {
	if rng.IntN(8) == 0 {
		x := float64(rng.Int64N(1<<51)) + 0.5
		if rng.Uint64()&1 != 0 {
			x = -x
		}
		return x
	}
	return randF(rng, randExp(rng, -8, 61))
}
