package emu64_test

import (
	"testing"

	"github.com/fprlab/fprlab/arith/arithtest"
	"github.com/fprlab/fprlab/arith/emu64"
)

// BenchmarkOps is the benchmark set of every backend (package arithtest).
// BenchmarkAdd, BenchmarkMul and BenchmarkExpmP63 run three of its
// operations under the names docs/findings.md's per-operation table cites.
func BenchmarkOps(b *testing.B)     { arithtest.Bench(b, emu64.Arith{}) }
func BenchmarkAdd(b *testing.B)     { arithtest.BenchOp(b, emu64.Arith{}, "Add") }
func BenchmarkMul(b *testing.B)     { arithtest.BenchOp(b, emu64.Arith{}, "Mul") }
func BenchmarkExpmP63(b *testing.B) { arithtest.BenchOp(b, emu64.Arith{}, "ExpmP63") }
