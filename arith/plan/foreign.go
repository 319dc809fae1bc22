package plan

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/bits"
	"sort"
	"strings"
	"sync"
	"unsafe"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/vfloat"
)

// Foreign stages: a stage computed by an arithmetic whose values are of a
// type of its own -- a hardware designer's plugin (so:PATH[@CONFIG],
// package arith/cabi) -- rather than by a vprec format.
//
// A plan carries one value type through all its stages (its carrier:
// vfloat.V, or *big.Float for vprecbig formats). A foreign arithmetic's
// values are opaque to every other format, but it can import an exact
// binary number, rounding it by its own rule (fprlab_from_parts), and
// export any of its values exactly (fprlab_decode). That is all a stage
// boundary needs: a carrier value enters the stage rounded by the
// foreign format's rule -- what its hardware does to an operand fed from
// a wider datapath -- every operation inside the stage is the foreign
// arithmetic's own, decisions (rint, floor, trunc, lt) and expm_p63
// included, and each result leaves exactly, as a carrier value. So
// a uniform plan of one plugin computes exactly what the plugin alone
// computes, as for vprec formats. The carrier must hold every value of the
// foreign format exactly: a format with a wider significand or an
// unbounded exponent is refused where the plan is built, naming both.
//
// Package plan does not load plugins (it would then depend on purego):
// the package that does registers a family of foreign formats
// (RegisterForeign), and plans accept FAMILY:ARG as a stage's format.

// PartsKind is the class of an exact number.
type PartsKind uint8

// The classes of Parts (enum fprlab_kind).
const (
	PartsZero PartsKind = iota
	PartsFinite
	PartsInf
	PartsNaN
)

// Parts is an exact binary number, as plugin/fprlab_arith.h's
// fprlab_parts holds it: for PartsFinite, (-1)^Neg * M * 2^Exp with
// M = M[0] + M[1] 2^64 + M[2] 2^128 + M[3] 2^192 nonzero (trailing zero
// bits allowed); for the other kinds only Neg is read.
type Parts struct {
	Kind PartsKind
	Neg  bool
	Exp  int64
	M    [4]uint64
}

// Foreign describes an arithmetic with values of its own type X by what a
// plan needs to compute a stage in it.
type Foreign[X any] struct {
	// Backend names it (Name, as a backend name), and gives its
	// significand width (Bits) and exponent range (ExpBits, 0 for
	// unbounded); its Impl is not read.
	Backend arith.Backend
	Arith   arith.Arith[X]
	// Import rounds an exact number into the format by the format's own
	// rule (fprlab_from_parts); it must be a function of its operand.
	Import func(Parts) X
	// Export returns a value's exact number (fprlab_decode).
	Export func(X) Parts
	// Fail reports an error where arith.Arith has no error result (a
	// value the plan's carrier cannot hold); it need not return, and
	// when it does the operation returns a zero.
	Fail func(error)
}

// ForeignFormat is a foreign arithmetic ready to be a stage over either
// of the plans' carriers (NewForeign).
type ForeignFormat struct {
	backend arith.Backend
	overV   func() (Format[vfloat.V], error)
	overBig func() (Format[*big.Float], error)
}

// NewForeign makes f a stage format of plans.
func NewForeign[X any](f Foreign[X]) *ForeignFormat {
	return &ForeignFormat{
		backend: f.Backend,
		overV:   func() (Format[vfloat.V], error) { return newStage(f, carrier[vfloat.V](vCarrier{})) },
		overBig: func() (Format[*big.Float], error) { return newStage(f, carrier[*big.Float](bigCarrier{})) },
	}
}

var foreignFamilies struct {
	sync.RWMutex
	m     map[string]func(arg string) (*ForeignFormat, error)
	usage []string
}

