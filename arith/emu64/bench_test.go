package emu64_test

import (
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/emu64"
)

// benchOperands returns 1024 operands in Falcon's range (magnitudes 2^-8
// to 2^8, both signs), so that the benchmarks see varied data.
func benchOperands() []emu64.FPR {
	var a emu64.Arith
	r := rand.New(rand.NewPCG(1, 2))
	v := make([]emu64.FPR, 1024)
	for i := range v {
		v[i] = a.FromFloat64((r.Float64() - 0.5) * float64(int64(1)<<r.IntN(16)) / 256)
	}
	return v
}

var (
	sinkF emu64.FPR
	sinkU uint64
)

func benchBinary(b *testing.B, f func(x, y emu64.FPR) emu64.FPR) {
	v := benchOperands()
	var s emu64.FPR
	for i := 0; b.Loop(); i++ {
		s = f(v[i&1023], v[(i+1)&1023])
	}
	sinkF = s
}

func BenchmarkAdd(b *testing.B) { benchBinary(b, emu64.Arith{}.Add) }
func BenchmarkMul(b *testing.B) { benchBinary(b, emu64.Arith{}.Mul) }
func BenchmarkDiv(b *testing.B) { benchBinary(b, emu64.Arith{}.Div) }

func BenchmarkSqrt(b *testing.B) {
	var a emu64.Arith
	v := benchOperands()
	for i := range v {
		if a.Lt(v[i], a.Of(0)) {
			v[i] = a.Neg(v[i])
		}
	}
	var s emu64.FPR
	for i := 0; b.Loop(); i++ {
		s = a.Sqrt(v[i&1023])
	}
	sinkF = s
}

func BenchmarkExpmP63(b *testing.B) {
	var a emu64.Arith
	r := rand.New(rand.NewPCG(3, 4))
	xs, cs := make([]emu64.FPR, 1024), make([]emu64.FPR, 1024)
	for i := range xs {
		xs[i] = a.FromFloat64(r.Float64() * 0.69)
		cs[i] = a.FromFloat64(0.7 + 0.29*r.Float64())
	}
	var s uint64
	for i := 0; b.Loop(); i++ {
		s += a.ExpmP63(xs[i&1023], cs[i&1023])
	}
	sinkU = s
}
