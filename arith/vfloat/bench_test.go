package vfloat

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

var sinkV V
var sinkB *big.Float
var sinkU uint64

// BenchmarkOps measures single operations of vprec:P, the fast
// implementation against the big.Float reference, on operands as signing
// sees them (values near 1 with full significands).
//
//	go test -run='^$' -bench=Ops ./arith/vfloat
func BenchmarkOps(b *testing.B) {
	for _, p := range []uint{24, 53, 64, 80} {
		a, err := New(p)
		if err != nil {
			b.Fatal(err)
		}
		ref := a.Reference()
		xb := ref.Div(ref.Const(arith.Log2), ref.Of(3))
		yb := ref.Sqrt(ref.Of(7))
		x, y := fromBig(xb), fromBig(yb)
		ccs := ref.Div(ref.Of(2), ref.Of(3))
		cv := fromBig(ccs)
		for _, op := range []struct {
			name string
			fast func() V
			big  func() *big.Float
		}{
			{"add", func() V { return a.Add(x, y) }, func() *big.Float { return ref.Add(xb, yb) }},
			{"mul", func() V { return a.Mul(x, y) }, func() *big.Float { return ref.Mul(xb, yb) }},
			{"inv", func() V { return a.Inv(y) }, func() *big.Float { return ref.Inv(yb) }},
			{"sqrt", func() V { return a.Sqrt(y) }, func() *big.Float { return ref.Sqrt(yb) }},
		} {
			b.Run(fmt.Sprintf("%s/P=%d/fast", op.name, p), func(b *testing.B) {
				for range b.N {
					sinkV = op.fast()
				}
			})
			b.Run(fmt.Sprintf("%s/P=%d/big", op.name, p), func(b *testing.B) {
				for range b.N {
					sinkB = op.big()
				}
			})
		}
		b.Run(fmt.Sprintf("expm/P=%d/fast", p), func(b *testing.B) {
			for range b.N {
				sinkU = a.ExpmP63(x, cv)
			}
		})
		b.Run(fmt.Sprintf("expm/P=%d/big", p), func(b *testing.B) {
			for range b.N {
				sinkU = ref.ExpmP63(xb, ccs)
			}
		})
	}
}
