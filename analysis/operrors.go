// Package analysis measures floating-point backends against the big-float
// oracle: per-operation error statistics (this file), and the analyses of
// Falcon runs built on them.
package analysis

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/oracle"
	"github.com/fprlab/fprlab/arith/triword"
)

// The default exponent range of the inputs, Falcon's: the binary exponents
// of the values signing and key generation add and multiply lie within it
// (DESIGN.md section 4 measures -105..34 for the inputs of additions and
// products; the range keeps a margin on both sides).
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
	// Progress, if not nil, is called from the calling goroutine about
	// four times a second and once at the end with the samples done.
	Progress func(op string, done, total int)
}

// OpError holds the error statistics of one operation of one backend.
//
// Errors are relative: |got - exact|/|exact|, where exact is the oracle's
// result at 256 bits on the very inputs the backend held, with these
// exceptions:
//   - an exact result of zero gives error 0 when the backend also returns
//     zero and error 1 (no correct bit) otherwise;
//   - rint, floor and trunc compare integers exactly, relative to
//     max(1, |exact|);
//   - expm_p63 is measured relative to its full scale 2^63 (the absolute
//     error of ccs*exp(-x)), the quantity the sampler's comparison with
//     uniform 63-bit integers sees; relative to the value itself, the
//     reference's truncation alone would dominate for small ccs;
//   - a NaN or infinite result counts as error 2^1024.
//
// Log2 fields are -Inf when the error is zero (every sample exact for the
// maximum, at least half of them for the median).
type OpError struct {
	Backend          string
	Op               string
	Samples          int
	MaxRelErrLog2    float64 // log2 of the largest error
	MedianRelErrLog2 float64 // log2 of the lower median error
	// BoundLog2 is log2 of the backend's proven relative error bound for
	// the operation (arith.ErrorBounds), when HasBound.
	BoundLog2 float64
	HasBound  bool
	// Worst holds the inputs of the first sample with the largest error
	// (X only for unary operations, I for of; X is x and Y is ccs for
	// expm_p63), as binary64 values before import.
	Worst Inputs
}

// Inputs are the operands of one sample.
type Inputs struct {
	X, Y float64
	I    int64
}

// Bits is the number of correct bits in the worst case, -MaxRelErrLog2
// (+Inf for an operation that was always exact).
func (e OpError) Bits() float64 { return -e.MaxRelErrLog2 }

// WorstOverBound is the largest error divided by the proven bound (ok =
// false without a bound). Above 1 the bound is violated.
func (e OpError) WorstOverBound() (float64, bool) {
	if !e.HasBound {
		return 0, false
	}
	return math.Exp2(e.MaxRelErrLog2 - e.BoundLog2), true
}

// nonFiniteLog2 is the error (log2) charged to a NaN or infinite result.
const nonFiniteLog2 = 1024

// opKind enumerates arith.OpNames.
type opKind int

const (
	opAdd opKind = iota
	opSub
	opMul
	opSqr
	opInv
	opDiv
	opSqrt
	opOf
	opRint
	opFloor
	opTrunc
	opExpm
)

func parseOp(name string) (opKind, error) {
	for i, n := range arith.OpNames {
		if n == name {
			return opKind(i), nil
		}
	}
	return 0, fmt.Errorf("unknown operation %q (known: %v)", name, arith.OpNames)
}

