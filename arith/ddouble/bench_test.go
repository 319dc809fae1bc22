package ddouble

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// The benchmarks run each operation over the double words and over the
// 256-bit oracle (the shadow this backend is meant to replace), on the
// same values, through generic code as Falcon calls them (a method call on
// a type parameter, never inlined). Compare with
//
//	go test -run '^$' -bench . -count 10 ./arith/ddouble
//
// and the medians of each pair.

// benchValues are random double words over Falcon's range (positive, for
// the square root), exponential arguments in [0, ln 2) and ccs in (0, 1].
func benchValues() (xs, ys, es, cs []DD) {
	r := rand.New(rand.NewPCG(51, 52))
	for range 1024 {
		xs = append(xs, randUnit(r, -20, 20))
		ys = append(ys, randDD(r, -20, 20))
		es = append(es, randExpArg(r))
		cs = append(cs, randUnit(r, -1, -1))
	}
	return xs, ys, es, cs
}

// convert imports the values into backend a exactly (through Big).
func convert[F any](a arith.Arith[F], from func(*big.Float) F, vs []DD) []F {
	out := make([]F, len(vs))
	for i, v := range vs {
		out[i] = from(dd.Big(v))
	}
	return out
}

var (
	sinkDD  DD
	sinkBig *big.Float
	sinkU   uint64
)

func runBench[F any](b *testing.B, a arith.Arith[F], from func(*big.Float) F, op string, sink *F) {
	xv, yv, ev, cv := benchValues()
	xs, ys, es, cs := convert(a, from, xv), convert(a, from, yv), convert(a, from, ev), convert(a, from, cv)
	b.ResetTimer()
	switch op {
	case "add":
		for i := 0; b.Loop(); i++ {
			*sink = a.Add(xs[i&1023], ys[i&1023])
		}
	case "mul":
		for i := 0; b.Loop(); i++ {
			*sink = a.Mul(xs[i&1023], ys[i&1023])
		}
	case "inv":
		for i := 0; b.Loop(); i++ {
			*sink = a.Inv(ys[i&1023])
		}
	case "sqrt":
		for i := 0; b.Loop(); i++ {
			*sink = a.Sqrt(xs[i&1023])
		}
	case "expm_p63":
		var s uint64
		for i := 0; b.Loop(); i++ {
			s += a.ExpmP63(es[i&1023], cs[i&1023])
		}
		sinkU = s
	}
}

// fromBigDD rounds a big value (here always a double word) to one.
func fromBigDD(v *big.Float) DD {
	hi, _ := v.Float64()
	lo, _ := new(big.Float).SetPrec(2200).Sub(v, new(big.Float).SetFloat64(hi)).Float64()
	return DD{hi, lo}
}

func benchBoth(b *testing.B, op string) {
	b.Run("dd", func(b *testing.B) { runBench[DD](b, dd, fromBigDD, op, &sinkDD) })
	b.Run("oracle256", func(b *testing.B) {
		runBench[*big.Float](b, ora, func(v *big.Float) *big.Float { return new(big.Float).SetPrec(256).Set(v) }, op, &sinkBig)
	})
}

func BenchmarkAdd(b *testing.B)     { benchBoth(b, "add") }
func BenchmarkMul(b *testing.B)     { benchBoth(b, "mul") }
func BenchmarkInv(b *testing.B)     { benchBoth(b, "inv") }
func BenchmarkSqrt(b *testing.B)    { benchBoth(b, "sqrt") }
func BenchmarkExpmP63(b *testing.B) { benchBoth(b, "expm_p63") }
