package triword

import (
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/arithtest"
)

// benchOperands are random triple words over Falcon's range, positive
// where the operation needs it.
func benchOperands() (xs, ys []TW) {
	r := rand.New(rand.NewPCG(51, 52))
	for range 1024 {
		xs = append(xs, absTW(randTW(r, -20, 20)))
		ys = append(ys, randTW(r, -20, 20))
	}
	return xs, ys
}

var sink TW

func benchBinary(b *testing.B, f func(x, y TW) TW) {
	xs, ys := benchOperands()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		sink = f(xs[i&1023], ys[i&1023])
	}
}

// BenchmarkOps is the benchmark set of every backend (package arithtest),
// over the fast and the accurate product. BenchmarkAdd, BenchmarkMulFast,
// BenchmarkMulAcc and BenchmarkExpmP63 run single operations of it under
// the names docs/findings.md's per-operation table cites.
func BenchmarkOps(b *testing.B) {
	b.Run("fast", func(b *testing.B) { arithtest.Bench(b, Arith{}) })
	b.Run("accurate", func(b *testing.B) { arithtest.Bench(b, Arith{Accurate: true}) })
}

func BenchmarkAdd(b *testing.B)     { arithtest.BenchOp(b, Arith{}, "Add") }
func BenchmarkMulFast(b *testing.B) { arithtest.BenchOp(b, Arith{}, "Mul") }
func BenchmarkMulAcc(b *testing.B)  { arithtest.BenchOp(b, Arith{Accurate: true}, "Mul") }
func BenchmarkExpmP63(b *testing.B) { arithtest.BenchOp(b, Arith{}, "ExpmP63") }

var sinkU uint64

func BenchmarkRint(b *testing.B) {
	r := rand.New(rand.NewPCG(55, 56))
	var a Arith
	var xs []TW
	for range 1024 {
		xs = append(xs, randTW(r, -5, 30))
	}
	var s int64
	for i := 0; b.Loop(); i++ {
		s += a.Rint(xs[i&1023])
	}
	sinkU = uint64(s)
}
