package triword

import (
	"math"
	"math/big"
	"math/bits"
	"sync"

	"github.com/fprlab/fprlab/arith"
)

// Arith implements arith.Arith[TW]. The zero value is TWFalcon's
// arithmetic: the fast product (Algorithm 10), and every constant -- 1/q,
// ln 2, 1/sqrt 2, the FFT twiddle factors, and the sampler's 1/sigma and
// sigma_min -- held at the format's precision (each value from its
// definition, arith.Defined and arith.GMExact, rounded limb by limb into
// three float32), as TWFalcon's precision test "recomputes all constants
// for the high precision and triple float versions". Accurate selects the
// accurate product (Algorithm 9). Every other operation is the same in
// both: addition is Algorithm 8, and reciprocal, division and square root
// are the accurate variants of Algorithms 13, 14 and 15 (those whose
// bounds RelErrBound reports).
type Arith struct {
	Accurate bool
	// B64Const imports the reference's binary64 constants, twiddles and
	// 1/sigma, sigma_min tables (split exactly into limbs) instead: an
	// ablation that shows what the import costs. The FFT's inputs then
	// carry 2^-53 relative errors, which bound delta_c near binary64's
	// (about 17 bits worse than with 72-bit constants; see `fprlab
	// compare`).
	B64Const bool
}

var (
	_ arith.Arith[TW]   = Arith{}
	_ arith.ErrorBounds = Arith{}
)

// Bits is 72 for every variant: three 24-bit significands hold every
// 72-bit binary number (the conversions split such a number exactly), and
// the operations' proven relative errors lie between 2^-71 (addition)
// and 2^-66.5 (fast product), i.e. within five bits of 72-bit rounding.
// Values below about 2^-78 hold fewer bits (see the package
// documentation on underflow).
func init() {
	for _, b := range Backends {
		arith.Register(b)
	}
}

// Backends are the package's backends, in the order `fprlab backends`
// lists them: TWFalcon's arithmetic with either product, and the same with
// the reference's binary64 constants imported.
var Backends = []arith.Backend{
	{
		Name:    "triword",
		Bits:    72,
		ExpBits: 8, // the limbs' range: binary32's
		Description: "triple-word binary32 (three float32 limbs, 72-bit significand), Fabiano-Muller-Picot " +
			"algorithms with the errata fixed, fast product (Alg 10), every constant, FFT twiddle, 1/sigma " +
			"and sigma_min at 72 bits: TWFalcon's arithmetic; rel. error <= 2^-66.5 per op",
		Impl: Arith{},
	},
	{
		Name:    "triword-acc",
		Bits:    72,
		ExpBits: 8, // the limbs' range: binary32's
		Description: "triple-word binary32 as \"triword\" but with the accurate product (Alg 9, " +
			"rel. error <= 28u^3+107u^4 ~ 2^-67.2)",
		Impl: Arith{Accurate: true},
	},
	{
		Name:    "triword-b64const",
		Bits:    72,
		ExpBits: 8, // the limbs' range: binary32's
		Description: "ablation: \"triword\" with the reference's binary64 constants, FFT twiddles, 1/sigma and " +
			"sigma_min imported (split exactly into limbs); the import costs ~17 bits of delta_c (Falcon-512 " +
			"median 2^-46.3 against triword's 2^-63.8, 10,000 signatures)",
		Impl: Arith{B64Const: true},
	},
	{
		Name:    "triword-acc-b64const",
		Bits:    72,
		ExpBits: 8, // the limbs' range: binary32's
		Description: "ablation: \"triword-acc\" (accurate product) with the reference's binary64 constants, " +
			"FFT twiddles, 1/sigma and sigma_min imported",
		Impl: Arith{Accurate: true, B64Const: true},
	},
}

// Of converts i exactly: the head limb is i rounded to binary32, the
// middle limb the rounded remainder, and the last limb the (at most
// 16-bit, hence exact) rest. Each limb is at most half an ulp of the one
// above. Any int64 is converted exactly (63 bits fit in three limbs).
func (Arith) Of(i int64) TW {
	m := uint64(i)
	if i < 0 {
		m = -m // also right for math.MinInt64: 2^63
	}
	hi := float32(m)
	r1 := int64(m - uint64(hi)) // |r1| <= ulp(hi)/2 <= 2^39: the wrapped difference is exact
	mid := float32(r1)
	lo := float32(r1 - int64(mid))
	x := TW{hi, mid, lo}
	if i < 0 {
		x = neg(x)
	}
	return x
}

