package accel

import (
	"sync/atomic"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
)

// The fpr-unit of HORCRUX (a RISC-V instruction-set extension for the NIST
// PQC schemes; section IV-E, Table III): two blocks of the reference's
// emulated floating point, the packing routine FPR(s, e, m) and the
// normaliser FPR_NORM64, behind six instructions on the 32-bit register
// file.
//
//	FPR_LOAD_SE      rs1 = sign, rs2 = unbiased exponent: latch both
//	FPR_EXEC         rs1, rs2 = mantissa low, high word: pack with the
//	                 latched sign and exponent, return the low word
//	FPR_RDHI         return the high word of the last FPR_EXEC
//	FPR_NORM64_EXEC  rs1, rs2 = mantissa low, high; rs3 = exponent (R4
//	                 type): normalise, return the low word
//	FPR_NORM64_RDHI  return the high word of the normalised mantissa
//	FPR_NORM64_RDE   return the adjusted exponent
//
// FPRUnit models the instructions bit for bit on their 32-bit operands
// and results; HorcruxArith runs emu64 with its packing and normalising
// stages done by instruction sequences on an FPRUnit, which leaves every
// result of emu64 -- and so the KAT files -- unchanged exactly when the
// model computes what the reference's routines compute.

// FPRUnit is the architectural state of the fpr-unit: the latched sign and
// exponent, the high word of the last packed result, and the normaliser's
// result registers. The zero value is a unit after reset.
type FPRUnit struct {
	sign   uint32 // bit 0: the latched sign
	exp    uint32 // the latched unbiased exponent, two's complement
	packHi uint32
	normHi uint32
	normE  uint32
}

// LoadSE is FPR_LOAD_SE: it latches bit 0 of rs1 as the sign and rs2 as
// the unbiased exponent (a two's-complement word).
func (u *FPRUnit) LoadSE(rs1, rs2 uint32) {
	u.sign = rs1 & 1
	u.exp = rs2
}

// Exec is FPR_EXEC: it packs (-1)^sign * m * 2^exp for the mantissa m =
// rs2:rs1 (0, or in [2^54, 2^55): 53 bits, a guard bit and a sticky bit)
// into a binary64 pattern and returns its low word. The datapath, as
// HORCRUX describes it:
//
//  1. bias: e' = exp + 1076 (1023, plus 53 for the mantissa's scaling,
//     minus 2 for the guard and sticky bits, plus 2 more because the
//     mantissa's leading bit lands on the exponent field and adds 1 to
//     it, see 3);
//  2. clamp: e' < 0 is below the normal range and clears the mantissa; a
//     zero mantissa clears the exponent (a signed zero);
//  3. assemble sign << 63 | m >> 2, plus e' << 52;
//  4. round to nearest even from the three low mantissa bits (kept bit,
//     guard, sticky): add one for 011, 110 and 111; a carry out of the
//     fraction moves into the exponent, as it should.
func (u *FPRUnit) Exec(rs1, rs2 uint32) uint32 {
	m := uint64(rs2)<<32 | uint64(rs1)
	e := int64(int32(u.exp)) + 1076
	if e < 0 {
		m = 0
	}
	if m>>54 == 0 {
		e = 0
	}
	x := (uint64(u.sign)<<63 | m>>2) + uint64(e)<<52
	switch m & 7 {
	case 3, 6, 7:
		x++
	}
	u.packHi = uint32(x >> 32)
	return uint32(x)
}

// RdHi is FPR_RDHI: the high word of the last FPR_EXEC result.
func (u *FPRUnit) RdHi() uint32 { return u.packHi }

