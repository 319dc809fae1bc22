package vfloat

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"sync"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// MaxPrec is the largest significand precision this package computes
// (binary128's 113 bits: its exact integers then keep at least two guard
// bits beyond P, see the package documentation). Larger vprec formats
// stay on package oracle.
const MaxPrec = 113

// Arith implements arith.Arith[V] for one vprec format. The zero value is
// not usable; obtain one from New, NewFormat, Parse or FromOracle. It is
// one pointer, so that a method call passes its operands in registers.
type Arith struct{ *params }

// params is a format's parameters, shared read-only by copies of an Arith.
type params struct {
	prec uint
	rz   bool    // round toward zero (else to nearest even)
	fm   *format // exponent range of vprec:P:eE; nil for vprec:P
	// sr: stochastic rounding, whose every rounded operation goes
	// through ref (its decisions hash the operands, see oracle).
	sr  bool
	ref oracle.Arith // the same format on big.Float
	tab *tables
}

var _ arith.Arith[V] = Arith{}

// format is the exponent range of vprec:P:eE: normal values
// 2^emin <= |x| <= maxFinite < 2^(emax+1).
type format struct {
	emin, emax int64
	maxFinite  V
}

func init() {
	oracle.SetFastVPrec(func(a oracle.Arith) (any, bool) {
		f, err := FromOracle(a)
		return f, err == nil
	})
}

// FromOracle returns the arithmetic computing exactly what the vprec
// arithmetic a computes. It fails for the oracle itself and for P > MaxPrec.
func FromOracle(a oracle.Arith) (Arith, error) {
	if !a.Virtual() {
		return Arith{}, fmt.Errorf("vfloat: %s is not a vprec format", a)
	}
	if a.Prec() > MaxPrec {
		return Arith{}, fmt.Errorf("vfloat: %s: precision above %d bits (use package oracle)", a, MaxPrec)
	}
	f := Arith{&params{prec: a.Prec(), ref: a, tab: tablesFor(a)}}
	if expBits, r, _, ok := a.Format(); ok {
		emax := int64(1)<<(expBits-1) - 1
		f.fm = &format{emin: 1 - emax, emax: emax}
		f.rz = r == oracle.RoundTowardZero
		f.sr = r == oracle.RoundStochastic
		// (2^P - 1) * 2^(emax+1-P): all P significand bits set.
		m := round(false, emax+1, math.MaxUint64, math.MaxUint64, 0, false, f.prec, true)
		f.fm.maxFinite = m
	}
	return f, nil
}

// New returns vprec:P, P bits rounded to nearest even with an unbounded
// exponent, oracle.MinVPrec <= P <= MaxPrec.
func New(prec uint) (Arith, error) {
	a, err := oracle.NewVirtual(prec)
	if err != nil {
		return Arith{}, err
	}
	return FromOracle(a)
}

// Parse returns the arithmetic of a format name, "vprec:P" or
// "vprec:P:eE[:rn|:rz|:sr=SEED]" (or the same after "vprecbig:").
func Parse(name string) (Arith, error) {
	b, err := arith.Lookup(name)
	if err != nil {
		return Arith{}, err
	}
	switch a := b.Impl.(type) {
	case Arith:
		return a, nil
	case oracle.Arith:
		return FromOracle(a)
	}
	return Arith{}, fmt.Errorf("vfloat: %q is not a vprec format", name)
}

// Prec returns the precision P in bits.
func (a Arith) Prec() uint { return a.prec }

// Virtual reports true: every Arith is a vprec format (as
// oracle.Arith.Virtual).
func (a Arith) Virtual() bool { return true }

// String returns the format's canonical "vprec:..." name.
func (a Arith) String() string { return a.ref.String() }

// Reference returns the same format on big.Float (package oracle), which
// this package reproduces bit for bit.
func (a Arith) Reference() oracle.Arith { return a.ref }

