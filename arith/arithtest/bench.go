package arithtest

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// BenchOps names the operations of the benchmark set, in the order Bench
// runs them: the sub-benchmark names, and the arguments BenchOp takes.
var BenchOps = []string{"Add", "Sub", "Mul", "Sqr", "Div", "Inv", "Sqrt", "Rint", "Lt", "ExpmP63"}

// Bench runs the benchmark set over a, one sub-benchmark per operation of
// BenchOps. Each iteration is one operation, called through generic code
// as Falcon's generic engine calls it (a method call on a type parameter);
// the operands cycle through 1,024 values of Falcon's range (magnitudes
// 2^-8 to 2^8, both signs; positive for Sqrt; for ExpmP63, 0 <= x < ln 2
// and 0.7 <= ccs < 0.99), the same for every backend.
func Bench[F any](b *testing.B, a arith.Arith[F]) {
	for _, op := range BenchOps {
		b.Run(op, func(b *testing.B) { BenchOp(b, a, op) })
	}
}

// BenchOp runs the benchmark of one operation of BenchOps over a, for a
// package that keeps a top-level benchmark of its own (BenchmarkAdd ...,
// the names docs/findings.md's tables cite).
func BenchOp[F any](b *testing.B, a arith.Arith[F], op string) {
	r := rand.New(rand.NewPCG(1, 2))
	xs, ys, es, cs := make([]F, 1024), make([]F, 1024), make([]F, 1024), make([]F, 1024)
	for i := range xs {
		x := (r.Float64() - 0.5) * float64(int64(1)<<r.IntN(16)) / 256
		if op == "Sqrt" && x < 0 {
			x = -x
		}
		xs[i] = a.FromFloat64(x)
		ys[i] = a.FromFloat64((r.Float64() - 0.5) * float64(int64(1)<<r.IntN(16)) / 256)
		es[i] = a.FromFloat64(r.Float64() * 0.69)
		cs[i] = a.FromFloat64(0.7 + 0.29*r.Float64())
	}
	var s F
	switch op {
	case "Add":
		for i := 0; b.Loop(); i++ {
			s = a.Add(xs[i&1023], ys[i&1023])
		}
	case "Sub":
		for i := 0; b.Loop(); i++ {
			s = a.Sub(xs[i&1023], ys[i&1023])
		}
	case "Mul":
		for i := 0; b.Loop(); i++ {
			s = a.Mul(xs[i&1023], ys[i&1023])
		}
	case "Sqr":
		for i := 0; b.Loop(); i++ {
			s = a.Sqr(xs[i&1023])
		}
	case "Div":
		for i := 0; b.Loop(); i++ {
			s = a.Div(xs[i&1023], ys[i&1023])
		}
	case "Inv":
		for i := 0; b.Loop(); i++ {
			s = a.Inv(ys[i&1023])
		}
	case "Sqrt":
		for i := 0; b.Loop(); i++ {
			s = a.Sqrt(xs[i&1023])
		}
	case "Rint":
		var n int64
		for i := 0; b.Loop(); i++ {
			n += a.Rint(xs[i&1023])
		}
		runtime.KeepAlive(n)
	case "Lt":
		var lt bool
		for i := 0; b.Loop(); i++ {
			lt = lt != a.Lt(xs[i&1023], ys[i&1023])
		}
		runtime.KeepAlive(lt)
	case "ExpmP63":
		var u uint64
		for i := 0; b.Loop(); i++ {
			u += a.ExpmP63(es[i&1023], cs[i&1023])
		}
		runtime.KeepAlive(u)
	default:
		b.Fatalf("arithtest: no benchmark of operation %q (BenchOps lists them)", op)
	}
	runtime.KeepAlive(s) // the compiler keeps the operations whose results reach it
}
