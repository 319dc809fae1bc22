package tune

import (
	"fmt"
	"math/bits"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/arith"
)

// StageOps is the number of calls of each arithmetic operation per plan
// stage, per signature (accel.StageOps, which the signing-latency model
// prices too).
type StageOps = accel.StageOps

// CountStages counts the operations per plan stage of signing, averaged
// over the signatures of sign (accel.CountStages).
func CountStages(signatures int, sign func(b arith.Backend) error) (StageOps, error) {
	return accel.CountStages(signatures, sign)
}

// CostModel prices a plan from its stages' significand widths.
type CostModel string

// The cost models.
const (
	// CostBits is sum over stages of (rounded arithmetic operations) x
	// (significand bits): a datapath's work in bit-operations, the
	// simplest proxy for area x time.
	CostBits CostModel = "bits"
	// CostAccel counts uses of 25x18 DSP blocks (FPGA multipliers, the
	// building block of Peregrino's and HORCRUX's datapaths) per signature:
	// a P-bit significand product tiled onto ceil(P/24) x ceil(P/17)
	// blocks (accel.DSP48E1.Tiles, its 24x17 unsigned part); an
	// addition as ceil((P+3)/48) 48-bit DSP adders (accel.DSP48E1.Adders:
	// significand, guard,
	// round and sticky bits); division, inversion and square root by
	// Newton-Raphson from an 8-bit seed, 2 products per iteration and
	// ceil(log2(P/8)) iterations; expm_p63 as its degree-12 Horner
	// polynomial (13 products, 13 additions) plus the product with ccs.
	CostAccel CostModel = "accel-model"
)

// ParseCostModel checks a cost model's name.
func ParseCostModel(s string) (CostModel, error) {
	switch CostModel(s) {
	case CostBits, CostAccel:
		return CostModel(s), nil
	}
	return "", fmt.Errorf("cost model %q: want %q or %q", s, CostBits, CostAccel)
}

// Unit is what the model's cost counts.
func (m CostModel) Unit() string {
	if m == CostAccel {
		return "25x18 DSP-block uses per signature"
	}
	return "significand bit-operations per signature"
}

// Cost prices the stages' widths p (significand bits per stage) with the
// operation counts ops.
func (m CostModel) Cost(ops StageOps, p [arith.NumPlanStages]int) float64 {
	total := 0.0
	for s := range ops {
		mul, add, newton, expm := opClasses(ops[s])
		w := p[s]
		switch m {
		case CostBits:
			total += (mul + add + newton + 27*expm) * float64(w)
		default:
			blocks := float64(accel.DSP48E1.Tiles(w, w))
			adders := float64(accel.DSP48E1.Adders(w + 3))
			iters := float64(bits.Len(uint(ceilDiv(w, 8) - 1)))
			total += mul*blocks + add*adders + newton*2*iters*blocks + expm*(14*blocks+13*adders)
		}
	}
	return total
}

// opClasses groups a stage's counts: products (Mul, Sqr), additions (Add,
// Sub), Newton-Raphson operations (Inv, Div, Sqrt) and ExpmP63 calls.
// Exact operations (Neg, Half, Double, conversions of small integers, table
// reads, decisions) cost nothing in either model.
func opClasses(n [arith.NumOps]float64) (mul, add, newton, expm float64) {
	return n[arith.OpMul] + n[arith.OpSqr], n[arith.OpAdd] + n[arith.OpSub],
		n[arith.OpInv] + n[arith.OpDiv] + n[arith.OpSqrt], n[arith.OpExpmP63]
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