// RegisterForeign makes FAMILY:ARG a stage format of plans: open returns
// the format named by ARG (as the backend FAMILY:ARG), e.g. package
// arith/cabi registers "so" with usage "so:PATH[@CONFIG]". It panics on a
// duplicate family: registration happens in init functions, where that is
// a bug.
func RegisterForeign(family, usage string, open func(arg string) (*ForeignFormat, error)) {
	foreignFamilies.Lock()
	defer foreignFamilies.Unlock()
	if _, dup := foreignFamilies.m[family]; dup {
		panic("plan: foreign stage family registered twice: " + family)
	}
	if foreignFamilies.m == nil {
		foreignFamilies.m = map[string]func(string) (*ForeignFormat, error){}
	}
	foreignFamilies.m[family] = open
	foreignFamilies.usage = append(foreignFamilies.usage, usage)
	sort.Strings(foreignFamilies.usage)
}

// foreignFamily returns the opener of format's family, if foreign.
func foreignFamily(format string) (family, arg string, open func(string) (*ForeignFormat, error)) {
	family, arg, ok := strings.Cut(format, ":")
	if !ok {
		return "", "", nil
	}
	foreignFamilies.RLock()
	defer foreignFamilies.RUnlock()
	return family, arg, foreignFamilies.m[family]
}

// foreignUsage lists the registered families' usages, for messages.
func foreignUsage() string {
	foreignFamilies.RLock()
	defer foreignFamilies.RUnlock()
	return strings.Join(foreignFamilies.usage, ", ")
}

// Escaping. A plan separates its entries with '+' or ',' and a backend
// list separates backends with ','; a plugin's path or configuration may
// contain any of them. Inside a plan, a foreign format's ARG is therefore
// percent-encoded as in URLs: '%', '+' and ',' (and spaces and control
// characters, which the plan syntax trims) are written %25, %2B, %2C
// (%20, ...); every %XX decodes to its byte, so a '%' must be written
// %25, and a '%' without two hex digits after it is refused. The decoded
// ARG is exactly what FAMILY:ARG means outside a plan (for so:, the
// library and configuration split at the last '@' after the last '/').