// tables holds a format's constants, twiddles and ExpmP63 coefficients,
// converted exactly from the reference's on first use and shared by every
// Arith of the format.
type tables struct {
	ref                      oracle.Arith
	constOnce, gmOnce, eOnce sync.Once
	consts                   [arith.NumConstants]V
	gm                       [2048]V
	expm                     []V
}

var tableCache sync.Map // format name -> *tables

func tablesFor(a oracle.Arith) *tables {
	t, _ := tableCache.LoadOrStore(a.String(), &tables{ref: a})
	return t.(*tables)
}

func (t *tables) constant(c arith.Constant) V {
	t.constOnce.Do(func() {
		for i := range t.consts {
			t.consts[i] = fromBig(t.ref.Const(arith.Constant(i)))
		}
	})
	return t.consts[c]
}

func (t *tables) twiddle(k int) V {
	t.gmOnce.Do(func() {
		for i := range t.gm {
			t.gm[i] = fromBig(t.ref.GM(i))
		}
	})
	return t.gm[k]
}

func (t *tables) expmCoeffs() []V {
	t.eOnce.Do(func() {
		for _, c := range t.ref.ExpmCoefficients() {
			t.expm = append(t.expm, fromBig(c))
		}
	})
	return t.expm
}

// toBig returns x as the reference holds it: exact, at precision P (or
// more for a value of a wider format).
func (a Arith) toBig(x V) *big.Float { return x.big(max(a.prec, x.minPrec())) }

// inf is the stand-in for a NaN result, as the reference's.
func (a Arith) inf() V { return infV(false) }

// fit applies the exponent range of vprec:P:eE to a rounded result v whose
// exact value had exponent e (v.exp for a result that needed no rounding),
// as the reference's format.fit: the exact value below 2^emin (e-1 < emin)
// flushes to a zero of its sign -- which is the reference's rule "below
// 2^emin after rounding, or rounded up to exactly 2^emin", since rounding
// to nearest or toward zero never takes a value at or above 2^emin below
// it, and reaches exactly 2^emin from below only by rounding up; a result
// above the largest finite value becomes ±Inf, or the largest finite value
// when rounding toward zero.
func (a Arith) fit(v V, e int64) V {
	if a.fm == nil || v.cls() != finite {
		return v
	}
	switch {
	case e-1 < a.fm.emin:
		return zeroV(v.isNeg())
	case int64(v.exp)-1 > a.fm.emax:
		if a.rz {
			m := a.fm.maxFinite
			m.k |= v.k & negBit
			return m
		}
		return infV(v.isNeg())
	}
	return v
}

// roundOwn rounds x to P bits in the format's rounding and range (the
// conversion of a value, exact or from another format).
func (a Arith) roundOwn(x V) V {
	if x.cls() != finite {
		return x
	}
	if x.fits(a.prec) {
		return a.fit(x, int64(x.exp))
	}
	return a.fit(round(x.isNeg(), int64(x.exp), x.hi, x.lo, 0, false, a.prec, a.rz), int64(x.exp))
}

// exact is the reference's Neg rounding: x (exact in a P-bit format)
// rounded to nearest at P bits, which changes only a value of a wider
// format, then, withRange, the exponent range as for an exact result.
func (a Arith) exact(x V, withRange bool) V {
	if x.cls() == finite && !x.fits(a.prec) {
		x = round(x.isNeg(), int64(x.exp), x.hi, x.lo, 0, false, a.prec, false)
	}
	if withRange {
		return a.fit(x, int64(x.exp))
	}
	return x
}

// Of converts i, rounded to P bits.
func (a Arith) Of(i int64) V {
	if a.sr {
		return fromBig(a.ref.Of(i))
	}
	u, neg := uint64(i), i < 0
	if neg {
		u = -u
	}
	return a.fit(a.fromUint64(neg, u, 0))
}

