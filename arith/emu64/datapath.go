package emu64

import (
	"math/bits"

	"github.com/fprlab/fprlab/arith"
)

// Datapath names the stages of the emulated datapath that a hardware fpr
// unit implements as blocks of its own (HORCRUX's fpr-unit instructions,
// Peregrino's multipliers): the packing routine FPR(s, e, m) that ends
// every rounded operation, the normaliser FPR_NORM64 of Of/Scaled and
// Add/Sub, and the integer products. A Staged arithmetic runs emu64's
// kernels with its stages replaced, so that a model of a block is tested
// in real Falcon runs: it leaves the KAT outputs unchanged exactly when it
// computes what the block of the reference computes, wherever Falcon uses
// it.
//
// A nil field selects emu64's own stage. The stages must be pure
// functions.
type Datapath struct {
	// Pack is FPR(s, e, m): see [Pack] for its contract.
	Pack func(s uint64, e int, m uint64) FPR
	// Norm64 is FPR_NORM64: see [Norm64].
	Norm64 func(m uint64, e int) (uint64, int)
	// MantProduct returns the 106-bit product of two 53-bit mantissas
	// (fpr_mul), high word first, as math/bits.Mul64 does.
	MantProduct func(x, y uint64) (hi, lo uint64)
	// FixedProduct returns the 128-bit product of two 64-bit words, of
	// which fpr_expm_p63's fixed-point polynomial keeps the high word.
	FixedProduct func(x, y uint64) (hi, lo uint64)
}

// The kernels call their stages through a *Datapath that is nil for Arith
// and complete for Staged. Each call site tests for nil and calls emu64's
// own stage directly, where it inlines: a predictable branch is all that
// Arith pays for the seam (a helper method doing the test would not
// inline, and would cost Arith a call per stage).

// Pack is emu64's packing stage, the reference's FPR(s, e, m): it encodes
// (-1)^s * m * 2^e rounded to 53 bits to nearest even, for m = 0 or m in
// [2^54, 2^55) (two guard bits, the lowest one sticky); an exponent below
// -1076 gives a zero of sign s.
func Pack(s uint64, e int, m uint64) FPR { return pack(s, e, m) }

// Norm64 is emu64's normalising stage, the reference's FPR_NORM64: it
// shifts m left until bit 63 is set and lowers e by the shift; m = 0
// stays 0 with e lowered by 63.
func Norm64(m uint64, e int) (uint64, int) { return norm64(m, e) }

// Staged is emu64 with the datapath stages of a Datapath: every operation
// computes what Arith computes, through the given stages. The zero value
// is Arith's arithmetic with a nil-check per stage; use NewStaged.
type Staged struct {
	Arith
	d *Datapath
}

var _ arith.Arith[FPR] = Staged{}

// NewStaged returns emu64 with d's stages (nil fields: emu64's own).
func NewStaged(d Datapath) Staged {
	if d.Pack == nil {
		d.Pack = pack
	}
	if d.Norm64 == nil {
		d.Norm64 = norm64
	}
	if d.MantProduct == nil {
		d.MantProduct = bits.Mul64
	}
	if d.FixedProduct == nil {
		d.FixedProduct = bits.Mul64
	}
	return Staged{d: &d}
}

func (a Staged) Of(i int64) FPR            { return scaled(i, 0, a.d) }
func (a Staged) Scaled(i int64, e int) FPR { return scaled(i, e, a.d) }
func (a Staged) Add(x, y FPR) FPR          { return add(x, y, a.d) }
func (a Staged) Sub(x, y FPR) FPR          { return add(x, y^FPR(signBit), a.d) }
func (a Staged) Mul(x, y FPR) FPR          { return mul(x, y, a.d) }
func (a Staged) Sqr(x FPR) FPR             { return mul(x, x, a.d) }
func (a Staged) Div(x, y FPR) FPR          { return div(x, y, a.d) }
func (a Staged) Inv(x FPR) FPR             { return div(one, x, a.d) }
func (a Staged) Sqrt(x FPR) FPR            { return sqrt(x, a.d) }
func (a Staged) ExpmP63(x, ccs FPR) uint64 { return expmP63(x, ccs, a.d) }
