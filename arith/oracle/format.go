package oracle

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Rounding is the rounding rule of a vprec format's arithmetic results.
type Rounding int

const (
	// RoundNearestEven rounds to the nearest P-bit value, ties to even
	// (IEEE 754 roundTiesToEven, the reference's rounding).
	RoundNearestEven Rounding = iota
	// RoundTowardZero truncates the significand (IEEE 754
	// roundTowardZero), the cheapest hardware rounding.
	RoundTowardZero
	// RoundStochastic rounds to one of the two neighbouring P-bit values
	// with probabilities proportional to the distance to the other, so
	// that the expected result is the exact one (the "random rounding" of
	// Monte Carlo arithmetic: Parker, "Monte Carlo Arithmetic", 1997;
	// Verificarlo's MCA backend in RR mode and its SR backend).
	RoundStochastic
)

// Exponent widths accepted by vprec:P:eE.
const (
	MinExpBits = 2
	MaxExpBits = 24
)

// srGuard is the number of bits beyond P at which stochastic rounding
// computes a result before choosing its neighbour: the probability of
// rounding away from zero is the 64-bit residue below P bits, so SR is
// unbiased to within 2^-64 of an ulp per operation.
const srGuard = 64

// format is the exponent range and rounding of a vprec:P:eE backend. A nil
// *format is vprec:P: round to nearest even with an unbounded exponent.
type format struct {
	expBits    int // E
	emin, emax int // normal range 2^emin <= |x| <= maxFinite < 2^(emax+1)
	rounding   Rounding
	seed       uint64     // RoundStochastic's seed
	maxFinite  *big.Float // (2 - 2^(1-P)) * 2^emax
}

// newFormat returns the P-bit format with E exponent bits: as in IEEE 754,
// emax = 2^(E-1) - 1 and emin = 1 - emax.
func newFormat(prec uint, expBits int, r Rounding, seed uint64) *format {
	emax := 1<<(expBits-1) - 1
	// maxFinite = (2^P - 1) * 2^(emax+1-P), exact at P bits.
	m := new(big.Float).SetPrec(prec).SetInt(new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), prec), big.NewInt(1)))
	return &format{
		expBits:   expBits,
		emin:      1 - emax,
		emax:      emax,
		rounding:  r,
		seed:      seed,
		maxFinite: m.SetMantExp(m, emax+1-int(prec)),
	}
}

// suffix is the canonical name of the format after "vprec:P".
func (f *format) suffix() string {
	s := ":e" + strconv.Itoa(f.expBits)
	switch f.rounding {
	case RoundTowardZero:
		s += ":rz"
	case RoundStochastic:
		s += ":sr=" + strconv.FormatUint(f.seed, 10)
	}
	return s
}

// describe says in one line what the format computes.
func (f *format) describe(prec uint) string {
	r := "round to nearest even"
	switch f.rounding {
	case RoundTowardZero:
		r = "round toward zero"
	case RoundStochastic:
		r = fmt.Sprintf("stochastic rounding, seed %d", f.seed)
	}
	return fmt.Sprintf("%d-bit significand, %d-bit exponent (normal range 2^%d..2^%d, flush to zero below), %s; expm_p63 by the reference's polynomial in this arithmetic", prec, f.expBits, f.emin, f.emax+1, r)
}

// parseFormat parses the fields after "vprec:P": "eE" and an optional
// rounding "rn", "rz", "sr" (seed 0) or "sr=SEED".
func parseFormat(prec uint, fields []string) (*format, error) {
	if len(fields) == 0 || len(fields) > 2 {
		return nil, fmt.Errorf("want vprec:P, vprec:P:eE or vprec:P:eE:ROUNDING, got %d fields after P", len(fields))
	}
	es, ok := strings.CutPrefix(fields[0], "e")
	e, err := strconv.Atoi(es)
	if !ok || err != nil || e < MinExpBits || e > MaxExpBits {
		return nil, fmt.Errorf("exponent width %q: write eE with an integer %d <= E <= %d (e11 is binary64's)", fields[0], MinExpBits, MaxExpBits)
	}
	r, seed := RoundNearestEven, uint64(0)
	if len(fields) == 2 {
		if r, seed, err = ParseRounding(fields[1]); err != nil {
			return nil, err
		}
	}
	return newFormat(prec, e, r, seed), nil
}

// ParseRounding reads a rounding as format names write it: "rn" (nearest
// even), "rz" (toward zero), "sr" (stochastic, seed 0) or "sr=SEED".
// A sweep that builds names from flags can check them with it, then name
// each format with NewFormat(...).String().
func ParseRounding(s string) (Rounding, uint64, error) {
	switch {
	case s == "rn":
		return RoundNearestEven, 0, nil
	case s == "rz":
		return RoundTowardZero, 0, nil
	case s == "sr":
		return RoundStochastic, 0, nil
	case strings.HasPrefix(s, "sr="):
		seed, err := strconv.ParseUint(s[3:], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("stochastic rounding seed %q: want an unsigned 64-bit integer", s[3:])
		}
		return RoundStochastic, seed, nil
	}
	return 0, 0, fmt.Errorf("rounding %q: want rn (nearest even), rz (toward zero), sr or sr=SEED (stochastic)", s)
}

// op identifies an operation in the stochastic-rounding hash, so that two
// operations on the same operands draw independent decisions.
type op uint64

const (
	opOf op = iota + 1
	opScaled
	opFromFloat64
	opAdd
	opSub
	opMul
	opSqr
	opInv
	opDiv
	opSqrt
	opConvert
)

