package emu64_test

import (
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"math"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// fpBlockDigest is the digest the reference's test_FP_block expects (in
// both its emulated and its native build): the first 16 bytes of the
// SHAKE256 of every result it computes.
const fpBlockDigest = "77cea0ea343b8c1c578af7c9fa3267b6"

// fpBlock restates the reference test suite's floating-point block test
// (test_falcon.c, test_FP_block) over a backend and returns its digest.
// Every result is absorbed into one SHAKE256 as 8 little-endian bytes:
// binary64 values as their bit pattern, integers (rint, floor) as their
// two's complement, comparisons as 0 or 1.
//
// The test ldexp's values by -60..60; that is not part of the operation
// set, so the caller passes it (emu64: the reference's exponent-field
// arithmetic; native: math.Ldexp). Nothing depends on libm beyond ldexp and
// sqrt, which are exact or correctly rounded on these operands.
func fpBlock[F any](a arith.Arith[F], bits func(F) uint64, ldexp func(F, int) F) string {
	h := sha3.NewSHAKE256()
	var w [8]byte
	hashU := func(v uint64) {
		binary.LittleEndian.PutUint64(w[:], v)
		h.Write(w[:])
	}
	hashD := func(x F) { hashU(bits(x)) }
	hashB := func(b bool) {
		if b {
			hashU(1)
		} else {
			hashU(0)
		}
	}

	// Signed zeros.
	zero := a.Const(arith.Zero)
	nzero := a.Neg(zero)
	hashD(a.Of(0))
	hashD(nzero)
	hashD(a.Half(zero))
	hashD(a.Double(zero))
	for range 2 {
		hashD(a.Add(zero, zero))
		hashD(a.Add(zero, nzero))
		hashD(a.Add(nzero, zero))
		hashD(a.Add(nzero, zero))
	}

	// Sums of values around 2^53 with values around 2^(53+e), all four
	// sign combinations: exercises alignment, cancellation and rounding
	// at every shift from -60 to 60.
	for e := -60; e <= 60; e++ {
		for i := int64(-5); i <= 5; i++ {
			x := a.Of(1<<53 + i)
			hashD(x)
			for j := int64(-5); j <= 5; j++ {
				y := a.Scaled(1<<53+j, e)
				hashD(y)
				hashD(a.Add(x, y))
				x = a.Neg(x)
				hashD(a.Add(x, y))
				y = a.Neg(y)
				hashD(a.Add(x, y))
				x = a.Neg(x)
				hashD(a.Add(x, y))
			}
		}
	}

	// Random operands from the reference PRNG seeded with "fpemu".
	p := samplerprng.FromSHAKE256([]byte("fpemu"))
	// randFP draws a random sign and fraction with a biased exponent in
	// 1023..1150, i.e. magnitudes in [1, 2^128).
	randFP := func() F {
		m := p.U64()
		e := (m>>52&0x7F + 1023) << 52
		return a.FromFloat64(math.Float64frombits(m&^(0x7FF<<52) | e))
	}
	for ctr := 1; ctr <= 65536; ctr++ {
		j := int64(p.U64()) >> (ctr & 63)
		hashD(a.Of(j))
		sc := int(p.U8()) - 128
		hashD(a.Scaled(j, sc))

		j = int64(p.U64())
		x := a.Scaled(j, -8)
		hashD(x)
		hashU(uint64(a.Rint(x)))
		x = a.Scaled(j, -52)
		hashD(x)
		hashU(uint64(a.Floor(x)))

		x = randFP()
		y := randFP()
		for e := -60; e <= 60; e++ {
			hashD(ldexp(x, e))
		}
		hashB(a.Lt(x, y))
		hashB(a.Lt(x, x))

		hashD(a.Add(x, y))
		hashD(a.Add(y, x))
		hashD(a.Add(x, zero))
		hashD(a.Add(zero, x))
		hashD(a.Add(x, a.Neg(x)))
		hashD(a.Add(a.Neg(x), x))

		hashD(a.Sub(x, y))
		hashD(a.Sub(y, x))
		hashD(a.Sub(x, zero))
		hashD(a.Sub(zero, x))
		hashD(a.Sub(x, x))

		hashD(a.Neg(x))
		hashD(a.Half(x))
		hashD(a.Double(x))

		hashD(a.Mul(x, y))
		hashD(a.Mul(y, x))
		hashD(a.Mul(x, zero))
		hashD(a.Mul(zero, x))

		if a.Lt(y, zero) || a.Lt(zero, y) {
			hashD(a.Div(x, y))
		}
		if a.Lt(x, zero) {
			x = a.Neg(x)
		}
		hashD(a.Sqrt(x))
	}

	var out [16]byte
	h.Read(out[:])
	return hex.EncodeToString(out[:])
}

// emuLdexp is the test suite's ldexp for the emulated build: add e to the
// exponent field, giving zero for a zero input or an exponent that would
// go negative (there is no overflow handling).
func emuLdexp(x emu64.FPR, e int) emu64.FPR {
	ex := uint32(x>>52) & 0x7FF
	ex = (ex + uint32(e)) & -((ex + 0x7FF) >> 11)
	ex &= ex>>31 - 1
	return x&(1<<63|1<<52-1) | emu64.FPR(ex)<<52
}

func TestFPBlock(t *testing.T) {
	// The block is a fixed procedure (about ten million operations, well
	// under a second per backend), so it runs in -short mode too.
	t.Run("emu64", func(t *testing.T) {
		got := fpBlock[emu64.FPR](emu64.Arith{}, func(x emu64.FPR) uint64 { return uint64(x) }, emuLdexp)
		if got != fpBlockDigest {
			t.Errorf("digest %s, want %s", got, fpBlockDigest)
		}
	})
	t.Run("native", func(t *testing.T) {
		got := fpBlock[float64](native.Arith{}, math.Float64bits, math.Ldexp)
		if got != fpBlockDigest {
			t.Errorf("digest %s, want %s", got, fpBlockDigest)
		}
	})
}
