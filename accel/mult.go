package accel

import (
	"fmt"
	"math/bits"

	"github.com/fprlab/fprlab/internal/u128"
)

// Mantissa multipliers: the 53x53 and 64x64 integer products at the heart
// of an fpr multiplier (fpr_mul multiplies two 53-bit mantissas; a 64-bit
// unit also serves the 64x64 fixed-point products of fpr_expm_p63), in the
// designs Peregrino weighs (Baseline, Tiling, Comba, Karatsuba, after the
// comparison it cites as [21]; Peregrino itself uses Karatsuba on 64 bits
// and, in its second version, on the 32-bit sub-products as well). Each
// design computes the exact 2n-bit product with the structure the hardware
// has -- its limbs, its sub-multipliers and its adders -- so that a test
// against math/bits shows the structure is right, and a cost model counts
// the same structure.

func lowBits(x uint64, n int) uint64 { return x & (1<<n - 1) }

// MultCost is the cost model of a multiplier design, counted from the
// structure its Product function executes.
type MultCost struct {
	// Blocks is the number of multiplier blocks instantiated, each a
	// Block; PartialProducts the number of block products per full
	// product (more than Blocks when a block is reused sequentially).
	Blocks          int
	Block           string
	PartialProducts int
	// Adders counts the multi-bit additions and subtractions that combine
	// the partial products (Karatsuba's pre-additions included);
	// AdderDepth the adder levels on the critical path.
	Adders, AdderDepth int
	// LatencyCycles is the latency of one product under Pipelining;
	// IssueCycles the cycles between two independent products (1 for a
	// fully pipelined design, the partial-product count for a sequential
	// one).
	LatencyCycles, IssueCycles int
	Pipelining                 string
}

// Multiplier is a mantissa multiplier design for operands of Width bits.
type Multiplier struct {
	Name  string
	Width int
	Cost  MultCost
	// Operands are the operand widths of each multiplier block, the
	// sizes synthesis maps onto DSP blocks (DSPResources).
	Operands [][2]int
	mul      func(x, y uint64) u128.U128
}

// Product returns the 2*Width-bit product of the low Width bits of x and y
// as two words, as math/bits.Mul64 does for the full words: the design's
// ports are Width bits wide and see nothing above.
func (m *Multiplier) Product(x, y uint64) (hi, lo uint64) {
	if m.Width < 64 {
		x, y = lowBits(x, m.Width), lowBits(y, m.Width)
	}
	p := m.mul(x, y)
	return p.Hi, p.Lo
}

// MultiplierDesigns lists the designs' names, for NewMultiplier.
var MultiplierDesigns = []string{"schoolbook", "dsp25x18", "comba", "karatsuba64", "karatsuba64+32"}

// NewMultiplier returns the named design (MultiplierDesigns) for operands
// of width bits, 53 (fpr_mul's mantissas) or 64.
func NewMultiplier(name string, width int) (*Multiplier, error) {
	if width != 53 && width != 64 {
		return nil, fmt.Errorf("accel: multiplier width %d: the designs are for 53- and 64-bit operands", width)
	}
	m := &Multiplier{Name: name, Width: width}
	switch name {
	case "schoolbook":
		// Operand scanning over 32-bit limbs, all limb products in
		// parallel 32x32 multipliers.
		m.mul = func(x, y uint64) u128.U128 { return gridRows(x, y, 32, 32, width, mul32x32) }
		m.Cost = gridCost(width, 32, 32, "32x32 multiplier")
		m.Operands = gridOperands(width, 32, 32)
	case "dsp25x18":
		// Tiling onto 25x18 two's-complement DSP multipliers (Xilinx
		// DSP48E1): unsigned chunks of 24 bits on port A and 17 bits on
		// port B keep the sign bits zero.
		m.mul = func(x, y uint64) u128.U128 { return gridRows(x, y, dspA-1, dspB-1, width, dsp25x18) }
		m.Cost = gridCost(width, dspA-1, dspB-1, "25x18 signed DSP (24x17 unsigned)")
		m.Operands = gridOperands(width, dspA-1, dspB-1)
	case "comba":
		m.mul = func(x, y uint64) u128.U128 { return comba(x, y, combaLimb, width) }
		m.Cost = combaCost(width)
		m.Operands = [][2]int{{combaLimb, combaLimb}}
	case "karatsuba64":
		m.mul = func(x, y uint64) u128.U128 { return karatsuba(x, y, width, 1) }
		m.Cost = karatsubaCost(width, 1)
		m.Operands = karatsubaOperands(width, 1)
	case "karatsuba64+32":
		m.mul = func(x, y uint64) u128.U128 { return karatsuba(x, y, width, 2) }
		m.Cost = karatsubaCost(width, 2)
		m.Operands = karatsubaOperands(width, 2)
	default:
		return nil, fmt.Errorf("accel: unknown multiplier design %q (want one of %v)", name, MultiplierDesigns)
	}
	return m, nil
}