// Norm64Exec is FPR_NORM64_EXEC: it normalises the mantissa rs2:rs1 into
// [2^63, 2^64) and lowers the exponent rs3 by the shift, returning the
// low word of the mantissa. The leading-zero count and the barrel shift
// are one structure of six stages: shift by 32 when the top 32 bits are
// zero, then by 16, 8, 4, 2 and 1 on the same test of the top bits. A zero
// mantissa passes every stage, so it is shifted by 63 in all, as the
// reference's FPR_NORM64 does.
func (u *FPRUnit) Norm64Exec(rs1, rs2, rs3 uint32) uint32 {
	m := uint64(rs2)<<32 | uint64(rs1)
	n := uint32(0)
	for _, k := range [6]uint{32, 16, 8, 4, 2, 1} {
		if m>>(64-k) == 0 {
			m <<= k
			n += uint32(k)
		}
	}
	u.normHi = uint32(m >> 32)
	u.normE = rs3 - n
	return uint32(m)
}

// Norm64RdHi is FPR_NORM64_RDHI: the high word of the normalised mantissa.
func (u *FPRUnit) Norm64RdHi() uint32 { return u.normHi }

// Norm64RdE is FPR_NORM64_RDE: the adjusted exponent.
func (u *FPRUnit) Norm64RdE() uint32 { return u.normE }

// Pack runs FPR(s, e, m) as the instruction sequence software issues:
// FPR_LOAD_SE, FPR_EXEC, FPR_RDHI.
func (u *FPRUnit) Pack(s uint64, e int, m uint64) emu64.FPR {
	u.LoadSE(uint32(s), uint32(int32(e)))
	lo := u.Exec(uint32(m), uint32(m>>32))
	return emu64.FPR(uint64(u.RdHi())<<32 | uint64(lo))
}

// Norm64 runs FPR_NORM64 as FPR_NORM64_EXEC, FPR_NORM64_RDHI,
// FPR_NORM64_RDE.
func (u *FPRUnit) Norm64(m uint64, e int) (uint64, int) {
	lo := u.Norm64Exec(uint32(m), uint32(m>>32), uint32(int32(e)))
	hi := u.Norm64RdHi()
	return uint64(hi)<<32 | uint64(lo), int(int32(u.Norm64RdE()))
}

// HorcruxInstructions counts the fpr-unit instructions a HorcruxArith
// issued.
type HorcruxInstructions struct {
	// Pack sequences (FPR_LOAD_SE, FPR_EXEC, FPR_RDHI) and normalisations
	// (FPR_NORM64_EXEC, _RDHI, _RDE): the reference's FPR and FPR_NORM64
	// counters.
	Pack, Norm64 uint64
}

// Total is the number of instructions: three per sequence.
func (h HorcruxInstructions) Total() uint64 { return 3 * (h.Pack + h.Norm64) }

// HorcruxArith is emu64 whose packing and normalisation are done by the
// fpr-unit's instructions, counting them. Each stage call runs on its own
// FPRUnit (the sequences overwrite all the state they read, so one unit
// per call is the same as one unit for all), which keeps it safe for
// concurrent use.
type HorcruxArith struct {
	emu64.Staged
	pack, norm atomic.Uint64
}

var _ arith.Arith[emu64.FPR] = (*HorcruxArith)(nil)

// NewHorcruxArith returns emu64 over the fpr-unit instruction model.
func NewHorcruxArith() *HorcruxArith {
	h := &HorcruxArith{}
	h.Staged = emu64.NewStaged(emu64.Datapath{
		Pack: func(s uint64, e int, m uint64) emu64.FPR {
			h.pack.Add(1)
			var u FPRUnit
			return u.Pack(s, e, m)
		},
		Norm64: func(m uint64, e int) (uint64, int) {
			h.norm.Add(1)
			var u FPRUnit
			return u.Norm64(m, e)
		},
	})
	return h
}

// Instructions returns the instruction counts so far.
func (h *HorcruxArith) Instructions() HorcruxInstructions {
	return HorcruxInstructions{Pack: h.pack.Load(), Norm64: h.norm.Load()}
}

// Reset sets the instruction counts to zero.
func (h *HorcruxArith) Reset() { h.pack.Store(0); h.norm.Store(0) }
