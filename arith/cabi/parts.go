package cabi

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"structs"

	"github.com/fprlab/fprlab/arith/plan"
)

// Kinds of a decoded value (enum fprlab_kind).
const (
	kindZero   = 0
	kindFinite = 1
	kindInf    = 2
	kindNaN    = 3
)

// parts is struct fprlab_parts: for kindFinite the value
// (-1)^negative * M * 2^exponent with M = limbs[0] + limbs[1] 2^64 + ...
type parts struct {
	_        structs.HostLayout
	kind     int32
	negative int32
	exponent int64
	limbs    [4]uint64
}

// intParts is i*2^e exactly.
func intParts(i int64, e int64) parts {
	if i == 0 {
		return parts{kind: kindZero}
	}
	p := parts{kind: kindFinite, exponent: e}
	u := uint64(i)
	if i < 0 {
		p.negative, u = 1, -u
	}
	p.limbs[0] = u
	return p
}

// float64Parts is x exactly.
func float64Parts(x float64) parts {
	var p parts
	if math.Signbit(x) {
		p.negative = 1
	}
	switch {
	case math.IsNaN(x):
		p.kind, p.negative = kindNaN, 0
	case math.IsInf(x, 0):
		p.kind = kindInf
	case x == 0:
		p.kind = kindZero
	default:
		f, e := math.Frexp(math.Abs(x))
		p.kind = kindFinite
		p.limbs[0] = uint64(math.Ldexp(f, 53)) // exact: f has at most 53 bits
		p.exponent = int64(e) - 53
	}
	return p
}

// bigParts is the finite or infinite x exactly; false when its significand
// needs more than 256 bits.
func bigParts(x *big.Float) (parts, bool) {
	p, ok := plan.BigParts(x)
	return toParts(p), ok
}

// bitLen is the number of bits of M.
func (p *parts) bitLen() int {
	for i := len(p.limbs) - 1; i >= 0; i-- {
		if p.limbs[i] != 0 {
			return 64*i + bits.Len64(p.limbs[i])
		}
	}
	return 0
}

// check reports a decode that breaks the ABI's rules.
func (p *parts) check() error {
	switch p.kind {
	case kindZero, kindInf, kindNaN:
	case kindFinite:
		if p.bitLen() == 0 {
			return fmt.Errorf("decoded a finite value with significand 0")
		}
	default:
		return fmt.Errorf("decoded a value of kind %d (not one of enum fprlab_kind)", p.kind)
	}
	if p.negative != 0 && p.negative != 1 {
		return fmt.Errorf("decoded a value with negative = %d (want 0 or 1)", p.negative)
	}
	if p.kind == kindFinite && (p.exponent > maxExponent || p.exponent < -maxExponent) {
		return fmt.Errorf("decoded a finite value with exponent %d (outside -2^40..2^40: no format fprlab measures reaches it, and the sums of exponents fprlab forms from it would overflow)", p.exponent)
	}
	return nil
}

// maxExponent bounds the exponent of a decoded value. big.Float's
// exponents are int32, so every value beyond saturates anyway; the bound
// keeps exponent + 256 and the like from wrapping around int64.
const maxExponent = 1 << 40

// mantissa is M as a big.Int.
func (p *parts) mantissa() *big.Int {
	var b [32]byte
	for i, l := range p.limbs {
		for j := range 8 {
			b[31-8*i-j] = byte(l >> (8 * j))
		}
	}
	return new(big.Int).SetBytes(b[:])
}

// big returns the value exactly (a NaN as +Inf).
func (p parts) big() *big.Float {
	neg := p.negative != 0
	switch p.kind {
	case kindZero:
		z := new(big.Float)
		if neg {
			z.Neg(z)
		}
		return z
	case kindInf:
		return new(big.Float).SetInf(neg)
	case kindNaN:
		return new(big.Float).SetInf(false)
	}
	n := p.bitLen()
	// big.Float's exponents are int32: beyond, the value is out of any
	// range fprlab computes in, so it saturates as big.Float would.
	top := p.exponent + int64(n)
	switch {
	case top > math.MaxInt32:
		return new(big.Float).SetInf(neg)
	case top < math.MinInt32+1:
		z := new(big.Float)
		if neg {
			z.Neg(z)
		}
		return z
	}
	f := new(big.Float).SetPrec(uint(n)).SetInt(p.mantissa())
	f.SetMantExp(f, int(p.exponent))
	if neg {
		f.Neg(f)
	}
	return f
}

// float64 returns the value rounded to nearest binary64.
func (p parts) float64() float64 {
	neg := p.negative != 0
	switch p.kind {
	case kindZero:
		if neg {
			return math.Copysign(0, -1)
		}
		return 0
	case kindInf:
		if neg {
			return math.Inf(-1)
		}
		return math.Inf(1)
	case kindNaN:
		return math.NaN()
	}
	if n := p.bitLen(); n <= 53 {
		// M is exact in binary64, and so is M*2^e inside the normal range.
		if top := p.exponent + int64(n); top >= -1021 && top <= 1024 {
			f := math.Ldexp(float64(p.limbs[0]), int(p.exponent))
			if neg {
				f = -f
			}
			return f
		}
	}
	f, _ := p.big().Float64()
	return f
}

// floor63 is floor(2^63 y) saturated to the uint64 range, 0 for y <= 0
// (and a NaN), as the reference's conversion in fpr_expm_p63.
func floor63(p parts) uint64 {
	switch {
	case p.kind == kindNaN || p.kind == kindZero || p.negative != 0:
		return 0
	case p.kind == kindInf:
		return math.MaxUint64
	}
	s := p.exponent + 63 // 2^63 y = M * 2^s
	n := int64(p.bitLen())
	switch {
	case n+s > 64:
		return math.MaxUint64
	case n+s <= 0:
		return 0
	case s >= 0:
		return p.limbs[0] << uint(s)
	}
	return new(big.Int).Rsh(p.mantissa(), uint(-s)).Uint64()
}