// Scaled returns i*2^e: Of(i) with every limb scaled by 2^e. It is exact
// unless a limb leaves binary32's range (overflow to infinity above
// 2^128; a limb below 2^-126 loses bits to gradual underflow).
func (a Arith) Scaled(i int64, e int) TW {
	x := a.Of(i)
	return TW{ldexp32(x.Hi, e), ldexp32(x.Mid, e), ldexp32(x.Lo, e)}
}

// ldexp32 returns v*2^e rounded once to binary32 (exact within range).
func ldexp32(v float32, e int) float32 {
	return float32(math.Ldexp(float64(v), e))
}

// FromFloat64 imports a binary64 value exactly by splitting its 53-bit
// significand into 24 + 24 + 5 bits: the head is x rounded to binary32,
// the middle limb the rounded remainder, the last limb the rest. It is
// exact when |x| < 2^128 and the lowest bit of x weighs at least 2^-149
// (for instance |x| >= 2^-97); below, bits under 2^-149 are lost to
// gradual underflow, and a value that rounds beyond binary32's range
// becomes the infinity of its sign (zero lower limbs, so the sign
// survives; splitting it would leave -Inf and NaN below the head).
func (Arith) FromFloat64(x float64) TW {
	hi := float32(x)
	if math.IsInf(float64(hi), 0) {
		return TW{hi, 0, 0}
	}
	r := x - float64(hi) // exact: x and hi are within half an ulp of binary32
	mid := float32(r)
	lo := float32(r - float64(mid))
	return TW{hi, mid, lo}
}

// Const returns c at 72 bits (arith.Defined rounded limb by limb), or,
// with B64Const, the reference's binary64 value imported exactly.
func (a Arith) Const(c arith.Constant) TW {
	if a.B64Const {
		return a.FromFloat64(arith.Binary64(c))
	}
	fullTables()
	return fullConsts[c]
}

// fullPrec is the precision the full constants are computed at before
// being split into limbs.
const fullPrec = 160

var (
	fullOnce   sync.Once
	fullConsts [arith.NumConstants]TW
	fullGM     [2048]TW
)

func fullTables() {
	fullOnce.Do(func() {
		for c := range fullConsts {
			fullConsts[c] = fromBig(arith.Defined(arith.Constant(c), fullPrec))
		}
		for k := range fullGM {
			fullGM[k] = fromBig(arith.GMExact(k, fullPrec))
		}
	})
}

// fromBig splits v into three float32 limbs, each the nearest binary32 of
// what remains (the triple word nearest v to about 72 bits).
func fromBig(v *big.Float) TW {
	r := new(big.Float).SetPrec(fullPrec).Set(v)
	var limbs [3]float32
	for i := range limbs {
		f, _ := r.Float32()
		limbs[i] = f
		r.Sub(r, new(big.Float).SetFloat64(float64(f)))
	}
	return TW{limbs[0], limbs[1], limbs[2]}
}

var (
	gmOnce sync.Once
	gmTab  [2048]TW
)

// GM returns twiddle entry k at 72 bits (arith.GMExact rounded limb by
// limb), or, with B64Const, the reference's binary64 value imported
// exactly.
func (a Arith) GM(k int) TW {
	if !a.B64Const {
		fullTables()
		return fullGM[k]
	}
	gmOnce.Do(func() {
		for j := range gmTab {
			gmTab[j] = a.FromFloat64(arith.GMBinary64(j))
		}
	})
	return gmTab[k]
}

func (Arith) Add(x, y TW) TW { return add(x, y) }
func (Arith) Sub(x, y TW) TW { return add(x, neg(y)) }
func (Arith) Neg(x TW) TW    { return neg(x) }

// Half halves every limb: exact unless a limb is subnormal.
func (Arith) Half(x TW) TW {
	return TW{float32(x.Hi * 0.5), float32(x.Mid * 0.5), float32(x.Lo * 0.5)}
}

// Double doubles every limb: exact below 2^127.
func (Arith) Double(x TW) TW { return TW{x.Hi + x.Hi, x.Mid + x.Mid, x.Lo + x.Lo} }

func (a Arith) Mul(x, y TW) TW { return mul33(x, y, a.Accurate) }
func (a Arith) Sqr(x TW) TW    { return mul33(x, x, a.Accurate) }
func (Arith) Inv(x TW) TW      { return inv(x) }
func (Arith) Div(x, y TW) TW   { return div(x, y) }
func (Arith) Sqrt(x TW) TW     { return sqrt(x) }

