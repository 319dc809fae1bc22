package nativefma_test

import (
	"testing"

	"github.com/fprlab/fprlab/arith/arithtest"
	"github.com/fprlab/fprlab/arith/nativefma"
)

// TestConformance: the fused backend is IEEE 754 binary64 in every
// operation of the set (it fuses only where falcon asks for FMA, and in
// expm_p63's Horner steps, which must still meet the contract's 45 bits).
func TestConformance(t *testing.T) { arithtest.Run(t, nativefma.Arith{}, arithtest.Options{}) }

// BenchmarkOps is the benchmark set of every backend (package arithtest).
func BenchmarkOps(b *testing.B) { arithtest.Bench(b, nativefma.Arith{}) }