// Port widths of a DSP48E1 multiplier.
const (
	dspA = 25
	dspB = 18
)

// dsp25x18 is the DSP multiplier: the two operands as the bits on its
// ports, read as two's-complement numbers of 25 and 18 bits, and their
// 43-bit signed product. The tiling feeds it non-negative chunks, so the
// product is returned as a word.
func dsp25x18(a, b uint64) uint64 {
	sa := int64(a<<(64-dspA)) >> (64 - dspA)
	sb := int64(b<<(64-dspB)) >> (64 - dspB)
	return uint64(sa * sb)
}

// mul32x32 is a 32x32 unsigned multiplier.
func mul32x32(a, b uint64) uint64 { return uint64(uint32(a)) * uint64(uint32(b)) }

// split cuts the low n bits of x into limbs of w bits, least significant
// first.
func split(x uint64, w, n int) (limbs [8]uint64, k int) {
	for k = 0; k*w < n; k++ {
		limbs[k] = lowBits(x>>(k*w), min(w, n-k*w))
	}
	return limbs, k
}

// gridRows multiplies by operand scanning: x in limbs of wx bits, y in
// limbs of wy bits, one block product per limb pair, each row (one limb of
// y) summed and shifted into the accumulator.
func gridRows(x, y uint64, wx, wy, n int, block func(a, b uint64) uint64) u128.U128 {
	xl, nx := split(x, wx, n)
	yl, ny := split(y, wy, n)
	var acc u128.U128
	for j := range ny {
		var row u128.U128
		for i := range nx {
			row = row.Add(u128.From(block(xl[i], yl[j])).Shl(i * wx))
		}
		acc = acc.Add(row.Shl(j * wy))
	}
	return acc
}

func gridCost(n, wx, wy int, block string) MultCost {
	pp := ceilDivInt(n, wx) * ceilDivInt(n, wy)
	depth := bits.Len(uint(pp - 1))
	return MultCost{
		Blocks: pp, Block: block, PartialProducts: pp,
		Adders: pp - 1, AdderDepth: depth, LatencyCycles: 1 + depth, IssueCycles: 1,
		Pipelining: "all blocks in parallel; a register after the blocks and after each level of a binary adder tree",
	}
}

// combaLimb is the limb width of the Comba design: a 16x16 unsigned limb
// product fits one 25x18 DSP.
const combaLimb = 16

// comba multiplies by product scanning: column k sums the limb products
// x_i y_j with i + j = k, then the column is added into the result at
// 2^(k w). The hardware runs one limb product per cycle through a single
// multiplier into a column accumulator.
func comba(x, y uint64, w, n int) u128.U128 {
	xl, nl := split(x, w, n)
	yl, _ := split(y, w, n)
	var acc u128.U128
	for k := range 2*nl - 1 {
		var col u128.U128
		for i := max(0, k-nl+1); i <= min(k, nl-1); i++ {
			col = col.Add(u128.From(dsp25x18(xl[i], yl[k-i])))
		}
		acc = acc.Add(col.Shl(k * w))
	}
	return acc
}

func combaCost(n int) MultCost {
	l := ceilDivInt(n, combaLimb)
	return MultCost{
		Blocks: 1, Block: "16x16 in one 25x18 DSP", PartialProducts: l * l,
		// One accumulation per limb product, one column add per column.
		Adders: l*l + 2*l - 1, AdderDepth: 1,
		LatencyCycles: l*l + 2, IssueCycles: l * l,
		Pipelining: "one limb product per cycle; a register after the multiplier and after the accumulator",
	}
}