// finish computes an operation in the format: compute stores the result of
// the operation on operands x and y (y nil for unary operations, both nil
// for conversions, whose input is in ints) into z and returns it, rounded
// by z's precision and mode. finish chooses those (P bits and the format's
// mode; P+srGuard bits toward zero for stochastic rounding), applies
// stochastic rounding, then the exponent range.
func (f *format) finish(prec uint, o op, x, y *big.Float, ints []int64, compute func(z *big.Float) *big.Float) *big.Float {
	switch f.rounding {
	case RoundStochastic:
		w := compute(new(big.Float).SetPrec(prec + srGuard).SetMode(big.ToZero))
		z, up := f.stochastic(prec, w, f.random(o, x, y, ints))
		return f.fit(prec, z, up)
	case RoundTowardZero:
		return f.fit(prec, compute(new(big.Float).SetPrec(prec).SetMode(big.ToZero)), false)
	}
	z := compute(new(big.Float).SetPrec(prec))
	up := (z.Acc() == big.Above && z.Sign() > 0) || (z.Acc() == big.Below && z.Sign() < 0)
	return f.fit(prec, z, up)
}

// stochastic rounds w (P+srGuard bits, rounded toward zero) to P bits:
// away from zero when u < r, where r is the part of w below P bits in
// units of 2^-64 ulp, so with probability r/2^64 for a uniform u. It
// reports whether it rounded away from zero.
func (f *format) stochastic(prec uint, w *big.Float, u uint64) (*big.Float, bool) {
	d := new(big.Float).SetPrec(prec).SetMode(big.ToZero).Set(w)
	if d.Acc() == big.Exact || w.IsInf() {
		return d, false
	}
	e := d.MantExp(nil) // |d| in [2^(e-1), 2^e): an ulp is 2^(e-P)
	res := new(big.Float).SetPrec(prec+srGuard).Sub(w, d)
	r, _ := res.SetMantExp(res.Abs(res), srGuard+int(prec)-e).Uint64()
	if u >= r {
		return d, false
	}
	ulp := new(big.Float).SetMantExp(one, e-int(prec))
	if d.Signbit() {
		ulp.Neg(ulp)
	}
	return d.Add(d, ulp), true // exact: d + ulp has P bits
}

// fit applies the exponent range to z, a P-bit result; roundedUp reports
// that rounding increased its magnitude. A result whose exact value is
// below the smallest normal 2^emin becomes a zero of its sign, even when
// rounding brought it up to 2^emin: the reference's emulated binary64
// flushes that way and has no subnormals. A result above the largest
// finite value becomes an infinity, or the largest finite value when
// rounding toward zero (IEEE 754, section 7.4).
func (f *format) fit(prec uint, z *big.Float, roundedUp bool) *big.Float {
	if z.Sign() == 0 || z.IsInf() {
		return z
	}
	e := z.MantExp(nil) - 1 // |z| in [2^e, 2^(e+1))
	switch {
	case e < f.emin || (e == f.emin && roundedUp && z.MinPrec() == 1):
		zero := new(big.Float).SetPrec(prec)
		if z.Signbit() {
			zero.Neg(zero)
		}
		return zero
	case e > f.emax:
		r := new(big.Float).SetPrec(prec)
		if f.rounding == RoundTowardZero {
			r.Set(f.maxFinite)
		} else {
			r.SetInf(false)
		}
		if z.Signbit() {
			r.Neg(r)
		}
		return r
	}
	return z
}

// random returns the 64-bit uniform value that decides a stochastic
// rounding: a hash of the seed, the operation and its operands' exact
// values. Making the decision a function of its inputs, instead of a draw
// from a shared generator, keeps a run deterministic whatever the order in
// which goroutines call the backend (one signature's results depend on that
// signature's operands only), and needs no lock. The price: an operation
// repeated on the same operands repeats its rounding, within one seed.
// Independent samples of the Monte Carlo distribution come from different
// seeds.
func (f *format) random(o op, x, y *big.Float, ints []int64) uint64 {
	h := mix64(f.seed ^ 0x5bd1e9955bd1e995)
	h = absorb(h, uint64(o))
	for _, i := range ints {
		h = absorb(h, uint64(i))
	}
	h = absorbFloat(h, x)
	h = absorbFloat(h, y)
	return mix64(h)
}

// absorbFloat feeds the exact value of x (sign, exponent and every
// significand bit; nothing of its precision or rounding history) into h.
func absorbFloat(h uint64, x *big.Float) uint64 {
	switch {
	case x == nil:
		return h
	case x.IsInf():
		return absorb(h, 1<<62|uint64(x.Sign()+1))
	case x.Sign() == 0:
		s := uint64(0)
		if x.Signbit() {
			s = 1
		}
		return absorb(h, 2<<62|s)
	}
	// Values exact in binary64 (every value of a format with P <= 53 and
	// E <= 11) hash their bits without allocating; others their exact
	// significand and exponent.
	if f, acc := x.Float64(); acc == big.Exact {
		return absorb(h, math.Float64bits(f))
	}
	mant := new(big.Float)
	e := x.MantExp(mant)
	h = absorb(h, 3<<62)
	n := int(mant.MinPrec())
	m, _ := mant.SetMantExp(mant, n).Int(nil) // odd integer, |x| = m*2^(e-n)
	h = absorb(h, uint64(int64(e-n)))
	h = absorb(h, uint64(m.Sign()+1))
	m.Abs(m)
	for m.Sign() != 0 {
		h = absorb(h, m.Uint64())
		m.Rsh(m, 64)
	}
	return h
}

// absorb mixes the word w into the hash state h.
func absorb(h, w uint64) uint64 { return mix64(h ^ mix64(w+0x9e3779b97f4a7c15)) }

// mix64 is the SplitMix64 finaliser (Steele, Lea, Flood, "Fast splittable
// pseudorandom number generators", OOPSLA 2014), a bijection of 64-bit
// words with full avalanche.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