// escapeArg returns arg with the bytes a plan cannot hold literally
// percent-encoded: the canonical spelling in plan names.
func escapeArg(arg string) string {
	var b strings.Builder
	for i := range len(arg) {
		c := arg[i]
		if c == '%' || c == '+' || c == ',' || c <= ' ' || c == 0x7f {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// unescapeArg decodes a plan's spelling of ARG.
func unescapeArg(s string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b.WriteByte(s[i])
			continue
		}
		hi, okHi := unhex(s, i+1)
		lo, okLo := unhex(s, i+2)
		if !okHi || !okLo {
			return "", fmt.Errorf("'%%' at byte %d of %q is not followed by two hex digits", i+1, s)
		}
		b.WriteByte(hi<<4 | lo)
		i += 2
	}
	return b.String(), nil
}

func unhex(s string, i int) (byte, bool) {
	if i >= len(s) {
		return 0, false
	}
	switch c := s[i]; {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// canonicalForeign checks the foreign format FAMILY:ARG (ARG as a plan
// spells it) by opening it, and returns its canonical spelling.
func canonicalForeign(family, arg string, open func(string) (*ForeignFormat, error)) (string, error) {
	raw, err := unescapeArg(arg)
	if err != nil {
		return "", fmt.Errorf("format %s:%s: %w", family, arg, err)
	}
	if _, err := open(raw); err != nil {
		return "", fmt.Errorf("format %s:%s: %w", family, raw, err)
	}
	return family + ":" + escapeArg(raw), nil
}

// openForeign opens a canonical foreign stage format; ok is false when
// name is not one.
func openForeign(name string) (f *ForeignFormat, ok bool, err error) {
	family, arg, open := foreignFamily(name)
	if open == nil {
		return nil, false, nil
	}
	raw, err := unescapeArg(arg)
	if err == nil {
		f, err = open(raw)
	}
	if err != nil {
		return nil, true, fmt.Errorf("format %s:%s: %w", family, arg, err)
	}
	return f, true, nil
}

// carrier is a plan's value type F seen from a foreign stage: exact
// conversions between F and Parts, and F's own exports.
type carrier[F comparable] interface {
	// String names the carrier in messages.
	String() string
	// bits is the widest significand F holds; wider is a hint how to get
	// a carrier of more bits.
	bits() (n int, wider string)
	// parts returns x exactly, with the shortest significand (odd);
	// false beyond 256 significant bits.
	parts(x F) (Parts, bool)
	// value returns p exactly (a NaN as +Inf, the stand-in of the
	// oracle, which has no NaN); an error when F cannot hold p.
	value(p Parts) (F, error)
	float64(x F) float64
	big(x F) *big.Float
	// hash is a hash of x's identity for the run caches: equal values
	// hash alike.
	hash(x F) uint64
}

// carrierExpBits is the exponent range both carriers hold, as an IEEE
// exponent width: big.Float's exponents are int32, and a format of 31
// exponent bits spans 2^(2-2^30-P) .. 2^(2^30), inside them; 32 bits
// would not be.
const carrierExpBits = 31

// normalize strips p's trailing zero bits: p = m * 2^e with m odd, of n
// bits.
func normalize(p Parts) (m [4]uint64, e int64, n int) {
	m, e = p.M, p.Exp
	tz := 0
	for _, w := range m {
		if w != 0 {
			tz += bits.TrailingZeros64(w)
			break
		}
		tz += 64
	}
	if tz >= 256 {
		return m, e, 0
	}
	for ; tz >= 64; tz -= 64 {
		m[0], m[1], m[2], m[3] = m[1], m[2], m[3], 0
		e += 64
	}
	if tz > 0 {
		for i := range 3 {
			m[i] = m[i]>>tz | m[i+1]<<(64-tz)
		}
		m[3] >>= tz
		e += int64(tz)
	}
	for i := 3; i >= 0; i-- {
		if m[i] != 0 {
			return m, e, 64*i + bits.Len64(m[i])
		}
	}
	return m, e, 0
}

// errOutside is the error of a number a carrier cannot hold.
func errOutside(c fmt.Stringer, p Parts, n int, e int64) error {
	sign := ""
	if p.Neg {
		sign = "-"
	}
	return fmt.Errorf("a value %s1.x * 2^%d with a %d-bit significand lies outside the plan's carrier %s", sign, e+int64(n)-1, n, c)
}

// vCarrier carries vfloat.V: 128-bit significands, big.Float's exponents.
type vCarrier struct{}

func (vCarrier) String() string { return "vfloat.V" }

func (vCarrier) bits() (int, string) {
	return vfloat.SignificandBits, "write the other stages as vprecbig:... formats, whose values the plan carries as *big.Float (up to 256 bits)"
}

func (vCarrier) parts(x vfloat.V) (Parts, bool) {
	neg, hi, lo, e, ok := x.Significand()
	switch {
	case ok:
		// Shortest: a plugin may take only significands of its own width.
		m, e, _ := normalize(Parts{Exp: e, M: [4]uint64{lo, hi}})
		return Parts{Kind: PartsFinite, Neg: neg, Exp: e, M: m}, true
	case x.IsInf():
		return Parts{Kind: PartsInf, Neg: neg}, true
	}
	return Parts{Kind: PartsZero, Neg: neg}, true
}

func (c vCarrier) value(p Parts) (vfloat.V, error) {
	switch p.Kind {
	case PartsZero:
		return vfloat.Zero(p.Neg), nil
	case PartsInf:
		return vfloat.Inf(p.Neg), nil
	case PartsNaN:
		return vfloat.Inf(false), nil
	}
	m, e, n := normalize(p)
	if n > vfloat.SignificandBits || n == 0 {
		return vfloat.V{}, errOutside(c, p, n, e)
	}
	v, ok := vfloat.Exact(p.Neg, m[1], m[0], e)
	if !ok {
		return vfloat.V{}, errOutside(c, p, n, e)
	}
	return v, nil
}

// vExport exports V values as every vprec format does (the methods do not
// depend on the format).
var vExport, _ = vfloat.New(53)

func (vCarrier) float64(x vfloat.V) float64 { return vExport.Float64(x) }

func (vCarrier) hash(x vfloat.V) uint64 {
	neg, hi, lo, e, _ := x.Significand()
	h := (hi ^ lo*0x9e3779b97f4a7c15 ^ uint64(e)<<32) * 0xff51afd7ed558ccd
	if neg {
		h = ^h
	}
	if x.IsInf() {
		h++
	}
	return h ^ h>>29
}
func (vCarrier) big(x vfloat.V) *big.Float { return vExport.Big(x) }

// bigCarrier carries *big.Float: any significand, int32 exponents.
type bigCarrier struct{}

func (bigCarrier) String() string { return "*big.Float" }

func (bigCarrier) bits() (int, string) { return 256, "" }

func (bigCarrier) parts(x *big.Float) (Parts, bool) { return BigParts(x) }

// BigParts is the finite or infinite x exactly; false when its
// significand needs more than 256 bits. (Package cabi hands such values
// to fprlab_from_parts too.)
func BigParts(x *big.Float) (Parts, bool) {
	p := Parts{Neg: x.Signbit()}
	switch {
	case x.IsInf():
		p.Kind = PartsInf
		return p, true
	case x.Sign() == 0:
		p.Kind = PartsZero
		return p, true
	}
	n := int(x.MinPrec())
	if n > 256 {
		return p, false
	}
	// |x| = 0.mant * 2^exp, so |x| * 2^(n-exp) is an integer of n bits,
	// read into 64-bit limbs whatever the size of big.Word.
	exp := x.MantExp(nil)
	i, _ := new(big.Float).SetMantExp(new(big.Float).Abs(x), n-exp).Int(nil)
	var b [32]byte
	i.FillBytes(b[:])
	for k := range p.M {
		p.M[k] = binary.BigEndian.Uint64(b[24-8*k:])
	}
	p.Kind, p.Exp = PartsFinite, int64(exp-n)
	return p, true
}

func (c bigCarrier) value(p Parts) (*big.Float, error) {
	switch p.Kind {
	case PartsZero:
		z := new(big.Float)
		if p.Neg {
			z.Neg(z)
		}
		return z, nil
	case PartsInf:
		return new(big.Float).SetInf(p.Neg), nil
	case PartsNaN:
		return new(big.Float).SetInf(false), nil
	}
	m, e, n := normalize(p)
	if n == 0 || e+int64(n) < big.MinExp || e+int64(n) > big.MaxExp {
		return nil, errOutside(c, p, n, e)
	}
	w := make([]big.Word, 4)
	for k := range w {
		w[k] = big.Word(m[k])
	}
	f := new(big.Float).SetPrec(uint(n)).SetInt(new(big.Int).SetBits(w))
	f.SetMantExp(f, int(e))
	if p.Neg {
		f.Neg(f)
	}
	return f, nil
}

func (bigCarrier) float64(x *big.Float) float64 { f, _ := x.Float64(); return f }

// hash hashes the pointer: big.Float values are immutable (arith.Arith's
// contract), so a pointer is a value's identity, and the heap does not
// move.
func (bigCarrier) hash(x *big.Float) uint64 {
	h := uint64(uintptr(unsafe.Pointer(x))) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}
func (bigCarrier) big(x *big.Float) *big.Float { return new(big.Float).Copy(x) }

// stage computes a plan stage in a foreign arithmetic over carrier values
// F: operands enter through Import of their exact value, results leave
// through Export, exactly.
//
// Converting costs a call into the plugin each way; most operands of a
// stage are results of the stage itself, so a run remembers, for the
// carrier values its results left as, the plugin values they are
// (run.own), and for the values that entered from other stages what they
// became (run.conv): such an operand enters without a call. The shared
// stage (key generation, concurrent callers without ForRun) remembers
// nothing but the constant tables. Remembering is exact: a result's
// carrier value is its plugin value's number, and Import is a function of
// its operand. A NaN, which leaves as +Inf, is not remembered.
type stage[F comparable, X any] struct {
	f      Foreign[X]
	c      carrier[F]
	consts [arith.NumConstants]F
	gm     [2048]F
	fixed  map[F]X // the tables' carrier values and plugin values, read-only
	zero   F
	run    *runCache[F, X] // nil on the shared stage
}

// runCache is what one run remembers: direct-mapped tables indexed by a
// hash of the carrier value, each slot keeping the last value that
// hashed there (a lost entry costs a call, never a wrong value: a slot
// answers only for its own key). A Go map was measured 3x slower here:
// hashing V's struct and probing cost more than the call they save.
type runCache[F comparable, X any] struct {
	own  [runCacheSize]slot[F, X]
	conv [runCacheSize]slot[F, F]
}

type slot[K comparable, V any] struct {
	key K
	val V
	set bool
}

// runCacheSize is a power of two: 4096 slots hold a Falcon-1024 FFT
// vector's 2048 values with room to spare.
const runCacheSize = 1 << 12

// runLocal is a format with state of its own per run (arith.RunForker).
type runLocal[F any] interface {
	forRun() Format[F]
}

// newStage makes f a stage over carrier c, or refuses a format c cannot
// hold.
func newStage[F comparable, X any](f Foreign[X], c carrier[F]) (Format[F], error) {
	b := f.Backend
	if n, wider := c.bits(); b.Bits > n {
		msg := fmt.Sprintf("stage format %s has %d-bit significands, wider than the %d bits of the plan's carrier %s", b.Name, b.Bits, n, c)
		if wider != "" {
			msg += ": " + wider
		}
		return nil, errors.New(msg)
	}
	if b.ExpBits == 0 || b.ExpBits > carrierExpBits {
		what := "an unbounded exponent range (exponent_bits 0)"
		if b.ExpBits != 0 {
			what = fmt.Sprintf("exponent_bits %d", b.ExpBits)
		}
		return nil, fmt.Errorf("stage format %s declares %s, beyond the plan's carrier %s, whose exponents are big.Float's (int32): a plugin stage needs at most %d exponent bits", b.Name, what, c, carrierExpBits)
	}
	s := &stage[F, X]{f: f, c: c, fixed: map[F]X{}}
	var err error
	if s.zero, err = c.value(Parts{Kind: PartsZero}); err != nil {
		return nil, err
	}
	fix := func(x X) (F, error) {
		v, err := c.value(f.Export(x))
		if err == nil {
			s.fixed[v] = x
		}
		return v, err
	}
	for k := range s.consts {
		if s.consts[k], err = fix(f.Arith.Const(arith.Constant(k))); err != nil {
			return nil, fmt.Errorf("stage format %s: constant %s: %w", b.Name, arith.Constant(k), err)
		}
	}
	for k := range s.gm {
		if s.gm[k], err = fix(f.Arith.GM(k)); err != nil {
			return nil, fmt.Errorf("stage format %s: twiddle %d: %w", b.Name, k, err)
		}
	}
	return s, nil
}

// forRun implements runLocal: the stage with a memory of its own.
func (s *stage[F, X]) forRun() Format[F] {
	r := *s
	r.run = new(runCache[F, X])
	return &r
}

// out exports a result into the carrier.
func (s *stage[F, X]) out(x X) F {
	p := s.f.Export(x)
	v, err := s.c.value(p)
	if err != nil {
		s.f.Fail(fmt.Errorf("stage format %s: %w", s.f.Backend.Name, err))
		return s.zero
	}
	if s.run != nil && p.Kind != PartsNaN {
		s.run.own[s.c.hash(v)%runCacheSize] = slot[F, X]{v, x, true}
	}
	return v
}

// known returns the plugin value v is, if it left this stage (in this
// run) or is one of its constants.
func (s *stage[F, X]) known(v F) (X, bool) {
	if s.run != nil {
		if e := &s.run.own[s.c.hash(v)%runCacheSize]; e.set && e.key == v {
			return e.val, true
		}
	}
	x, ok := s.fixed[v]
	return x, ok
}

// in imports an operand.
func (s *stage[F, X]) in(v F) X {
	if x, ok := s.known(v); ok {
		return x
	}
	if s.run != nil {
		if e := &s.run.conv[s.c.hash(v)%runCacheSize]; e.set && e.key == v {
			if x, ok := s.known(e.val); ok {
				return x
			}
		}
	}
	p, ok := s.c.parts(v)
	if !ok {
		s.f.Fail(fmt.Errorf("stage format %s: an operand has more than 256 significant bits", s.f.Backend.Name))
		return s.in(s.zero)
	}
	return s.f.Import(p)
}

// Convert implements Format: x rounded into the plugin's format by its
// rule, exported back.
func (s *stage[F, X]) Convert(v F) F {
	if _, ok := s.known(v); ok {
		return v
	}
	var e *slot[F, F]
	if s.run != nil {
		if e = &s.run.conv[s.c.hash(v)%runCacheSize]; e.set && e.key == v {
			return e.val
		}
	}
	c := s.out(s.in(v))
	if e != nil {
		*e = slot[F, F]{v, c, true}
	}
	return c
}

func (s *stage[F, X]) Of(i int64) F            { return s.out(s.f.Arith.Of(i)) }
func (s *stage[F, X]) Scaled(i int64, e int) F { return s.out(s.f.Arith.Scaled(i, e)) }
func (s *stage[F, X]) FromFloat64(x float64) F { return s.out(s.f.Arith.FromFloat64(x)) }

// Const and GM return the plugin's tables as exported once.
func (s *stage[F, X]) Const(c arith.Constant) F {
	if c < 0 || int(c) >= len(s.consts) {
		return s.out(s.f.Arith.Const(c))
	}
	return s.consts[c]
}

func (s *stage[F, X]) GM(k int) F {
	if k < 0 || k >= len(s.gm) {
		return s.out(s.f.Arith.GM(k))
	}
	return s.gm[k]
}

func (s *stage[F, X]) Add(x, y F) F { return s.out(s.f.Arith.Add(s.in(x), s.in(y))) }
func (s *stage[F, X]) Sub(x, y F) F { return s.out(s.f.Arith.Sub(s.in(x), s.in(y))) }
func (s *stage[F, X]) Mul(x, y F) F { return s.out(s.f.Arith.Mul(s.in(x), s.in(y))) }
func (s *stage[F, X]) Div(x, y F) F { return s.out(s.f.Arith.Div(s.in(x), s.in(y))) }
func (s *stage[F, X]) Neg(x F) F    { return s.out(s.f.Arith.Neg(s.in(x))) }
func (s *stage[F, X]) Half(x F) F   { return s.out(s.f.Arith.Half(s.in(x))) }
func (s *stage[F, X]) Double(x F) F { return s.out(s.f.Arith.Double(s.in(x))) }
func (s *stage[F, X]) Sqr(x F) F    { return s.out(s.f.Arith.Sqr(s.in(x))) }
func (s *stage[F, X]) Inv(x F) F    { return s.out(s.f.Arith.Inv(s.in(x))) }
func (s *stage[F, X]) Sqrt(x F) F   { return s.out(s.f.Arith.Sqrt(s.in(x))) }

func (s *stage[F, X]) Rint(x F) int64  { return s.f.Arith.Rint(s.in(x)) }
func (s *stage[F, X]) Floor(x F) int64 { return s.f.Arith.Floor(s.in(x)) }
func (s *stage[F, X]) Trunc(x F) int64 { return s.f.Arith.Trunc(s.in(x)) }
func (s *stage[F, X]) Lt(x, y F) bool  { return s.f.Arith.Lt(s.in(x), s.in(y)) }

func (s *stage[F, X]) ExpmP63(x, ccs F) uint64 { return s.f.Arith.ExpmP63(s.in(x), s.in(ccs)) }

// Float64 and Big export carrier values, as the plan's other formats do.
func (s *stage[F, X]) Float64(x F) float64 { return s.c.float64(x) }
func (s *stage[F, X]) Big(x F) *big.Float  { return s.c.big(x) }

// Float64Pair splits a carrier value as vfloat does (the shadow's import
// without big.Float); false on big.Float.
func (s *stage[F, X]) Float64Pair(x F) (hi, lo float64, ok bool) {
	if v, isV := any(x).(vfloat.V); isV {
		return vExport.Float64Pair(v)
	}
	return 0, 0, false
}
