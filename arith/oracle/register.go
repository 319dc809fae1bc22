package oracle

import (
	"fmt"
	"math/big"
	"strconv"
	"sync"

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
		Name:        "vprec",
		Usage:       fmt.Sprintf("vprec:P (%d <= P <= %d)", MinVPrec, MaxVPrec),
		Description: "virtual precision: every result rounded to a P-bit significand, unbounded exponent range (no overflow, underflow or subnormals)",
		New:         func(arg string) (arith.Backend, error) { return newBackend(arg, true) },
	})
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
	p, err := strconv.Atoi(arg)
	if err != nil || p < lo || p > hi {
		return arith.Backend{}, fmt.Errorf("precision %q: need an integer P with %d <= P <= %d", arg, lo, hi)
	}
	var a Arith
	var desc string
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
}

var (
	bigfloatMu sync.Mutex // serialises calls into github.com/ALTree/bigfloat
	tablesMu   sync.Mutex
	tables     = map[uint]*table{}
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
		// arith.Ln2 calls bigfloat.Log, which reads and, above 1024
		// bits, rewrites a global cache of pi without locking.
		bigfloatMu.Lock()
		defer bigfloatMu.Unlock()
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