// MeasureOpErrors measures each named operation in turn (see
// MeasureOpError).
func MeasureOpErrors(b arith.Backend, ops []string, cfg OpErrorConfig) ([]OpError, error) {
	out := make([]OpError, 0, len(ops))
	for _, op := range ops {
		r, err := MeasureOpError(b, op, cfg)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
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
func MeasureOpError(b arith.Backend, op string, cfg OpErrorConfig) (OpError, error) {
	k, err := parseOp(op)
	if err != nil {
		return OpError{}, err
	}
	if cfg.N < 1 || cfg.N > MaxSamples {
		return OpError{}, fmt.Errorf("number of samples %d out of range 1..%d", cfg.N, MaxSamples)
	}
	if cfg.MinExp == 0 {
		cfg.MinExp = MinExp
	}
	if cfg.MaxExp == 0 {
		cfg.MaxExp = MaxExp
	}
	if cfg.MinExp < -ExpLimit || cfg.MinExp > -4 || cfg.MaxExp < 4 || cfg.MaxExp > ExpLimit {
		return OpError{}, fmt.Errorf("exponent range %d..%d: need -%d <= min <= -4 and 4 <= max <= %d", cfg.MinExp, cfg.MaxExp, ExpLimit, ExpLimit)
	}
	var errs []float32
	var worst sampleResult
	switch a := b.Impl.(type) {
	case arith.Arith[float64]:
		errs, worst = run(a, k, cfg)
	case arith.Arith[emu64.FPR]:
		errs, worst = run(a, k, cfg)
	case arith.Arith[*big.Float]:
		errs, worst = run(a, k, cfg)
	case arith.Arith[triword.TW]:
		errs, worst = run(a, k, cfg)
	default:
		return OpError{}, fmt.Errorf("backend %q has value type %T, which the error analysis is not instantiated for", b.Name, b.Impl)
	}
	slices.Sort(errs)
	res := OpError{
		Backend:          b.Name,
		Op:               op,
		Samples:          cfg.N,
		MaxRelErrLog2:    worst.errLog2,
		MedianRelErrLog2: float64(errs[(len(errs)-1)/2]),
		Worst:            worst.in,
	}
	if eb, ok := b.Impl.(arith.ErrorBounds); ok {
		if bound, ok := eb.RelErrBound(op); ok && bound > 0 {
			res.BoundLog2, res.HasBound = math.Log2(bound), true
		}
	}
	return res, nil
}

// chunkSize is the number of samples drawn from one random stream. Chunk c
// of operation k uses the stream seeded (Seed, k<<40 | c), so the samples do
// not depend on how chunks are spread over workers.
const chunkSize = 4096

// sampleResult is the error of one sample and its inputs.
type sampleResult struct {
	errLog2 float64
	in      Inputs
}

// run measures op k over cfg.N samples on backend a and returns the log2
// errors of all samples (unsorted) and the first sample with the largest
// error, at full precision.
func run[F any, A arith.Arith[F]](a A, k opKind, cfg OpErrorConfig) ([]float32, sampleResult) {
	ref, err := oracle.New(oracle.DefaultPrec)
	if err != nil {
		panic(err) // DefaultPrec is in range
	}
	n := cfg.N
	chunks := (n + chunkSize - 1) / chunkSize
	errs := make([]float32, n)
	worst := make([]sampleResult, chunks)
	d := drawer{emin: cfg.MinExp, emax: cfg.MaxExp}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, chunks)
	var next, done atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c := int(next.Add(1) - 1)
				if c >= chunks {
					return
				}
				rng := rand.New(rand.NewPCG(cfg.Seed, uint64(k)<<40|uint64(c)))
				w := sampleResult{errLog2: math.Inf(-1)}
				end := min(n, (c+1)*chunkSize)
				for i := c * chunkSize; i < end; i++ {
					in := d.draw(rng, k)
					e := eval(a, ref, k, in)
					errs[i] = float32(e)
					if e > w.errLog2 || i == c*chunkSize {
						w = sampleResult{e, in}
					}
				}
				worst[c] = w
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
				cfg.Progress(arith.OpNames[k], int(done.Load()), n)
			}
		}
		cfg.Progress(arith.OpNames[k], n, n)
	}
	wg.Wait()
	w := worst[0]
	for _, r := range worst[1:] {
		if r.errLog2 > w.errLog2 {
			w = r
		}
	}
	return errs, w
}