// fromUint64 is (-1)^neg * u * 2^e rounded, with the exact exponent.
func (a Arith) fromUint64(neg bool, u uint64, e int64) (V, int64) {
	if u == 0 {
		return zeroV(false), 0
	}
	n := int64(bits.LeadingZeros64(u))
	return fromUint64(neg, u, e, a.prec, a.rz), 64 - n + e
}

// Scaled returns i*2^e rounded once to P bits.
func (a Arith) Scaled(i int64, e int) V {
	if a.sr {
		return fromBig(a.ref.Scaled(i, e))
	}
	u, neg := uint64(i), i < 0
	if neg {
		u = -u
	}
	return a.fit(a.fromUint64(neg, u, int64(e)))
}

// FromFloat64 imports x, rounded to P bits; NaN gives +Inf.
func (a Arith) FromFloat64(x float64) V {
	switch {
	case math.IsNaN(x):
		return a.inf()
	case a.sr:
		return fromBig(a.ref.FromFloat64(x))
	}
	v := fromFloat64(x, 53, false) // exact
	if v.cls() != finite {
		return v
	}
	return a.roundOwn(v)
}

// Const returns the reference's constant c (rounded to nearest at P bits,
// the exponent range applied); +Inf outside the constants.
func (a Arith) Const(c arith.Constant) V {
	if c < 0 || int(c) >= arith.NumConstants {
		return a.inf()
	}
	return a.tab.constant(c)
}

// GM returns twiddle table entry k as the reference's; +Inf outside
// 0..2047.
func (a Arith) GM(k int) V {
	if k < 0 || k >= 2048 {
		return a.inf()
	}
	return a.tab.twiddle(k)
}

// Convert returns x, a value of this or any other format of this package,
// rounded into this format as one of its results would be (P bits, the
// format's rounding and range), as oracle.Arith.Convert: the boundary
// between datapaths of two widths. On the format's own values it is the
// identity.
func (a Arith) Convert(x V) V {
	if a.sr && !x.fits(a.prec) {
		return fromBig(a.ref.Convert(a.toBig(x)))
	}
	return a.roundOwn(x)
}

// Add returns x+y rounded.
func (a Arith) Add(x, y V) V {
	if a.sr {
		return fromBig(a.ref.Add(a.toBig(x), a.toBig(y)))
	}
	return a.add(x, y)
}

// add is Add without stochastic rounding, with big.Float's rules for
// zeros and infinities (Inf-Inf gives the NaN stand-in +Inf).
func (a Arith) add(x, y V) V {
	switch {
	case x.cls() == finite && y.cls() == finite:
		if x.isNeg() != y.isNeg() && cmpAbs(x, y) == 0 {
			return zeroV(false)
		}
		return a.fit(addExact(x, y, a.prec, a.rz))
	case x.cls() == inf && y.cls() == inf && x.isNeg() != y.isNeg():
		return a.inf()
	case x.cls() == zero && y.cls() == zero:
		return zeroV(x.isNeg() && y.isNeg())
	case x.cls() == inf || y.cls() == zero:
		return a.roundOwn(x)
	}
	return a.roundOwn(y)
}

// Sub returns x-y rounded.
func (a Arith) Sub(x, y V) V {
	if a.sr {
		return fromBig(a.ref.Sub(a.toBig(x), a.toBig(y)))
	}
	y.k ^= negBit
	return a.add(x, y)
}

// Neg returns -x.
func (a Arith) Neg(x V) V {
	x.k ^= negBit
	return a.exact(x, false)
}

// Half returns x/2 (a format flushes a result below its range to zero).
func (a Arith) Half(x V) V { return a.scale(x, -1) }

// Double returns 2x (a format overflows as its rounding says).
func (a Arith) Double(x V) V { return a.scale(x, 1) }

// scale multiplies x by 2^d exactly, then applies the range; like the
// reference's (big.Float.SetMantExp) it does not round a value of a wider
// format.
func (a Arith) scale(x V, d int64) V {
	if x.cls() != finite {
		return x
	}
	e := int64(x.exp) + d
	switch {
	case e < math.MinInt32:
		return zeroV(x.isNeg())
	case e > math.MaxInt32:
		return infV(x.isNeg())
	}
	x.exp = int32(e)
	return a.fit(x, e)
}

