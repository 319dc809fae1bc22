package oracle

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/fprlab/fprlab/arith"
)

func init() {
	a, err := New(DefaultPrec)
	if err != nil {
		panic(err)
	}
	arith.Register(arith.Backend{
		Name:        "oracle",
		Bits:        DefaultPrec,
		Description: "big-float oracle: every operation correctly rounded at 256 bits, exact expm_p63; the ruler other backends are measured against",
		Impl:        a,
	})
	arith.RegisterFamily(arith.Family{
		Name:        "oracle",
		Usage:       "oracle:P",
		Description: fmt.Sprintf("big-float oracle at P bits (%d <= P <= %d), correctly rounded, exact expm_p63", MinPrec, MaxPrec),
		New:         func(arg string) (arith.Backend, error) { return newBackend(arg, false) },
	})
	arith.RegisterFamily(arith.Family{
		Name:  "vprec",
		Usage: fmt.Sprintf("vprec:P (%d <= P <= %d)", MinVPrec, MaxVPrec),
		Description: "virtual precision: every result rounded to a P-bit significand, unbounded exponent range (no overflow, underflow or subnormals); " +
			"computed without big.Float by package arith/vfloat for P <= 113 (every result bit for bit that of vprecbig, the big.Float code)",
		New: newVPrecBackend,
		Forms: []arith.FamilyForm{
			{
				Usage: fmt.Sprintf("vprec:P:eE (%d <= E <= %d)", MinExpBits, MaxExpBits),
				Description: "binary format with a P-bit significand and E exponent bits (IEEE range, emax = 2^(E-1)-1, emin = 1-emax; vprec:53:e11 is binary64), " +
					"round to nearest even; results below 2^emin flush to a signed zero as the reference's emulation does (no subnormals), overflow gives +-Inf; " +
					"expm_p63 is the reference's polynomial evaluated in this arithmetic",
			},
			{Usage: "vprec:P:eE:rz", Description: "vprec:P:eE rounding every result toward zero (truncation); overflow saturates to the largest finite value"},
			{
				Usage: "vprec:P:eE:sr=SEED", Description: "vprec:P:eE with stochastic rounding (Monte Carlo arithmetic, as Verificarlo's MCA/SR): each result rounds up with probability equal to its distance from the value below, " +
					"decided by a hash of SEED, the operation and its operands (reproducible, the same under any concurrency); :sr is seed 0",
			},
		},
	})
	arith.RegisterFamily(arith.Family{
		Name:  "vprecbig",
		Usage: "vprecbig:P[:eE[:rz|:sr=SEED]]",
		Description: "the big.Float reference implementation of the vprec formats (same names after the colon, same results bit for bit, " +
			"much slower): what the faster implementation that vprec names select is tested against",
		New: func(arg string) (arith.Backend, error) {
			b, err := newBackend(arg, true)
			if err != nil {
				return arith.Backend{}, err
			}
			b.Name = "vprecbig" + strings.TrimPrefix(b.Name, "vprec")
			return b, nil
		},
	})
}

// fastVPrec holds the faster implementation of the vprec formats, when a
// package has installed one with SetFastVPrec.
var fastVPrec atomic.Pointer[func(Arith) (any, bool)]

// SetFastVPrec installs f as the implementation that the "vprec" family's
// names select: f returns an arith.Arith that computes exactly what a
// computes (every result bit for bit), or false where it has none, and
// then a itself is used. Package arith/vfloat installs its implementation
// in its init function; "vprecbig" names always select this package's.
func SetFastVPrec(f func(a Arith) (impl any, ok bool)) { fastVPrec.Store(&f) }

// newVPrecBackend is the "vprec" family's constructor: the big.Float
// arithmetic, or the installed faster one computing the same values.
func newVPrecBackend(arg string) (arith.Backend, error) {
	b, err := newBackend(arg, true)
	if err != nil {
		return arith.Backend{}, err
	}
	if f := fastVPrec.Load(); f != nil {
		if impl, ok := (*f)(b.Impl.(Arith)); ok {
			b.Impl = impl
		}
	}
	return b, nil
}