// Lt reports x < y by the sign of the triple-word difference: the head
// limb of TWSum's result has the sign of the exact difference (it is the
// leading term of a P-nonoverlapping expansion of it), and is zero only
// when the difference is. Unlike the reference's emulation, Lt(-0, +0)
// is false.
func (Arith) Lt(x, y TW) bool { return add(x, neg(y)).Hi < 0 }

// The integer conversions are exact for |x| < 2^63. They walk the limbs
// from the top, as TWFalcon's conversions look at the head limb (and, at
// a tie, at the sign of the second): limbs that are integers are summed
// exactly (modulo 2^64); the first limb v that is not an integer has
// |v| < 2^23, so ulp(v) <= 1/2, and the limbs below it sum to less than
// ulp(v) in magnitude. Hence floor(x) = sum + floor(v), and rint(x) =
// sum + rint(v) unless v sits exactly halfway between two integers, when
// the sign of the next limb decides and a zero next limb means a true
// tie, rounded to even. TWFalcon's own versions read only the head (and
// RD(x0+x1) for floor), which is exact only for |x| < 2^23 and rounds
// exact ties of odd integer part the wrong way; Falcon's keygen needs
// rint up to 2^31 and its sampler trunc of values up to 2^63.

// intPrefix returns the sum modulo 2^64 of the leading integer limbs and
// the index of the first limb that is not an integer (3 if none is).
func intPrefix(l *[3]float32) (acc uint64, k int) {
	for k = 0; k < 3; k++ {
		v := float64(l[k])
		if math.Trunc(v) != v {
			return acc, k
		}
		if v < 0 {
			acc -= uint64(-v)
		} else {
			acc += uint64(v)
		}
	}
	return acc, 3
}

// addInt adds the integer-valued float64 f (|f| < 2^23) to acc.
func addInt(acc uint64, f float64) uint64 { return acc + uint64(int64(f)) }

// Rint rounds to the nearest integer, ties to even, exactly.
func (Arith) Rint(x TW) int64 {
	l := [3]float32{x.Hi, x.Mid, x.Lo}
	acc, k := intPrefix(&l)
	if k == 3 {
		return int64(acc)
	}
	v := float64(l[k])
	f := math.Floor(v)
	r := addInt(acc, f)
	switch d := v - f; { // exact, 0 < d < 1
	case d > 0.5:
		r++
	case d == 0.5:
		var next float32
		if k < 2 {
			next = l[k+1]
		}
		if next > 0 || (next == 0 && r&1 == 1) {
			r++
		}
	}
	return int64(r)
}

// Floor rounds toward minus infinity, exactly.
func (Arith) Floor(x TW) int64 {
	l := [3]float32{x.Hi, x.Mid, x.Lo}
	acc, k := intPrefix(&l)
	if k == 3 {
		return int64(acc)
	}
	return int64(addInt(acc, math.Floor(float64(l[k]))))
}

// Trunc rounds toward zero, exactly; the sign of x is the sign of its
// head limb.
func (Arith) Trunc(x TW) int64 { return int64(truncU64(x)) }

// truncU64 is Trunc modulo 2^64: exact for x in (-2^63, 2^64).
func truncU64(x TW) uint64 {
	l := [3]float32{x.Hi, x.Mid, x.Lo}
	acc, k := intPrefix(&l)
	if k == 3 {
		return acc
	}
	v := float64(l[k])
	if x.Hi < 0 {
		return addInt(acc, math.Ceil(v))
	}
	return addInt(acc, math.Floor(v))
}

// expmCoeffs are the FACCT polynomial coefficients for exp(-x), scaled by
// 2^63, highest degree first (Falcon spec 3.9.3; the reference's emulated
// fpr_expm_p63).
var expmCoeffs = [...]uint64{
	0x00000004741183A3, 0x00000036548CFC06, 0x0000024FDCBF140A,
	0x0000171D939DE045, 0x0000D00CF58F6F84, 0x000680681CF796E3,
	0x002D82D8305B0FEA, 0x011111110E066FD0, 0x0555555555070F00,
	0x155555555581FF00, 0x400000000002B400, 0x7FFFFFFFFFFF4800,
	0x8000000000000000,
}