// eval runs op k on the inputs with the backend and the oracle and returns
// log2 of the error as OpError defines it.
func eval[F any, A arith.Arith[F]](a A, ref oracle.Arith, k opKind, in Inputs) float64 {
	switch k {
	case opOf:
		return floatErr(a, a.Of(in.I), new(big.Float).SetInt64(in.I))
	case opRint, opFloor, opTrunc:
		x := a.FromFloat64(in.X)
		bx := a.Big(x)
		switch k {
		case opRint:
			return intErr(a.Rint(x), ref.Rint(bx))
		case opFloor:
			return intErr(a.Floor(x), ref.Floor(bx))
		}
		return intErr(a.Trunc(x), ref.Trunc(bx))
	case opExpm:
		x, ccs := a.FromFloat64(in.X), a.FromFloat64(in.Y)
		got := a.ExpmP63(x, ccs)
		want := ref.ExpmP63(a.Big(x), a.Big(ccs))
		if got == want {
			return math.Inf(-1)
		}
		d := float64(got) - float64(want) // |d| < 2^64: the float64 rounding is harmless
		return math.Log2(math.Abs(d)) - 63
	}
	x, y := a.FromFloat64(in.X), a.FromFloat64(in.Y)
	bx, by := a.Big(x), a.Big(y)
	switch k {
	case opAdd:
		return floatErr(a, a.Add(x, y), ref.Add(bx, by))
	case opSub:
		return floatErr(a, a.Sub(x, y), ref.Sub(bx, by))
	case opMul:
		return floatErr(a, a.Mul(x, y), ref.Mul(bx, by))
	case opSqr:
		return floatErr(a, a.Sqr(x), ref.Sqr(bx))
	case opInv:
		return floatErr(a, a.Inv(x), ref.Inv(bx))
	case opDiv:
		return floatErr(a, a.Div(x, y), ref.Div(bx, by))
	case opSqrt:
		return floatErr(a, a.Sqrt(x), ref.Sqrt(bx))
	}
	panic("analysis: unhandled operation")
}

// floatErr returns log2 of the relative error of the backend value got
// against the oracle value want.
func floatErr[F any, A arith.Arith[F]](a A, got F, want *big.Float) float64 {
	if math.IsNaN(a.Float64(got)) {
		return nonFiniteLog2
	}
	g := a.Big(got)
	if g.IsInf() || want.IsInf() {
		if g.IsInf() && want.IsInf() && g.Signbit() == want.Signbit() {
			return math.Inf(-1)
		}
		return nonFiniteLog2
	}
	if want.Sign() == 0 {
		if g.Sign() == 0 {
			return math.Inf(-1)
		}
		return 0
	}
	d := new(big.Float).SetPrec(64).Sub(g, want)
	if d.Sign() == 0 {
		return math.Inf(-1)
	}
	return log2Abs(d.Quo(d, want))
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
func (d drawer) draw(rng *rand.Rand, k opKind) Inputs {
	switch k {
	case opAdd, opSub:
		ex := randExp(rng, d.emin, d.emax-1)
		w := 60
		if rng.IntN(4) == 0 {
			w = 2
		}
		ey := min(d.emax-1, max(d.emin, ex+randExp(rng, -w, w)))
		return Inputs{X: randF(rng, ex), Y: randF(rng, ey)}
	case opMul:
		for {
			ex, er := randExp(rng, d.emin, d.emax), randExp(rng, d.emin, d.emax-1)
			if ey := er - ex; ey >= d.emin && ey <= d.emax {
				return Inputs{X: randF(rng, ex), Y: randF(rng, ey)}
			}
		}
	case opDiv:
		for {
			ex, er := randExp(rng, d.emin, d.emax), randExp(rng, d.emin+1, d.emax)
			if ey := ex - er; ey >= d.emin && ey <= d.emax {
				return Inputs{X: randF(rng, ex), Y: randF(rng, ey)}
			}
		}
	case opSqr:
		return Inputs{X: randF(rng, randExp(rng, (d.emin+1)/2, (d.emax-1)/2))}
	case opInv:
		return Inputs{X: randF(rng, randExp(rng, max(d.emin, -d.emax), min(d.emax, -d.emin-1)))}
	case opSqrt:
		return Inputs{X: math.Abs(randF(rng, randExp(rng, d.emin, d.emax)))}
	case opOf:
		return Inputs{I: randInt64(rng)}
	case opRint, opFloor, opTrunc:
		return Inputs{X: randIntRange(rng)}
	case opExpm:
		x := rng.Float64() * math.Ln2
		return Inputs{X: x, Y: rng.Float64()}
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