// karatsuba multiplies x, y < 2^n by Karatsuba's method to the given
// number of levels (Peregrino's Algorithm 4 in binary): with x = x1 2^h +
// x0 and y likewise (h = ceil(n/2)),
//
//	z0 = x0 y0,  z2 = x1 y1,  z1 = (x0 + x1)(y0 + y1) - z0 - z2
//	x y = z2 2^(2h) + z1 2^h + z0
//
// three products of about half the width instead of four. The leaves are
// leafMul.
func karatsuba(x, y uint64, n, levels int) u128.U128 {
	if levels == 0 {
		return leafMul(x, y, n)
	}
	h := (n + 1) / 2
	x0, x1 := lowBits(x, h), x>>h
	y0, y1 := lowBits(y, h), y>>h
	z0 := karatsuba(x0, y0, h, levels-1)
	z2 := karatsuba(x1, y1, n-h, levels-1)
	z1 := karatsuba(x0+x1, y0+y1, h+1, levels-1).Sub(z0).Sub(z2)
	// z0 < 2^(2h), so z2 2^(2h) + z0 is a concatenation, not an addition.
	return z2.Shl(2 * h).Add(z0).Add(z1.Shl(h))
}

// leafMul is a leaf multiplier of n-bit operands: a 32x32 block, and for
// n > 32 (the middle product of a 64-bit Karatsuba has 33-bit operands)
// the block on the low 32 bits plus the cross terms of the top bits, which
// for 33 bits are two conditional additions.
func leafMul(a, b uint64, n int) u128.U128 {
	if n <= 32 {
		return u128.From(mul32x32(a, b))
	}
	al, ah := lowBits(a, 32), a>>32
	bl, bh := lowBits(b, 32), b>>32
	p := u128.From(mul32x32(al, bl))
	p = p.Add(u128.From(ah * bl).Shl(32)).Add(u128.From(bh * al).Shl(32))
	return p.Add(u128.From(ah * bh).Shl(64))
}

// karatsubaLeaves are the operand widths of the leaf products of an n-bit
// Karatsuba to the given levels: h, n - h and h + 1 per node.
func karatsubaLeaves(n, levels int) []int {
	leaves := []int{n}
	for range levels {
		var next []int
		for _, w := range leaves {
			h := (w + 1) / 2
			next = append(next, h, w-h, h+1)
		}
		leaves = next
	}
	return leaves
}

// karatsubaOperands are the blocks' operand widths: a leaf above 32 bits
// is a 32x32 block, its top bits' cross terms being additions (leafMul).
func karatsubaOperands(n, levels int) [][2]int {
	var ops [][2]int
	for _, w := range karatsubaLeaves(n, levels) {
		w = min(w, 32)
		ops = append(ops, [2]int{w, w})
	}
	return ops
}

// gridOperands are the blocks' operand widths of a tiling of an n-bit
// product into wx x wy limbs (the last limb of each operand narrower).
func gridOperands(n, wx, wy int) [][2]int {
	var ops [][2]int
	for j := 0; j < n; j += wy {
		for i := 0; i < n; i += wx {
			ops = append(ops, [2]int{min(wx, n-i), min(wy, n-j)})
		}
	}
	return ops
}

func karatsubaCost(n, levels int) MultCost {
	leaves := karatsubaLeaves(n, levels)
	widest := 0
	for _, w := range leaves {
		widest = max(widest, w)
	}
	nodes := (len(leaves) - 1) / 2
	// Per node: two pre-additions, two subtractions, one addition of z1.
	// Critical path: the pre-additions of every level, then per level two
	// subtractions and the addition.
	depth := 4 * levels
	block := fmt.Sprintf("multiplier up to %dx%d", widest, widest)
	if widest > 32 {
		block += " (32x32 plus cross terms of the top bits)"
	}
	return MultCost{
		Blocks: len(leaves), Block: block, PartialProducts: len(leaves),
		Adders: 5 * nodes, AdderDepth: depth, LatencyCycles: depth + 1, IssueCycles: 1,
		Pipelining: "all leaves in parallel; a register after each adder level and after the leaves",
	}
}

func ceilDivInt(a, b int) int { return (a + b - 1) / b }
