package triword

import (
	"math/rand/v2"
	"testing"
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

func BenchmarkAdd(b *testing.B)     { benchBinary(b, Arith{}.Add) }
func BenchmarkMulFast(b *testing.B) { benchBinary(b, Arith{}.Mul) }
func BenchmarkMulAcc(b *testing.B)  { benchBinary(b, Arith{Accurate: true}.Mul) }
func BenchmarkDiv(b *testing.B)     { benchBinary(b, Arith{}.Div) }
func BenchmarkInv(b *testing.B)     { benchBinary(b, func(x, _ TW) TW { return Arith{}.Inv(x) }) }
func BenchmarkSqrt(b *testing.B)    { benchBinary(b, func(x, _ TW) TW { return Arith{}.Sqrt(x) }) }

func BenchmarkExpmP63(b *testing.B) {
	r := rand.New(rand.NewPCG(53, 54))
	var a Arith
	var xs, cs []TW
	for range 1024 {
		xs = append(xs, a.FromFloat64(r.Float64()*0.69))
		cs = append(cs, a.FromFloat64(0.5+r.Float64()/2))
	}
	var s uint64
	for i := 0; b.Loop(); i++ {
		s += a.ExpmP63(xs[i&1023], cs[i&1023])
	}
	sinkU = s
}

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