// Mul returns x*y rounded.
func (a Arith) Mul(x, y V) V {
	if a.sr {
		return fromBig(a.ref.Mul(a.toBig(x), a.toBig(y)))
	}
	return a.mul(x, y)
}

func (a Arith) mul(x, y V) V {
	switch {
	case x.cls() == finite && y.cls() == finite:
		return a.fit(mulExact(x, y, a.prec, a.rz))
	case x.cls() == inf && y.cls() == zero, x.cls() == zero && y.cls() == inf:
		return a.inf()
	case x.cls() == inf || y.cls() == inf:
		return infV(x.isNeg() != y.isNeg())
	}
	return zeroV(x.isNeg() != y.isNeg())
}

// Sqr returns x^2 rounded.
func (a Arith) Sqr(x V) V {
	if a.sr {
		return fromBig(a.ref.Sqr(a.toBig(x)))
	}
	return a.mul(x, x)
}

// Inv returns 1/x rounded (1/±0 = ±Inf).
func (a Arith) Inv(x V) V {
	if a.sr {
		return fromBig(a.ref.Inv(a.toBig(x)))
	}
	return a.quo(mkV(1<<63, 0, 1, false), x)
}

// Div returns x/y rounded.
func (a Arith) Div(x, y V) V {
	switch {
	case a.sr:
		return fromBig(a.ref.Div(a.toBig(x), a.toBig(y)))
	case (x.cls() == zero && y.cls() == zero) || (x.cls() == inf && y.cls() == inf):
		return a.inf()
	}
	return a.quo(x, y)
}

func (a Arith) quo(x, y V) V {
	switch {
	case x.cls() == finite && y.cls() == finite:
		return a.fit(quoExact(x, y, a.prec, a.rz))
	case x.cls() == zero || y.cls() == inf:
		return zeroV(x.isNeg() != y.isNeg())
	}
	return infV(x.isNeg() != y.isNeg())
}

// Sqrt returns the square root of x correctly rounded (sqrt(±0) = ±0; a
// negative x gives +Inf). Up to 53 bits it is binary64's square root
// corrected by its exact residual (sqrtFloat64); otherwise, and under
// stochastic rounding, the reference's computation on the exact value
// (Falcon takes one square root per tree leaf, a small share of signing).
func (a Arith) Sqrt(x V) V {
	switch {
	case x.sign() < 0:
		return a.inf()
	case x.cls() != finite:
		return x
	case !a.sr && a.prec <= 53:
		if v, e, ok := sqrtFloat64(x, a.prec, a.rz); ok {
			return a.fit(v, e)
		}
	}
	return fromBig(a.ref.Sqrt(a.toBig(x)))
}

