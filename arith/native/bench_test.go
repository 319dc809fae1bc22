package native_test

import (
	"testing"

	"github.com/fprlab/fprlab/arith/arithtest"
	"github.com/fprlab/fprlab/arith/native"
)

// BenchmarkOps is the benchmark set of every backend (package arithtest).
func BenchmarkOps(b *testing.B) { arithtest.Bench(b, native.Arith{}) }