// ExpmP63 approximates 2^63*ccs*exp(-x) as TWFalcon does: it keeps the
// round-3 structure of the integer-emulated reference (a 64-bit
// fixed-point Horner evaluation of the FACCT polynomial with truncated
// 64x64->high products), feeding it x*2^64 and ccs*2^64 obtained in
// triple words (multiply by 2^63, which is exact, then the full-range
// truncation, then one more bit). With exact conversions the only errors
// are the polynomial's (~2^-50) and the fixed-point truncations. ccs = 1
// saturates the scale factor at 2^64-1 instead of wrapping to 0 as the
// reference would (the sampler never passes it).
func (a Arith) ExpmP63(x, ccs TW) uint64 {
	p63 := TW{0x1p63, 0, 0}
	z := truncU64(a.Mul(x, p63)) << 1
	y := expmCoeffs[0]
	for _, c := range expmCoeffs[1:] {
		hi, _ := bits.Mul64(z, y)
		y = c - hi
	}
	w := truncU64(a.Mul(ccs, p63))
	if w >= 1<<63 {
		w = math.MaxUint64
	} else {
		w <<= 1
	}
	hi, _ := bits.Mul64(w, y)
	return hi
}

// bigPrec holds any triple word exactly: the limbs span at most
// 2^128 .. 2^-149, i.e. 277 bits.
const bigPrec = 320

// Float64 returns the exact value of x rounded to the nearest binary64
// (ties to even, subnormal results included). A triple word that has
// left binary32's range (see nonFinite) gives ±Inf or NaN.
func (a Arith) Float64(x TW) float64 {
	if f, ok := nonFinite(x); ok {
		return f
	}
	f, _ := a.Big(x).Float64()
	return f
}

// nonFinite reports whether x has a non-finite limb, and then its value:
// the head when it is an infinity (an overflowed operation leaves an
// infinite head over lower limbs that are NaN or infinite, Inf - Inf),
// NaN otherwise.
func nonFinite(x TW) (float64, bool) {
	h, m, l := float64(x.Hi), float64(x.Mid), float64(x.Lo)
	switch {
	case !math.IsNaN(h-h) && !math.IsNaN(m-m) && !math.IsNaN(l-l):
		return 0, false // all finite
	case math.IsInf(h, 0):
		return h, true
	}
	return math.NaN(), true
}

// Big returns the exact value Hi + Mid + Lo (a zero keeps the sign of
// Hi). A non-finite triple word gives ±Inf for an infinite head and, as
// the oracle does for a NaN, +Inf otherwise: big.Float has no NaN, and
// Big never panics.
func (Arith) Big(x TW) *big.Float {
	if f, ok := nonFinite(x); ok {
		if math.IsNaN(f) {
			f = math.Inf(1)
		}
		return new(big.Float).SetPrec(bigPrec).SetFloat64(f)
	}
	s := new(big.Float).SetPrec(bigPrec).SetFloat64(float64(x.Hi))
	t := new(big.Float).SetPrec(bigPrec)
	if x.Mid != 0 {
		s.Add(s, t.SetFloat64(float64(x.Mid)))
	}
	if x.Lo != 0 {
		s.Add(s, t.SetFloat64(float64(x.Lo)))
	}
	return s
}

// u is the unit roundoff of binary32.
const u = 0x1p-24

// BoundMinExp is -78: a triple word of magnitude at least 2^-78 has its
// lowest limb (about 2^-48 times the value) at or above 2^-126, binary32's
// smallest normal number, so no limb underflows and the bounds of
// RelErrBound apply.
func (Arith) BoundMinExp() int { return -126 + 48 }

// RelErrBound returns the machine-checked relative error bounds
// (Fabiano, Muller and Picot, IEEE TC 2019, as verified by Thery and
// Rideau): add/sub 2u^3+4.2u^4 (Theorem 6), mul and sqr 44u^3+176u^4
// (fast, Alg 10) or 28u^3+107u^4 (accurate, Alg 9, Theorem 7), inv
// 11.5u^3+1830u^4 (Theorem 9), div 27u^3+2500u^4 (Theorem 10), sqrt
// 24u^3+10260u^4 (Theorem 11), with u = 2^-24. They hold with an
// unbounded exponent range: results or partial products below 2^-126
// also carry absolute errors of order 2^-149 (see the package
// documentation). The conversions are exact and the others have no
// relative bound.
func (a Arith) RelErrBound(op string) (float64, bool) {
	const u3, u4 = u * u * u, u * u * u * u
	switch op {
	case "add", "sub":
		return 2*u3 + 4.2*u4, true
	case "mul", "sqr":
		if a.Accurate {
			return 28*u3 + 107*u4, true
		}
		return 44*u3 + 176*u4, true
	case "inv":
		return 11.5*u3 + 1830*u4, true
	case "div":
		return 27*u3 + 2500*u4, true
	case "sqrt":
		return 24*u3 + 10260*u4, true
	}
	return 0, false
}
