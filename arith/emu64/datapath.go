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

// Staged runs copies of emu64's kernels (zz_staged_gen.go, generated from
// core.go and expm.go by TestStagedGenerated) that call the stages through
// a *Datapath; Arith's own kernels are untouched, so the seam costs them
// nothing.

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
// has emu64's own stages.
type Staged struct {
	Arith
	d *Datapath
}

var _ arith.Arith[FPR] = Staged{}

// NewStaged returns emu64 with d's stages (nil fields: emu64's own).
func NewStaged(d Datapath) Staged {
	return Staged{d: complete(d)}
}

// ownStages is the Datapath of emu64's own stages, for the zero Staged.
var ownStages = complete(Datapath{})

// complete fills the nil stages of d with emu64's own.
func complete(d Datapath) *Datapath {
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
	return &d
}

// stages returns the Datapath of a (the zero Staged has none).
func (a Staged) stages() *Datapath {
	if a.d == nil {
		return ownStages
	}
	return a.d
}

func (a Staged) Of(i int64) FPR            { return scaledStaged(i, 0, a.stages()) }
func (a Staged) Scaled(i int64, e int) FPR { return scaledStaged(i, e, a.stages()) }
func (a Staged) Add(x, y FPR) FPR          { return addStaged(x, y, a.stages()) }
func (a Staged) Sub(x, y FPR) FPR          { return addStaged(x, y^FPR(signBit), a.stages()) }
func (a Staged) Mul(x, y FPR) FPR          { return mulStaged(x, y, a.stages()) }
func (a Staged) Sqr(x FPR) FPR             { return mulStaged(x, x, a.stages()) }
func (a Staged) Div(x, y FPR) FPR          { return divStaged(x, y, a.stages()) }
func (a Staged) Inv(x FPR) FPR             { return divStaged(one, x, a.stages()) }
func (a Staged) Sqrt(x FPR) FPR            { return sqrtStaged(x, a.stages()) }
func (a Staged) ExpmP63(x, ccs FPR) uint64 { return expmP63Staged(x, ccs, a.stages()) }