// newBackend parses the P of "oracle:P" or "vprec:P" and builds the backend.
func newBackend(arg string, virtual bool) (arith.Backend, error) {
	family, lo, hi := "oracle", MinPrec, MaxPrec
	if virtual {
		family, lo, hi = "vprec", MinVPrec, MaxVPrec
	}
	if arg == "" {
		return arith.Backend{}, fmt.Errorf("missing precision: write %s:P with %d <= P <= %d", family, lo, hi)
	}
	var fields []string
	if virtual {
		arg, fields = splitFormat(arg)
	} else if strings.Contains(arg, ":") {
		return arith.Backend{}, fmt.Errorf("%q: write oracle:P with an integer P", arg)
	}
	p, err := strconv.Atoi(arg)
	if err != nil || p < lo || p > hi {
		return arith.Backend{}, fmt.Errorf("precision %q: need an integer P with %d <= P <= %d", arg, lo, hi)
	}
	var a Arith
	var desc string
	if virtual && len(fields) > 0 {
		fm, err := parseFormat(uint(p), fields)
		if err != nil {
			return arith.Backend{}, err
		}
		a, _ = NewVirtual(uint(p))
		a.fm = fm
		return arith.Backend{Name: family + ":" + strconv.Itoa(p) + fm.suffix(), Bits: p, ExpBits: fm.expBits, Description: fm.describe(uint(p)), Impl: a}, nil
	}
	if virtual {
		a, err = NewVirtual(uint(p))
		desc = fmt.Sprintf("virtual precision: every result rounded to a %d-bit significand; exponent range unbounded", p)
	} else {
		a, err = New(uint(p))
		desc = fmt.Sprintf("big-float oracle: every operation correctly rounded at %d bits, exact expm_p63", p)
	}
	if err != nil {
		return arith.Backend{}, err
	}
	// The name is rebuilt from P, so "vprec:053" and "vprec:53" are one backend.
	return arith.Backend{Name: family + ":" + strconv.Itoa(p), Bits: p, Description: desc, Impl: a}, nil
}

// String returns the backend's registry name: "oracle", "oracle:P",
// "vprec:P" or the canonical "vprec:P:eE[:rz|:sr=SEED]".
func (a Arith) String() string {
	switch {
	case a.fm != nil:
		return "vprec:" + strconv.Itoa(int(a.prec)) + a.fm.suffix()
	case a.virtual:
		return "vprec:" + strconv.Itoa(int(a.prec))
	case a.prec == DefaultPrec:
		return "oracle"
	}
	return "oracle:" + strconv.Itoa(int(a.prec))
}

// splitFormat splits "P:eE:R" into P and the format fields.
func splitFormat(arg string) (string, []string) {
	f := strings.Split(arg, ":")
	return f[0], f[1:]
}

// NewFormat returns the vprec:P:eE arithmetic with rounding r (seed is
// used by RoundStochastic only); see the package documentation.
func NewFormat(prec uint, expBits int, r Rounding, seed uint64) (Arith, error) {
	a, err := NewVirtual(prec)
	if err != nil {
		return Arith{}, err
	}
	if expBits < MinExpBits || expBits > MaxExpBits {
		return Arith{}, fmt.Errorf("vprec: exponent width %d out of range %d..%d", expBits, MinExpBits, MaxExpBits)
	}
	if r < RoundNearestEven || r > RoundStochastic {
		return Arith{}, fmt.Errorf("vprec: unknown rounding %d", r)
	}
	a.fm = newFormat(prec, expBits, r, seed)
	return a, nil
}

// New returns the oracle at precision prec, MinPrec <= prec <= MaxPrec.
func New(prec uint) (Arith, error) {
	if prec < MinPrec || prec > MaxPrec {
		return Arith{}, fmt.Errorf("oracle: precision %d out of range %d..%d", prec, MinPrec, MaxPrec)
	}
	return Arith{prec: prec, tab: tableFor(prec)}, nil
}

// NewVirtual returns the virtual-precision arithmetic vprec:prec,
// MinVPrec <= prec <= MaxVPrec.
func NewVirtual(prec uint) (Arith, error) {
	if prec < MinVPrec || prec > MaxVPrec {
		return Arith{}, fmt.Errorf("vprec: precision %d out of range %d..%d", prec, MinVPrec, MaxVPrec)
	}
	return Arith{prec: prec, virtual: true, tab: tableFor(prec)}, nil
}

// table holds the constants and twiddle factors at one precision. Both are
// computed on first use (the twiddles take about 0.1 s at 256 bits) and are
// shared read-only by every Arith of that precision.
type table struct {
	prec      uint
	constOnce sync.Once
	consts    [arith.NumConstants]*big.Float
	gmOnce    sync.Once
	gm        [2048]*big.Float
	expmOnce  sync.Once
	expm      [13]*big.Float
}

var (
	tablesMu sync.Mutex
	tables   = map[uint]*table{}
)

func tableFor(prec uint) *table {
	tablesMu.Lock()
	defer tablesMu.Unlock()
	t, ok := tables[prec]
	if !ok {
		t = &table{prec: prec}
		tables[prec] = t
	}
	return t
}

func (t *table) constant(c arith.Constant) *big.Float {
	t.constOnce.Do(func() {
		for i := range t.consts {
			t.consts[i] = arith.Exact(arith.Constant(i), t.prec)
		}
	})
	return t.consts[c]
}

func (t *table) twiddle(k int) *big.Float {
	t.gmOnce.Do(func() {
		for i := range t.gm {
			t.gm[i] = arith.GMExact(i, t.prec)
		}
		// The reference's table stores the real part of the root at pi/2
		// (entry 2), an exact zero, as -0. Keep that sign so that vprec:53
		// follows binary64 down to the signs of zeros.
		t.gm[2] = new(big.Float).SetPrec(t.prec).Neg(t.gm[2])
	})
	return t.gm[k]
}
