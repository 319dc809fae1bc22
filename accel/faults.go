package accel

import (
	"math/bits"

	"github.com/fprlab/fprlab/arith/emu64"
)

// Faulty datapaths, for testing that an exactness check catches what a KAT
// comparison does not: both regenerate Falcon-512 KAT record 0 unchanged,
// and both change results (TestDigestCatchesFaults).
var (
	// FaultTieTruncation packs with ties (guard bit set, sticky clear)
	// truncated instead of rounded to even: 1.5 ulp becomes 1 ulp where
	// round-to-even gives 2.
	FaultTieTruncation = emu64.Datapath{Pack: tieTruncatingPack}
	// FaultRareProduct multiplies mantissas with one kept bit flipped in 1
	// of 65,536 products (those whose low 16 bits are 0x5a5a).
	FaultRareProduct = emu64.Datapath{MantProduct: rareWrongProduct}
)

func tieTruncatingPack(s uint64, e int, m uint64) emu64.FPR {
	if m&7 == 6 {
		// Kept bit 1 and a tie: round-to-even would add one; the fault
		// clears the tail instead.
		return emu64.Pack(s, e, m&^7|4)
	}
	return emu64.Pack(s, e, m)
}

func rareWrongProduct(x, y uint64) (hi, lo uint64) {
	hi, lo = bits.Mul64(x, y)
	if lo&0xffff == 0x5a5a {
		hi ^= 1 << 20
	}
	return hi, lo
}
