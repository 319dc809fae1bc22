package ddouble

import (
	"testing"

	"github.com/fprlab/fprlab/arith/arithtest"
)

// BenchmarkOps runs the benchmark set of every backend (package arithtest)
// over the double words and over the 256-bit oracle (the shadow this
// backend is meant to replace), on the same values. Compare with
//
//	go test -run '^$' -bench Ops -count 10 ./arith/ddouble
//
// and the medians of each pair.
func BenchmarkOps(b *testing.B) {
	b.Run("dd", func(b *testing.B) { arithtest.Bench(b, dd) })
	b.Run("oracle256", func(b *testing.B) { arithtest.Bench(b, ora) })
}