// sqrtFloat64 returns sqrt(x) rounded to prec <= 53 bits, with the exact
// result's exponent, for a positive x of at most 53 bits well inside
// binary64's range (else false: near its bottom the residual could underflow).
//
// s = math.Sqrt(x) is sqrt(x) rounded to nearest at 53 bits, and the
// residual x - s*s is a binary64 number (Boldo and Daumas, "Representable
// correcting terms for possibly underflowing floating point operations",
// ARITH 2003), so math.FMA computes it exactly: its sign says on which
// side of s the true root lies. The rounding boundaries of a P-bit format
// (its values for rounding toward zero, the midpoints between them for
// rounding to nearest) are 53-bit numbers for P <= 52; for P = 53 the
// midpoints are not, but sqrt(x) never equals one (its square would not
// be a 53-bit number) and rounds to s, so none lies between s and
// sqrt(x). No 53-bit number lies strictly between s and sqrt(x), s being
// the nearest one. So the only boundary that can separate sqrt(x) from s
// is s itself, and sqrt(x) rounds as s displaced toward it by less than
// any bit of s: s itself when the residual is 0, else s with a sticky bit
// (above), or s less one unit in the last of 192 bits with a sticky bit
// (below). The tests search inputs whose s is a boundary.
func sqrtFloat64(x V, prec uint, rz bool) (V, int64, bool) {
	// From 2^-900 up the residual, a multiple of ulp(s)^2 >= 2^-1004, is a
	// normal number when nonzero; below 2^1000, s*s does not overflow.
	if !x.fits(53) || x.exp < -900 || x.exp > 1000 {
		return V{}, 0, false
	}
	xf, ok := x.float64Exact()
	if !ok {
		return V{}, 0, false
	}
	s := math.Sqrt(xf)
	res := math.FMA(-s, s, xf)
	sv := fromFloat64(s, 53, false) // exact
	w0, w1, w2, exp := sv.hi, sv.lo, uint64(0), int64(sv.exp)
	if res < 0 { // sqrt(x) < s: s minus one unit of the 192-bit integer
		var bw uint64
		w2, bw = bits.Sub64(0, 1, 0)
		w1, bw = bits.Sub64(w1, 0, bw)
		w0, _ = bits.Sub64(w0, 0, bw)
		if w0>>63 == 0 { // s was a power of two
			w0, w1, w2 = shiftLeft3(w0, w1, w2, 1)
			w2 |= 1
			exp--
		}
	}
	return round(false, exp, w0, w1, w2, res != 0, prec, rz), exp, true
}

// Rint rounds x to the nearest integer, ties to even; results beyond the
// int64 range saturate (as the reference's).
func (a Arith) Rint(x V) int64 { return toInt(x, roundEven) }

// Floor rounds x toward minus infinity.
func (a Arith) Floor(x V) int64 { return toInt(x, roundFloor) }

// Trunc rounds x toward zero.
func (a Arith) Trunc(x V) int64 { return toInt(x, roundTrunc) }

// Lt reports x < y (-0 and +0 compare equal).
func (a Arith) Lt(x, y V) bool { return cmp(x, y) < 0 }

// Float64 returns x rounded to the nearest binary64 value (overflow to
// ±Inf, gradual underflow), exact for every value of a format with
// P <= 53 inside binary64's normal range.
func (a Arith) Float64(x V) float64 { return x.float64() }

// Big returns the exact value of x as a new big.Float (at precision P, as
// the reference's values).
func (a Arith) Big(x V) *big.Float { return a.toBig(x) }

// Float64Pair splits x into binary64 numbers hi = x rounded to nearest and
// lo = x - hi, exactly (hi + lo = x), so that a double-word arithmetic can
// import it without big.Float; ok is false where that is not possible (an
// infinity, a remainder needing more than 53 bits or below binary64's
// normal range, hi beyond it).
func (a Arith) Float64Pair(x V) (hi, lo float64, ok bool) {
	switch x.cls() {
	case zero:
		hi, _ = x.float64Exact()
		return hi, 0, true
	case inf:
		return 0, 0, false
	}
	if hi, ok = x.float64Exact(); ok {
		return hi, 0, true
	}
	if x.exp < -1020 || x.exp > 1023 {
		return 0, 0, false
	}
	h := round(x.isNeg(), int64(x.exp), x.hi, x.lo, 0, false, 53, false)
	if hi, ok = h.float64Exact(); !ok {
		return 0, 0, false
	}
	h.k ^= negBit
	r, _ := addExact(x, h, 127, false) // exact: |x - hi| < 2^-52 |x| has at most 127 - 53 significant bits of x below hi's
	if r.cls() != finite {             // x - hi == 0 was handled above (x exact in binary64); addExact never gives 0 otherwise
		return 0, 0, false
	}
	if lo, ok = r.float64Exact(); !ok {
		return 0, 0, false
	}
	return hi, lo, true
}
