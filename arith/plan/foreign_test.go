package plan

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
	"github.com/fprlab/fprlab/arith/vfloat"
)

// imports counts the test family's Import calls.
var imports atomic.Int64

// The test family "bigref:FORMAT" is a vprecbig format seen as a foreign
// arithmetic: its values are *big.Float whatever the plan carries, and
// they cross the stage boundary only as exact Parts, as a plugin's do.
// It computes what the vprec format of the same name computes (vprecbig
// and vprec agree bit for bit, as package vfloat tests), so a plan with a
// bigref stage must sign exactly as the plan with the vprec stage --
// without a C compiler.
func init() {
	RegisterForeign("bigref", "bigref:FORMAT", func(arg string) (*ForeignFormat, error) {
		b, err := arith.Lookup(arg)
		if err != nil {
			return nil, err
		}
		a, ok := b.Impl.(oracle.Arith)
		if !ok {
			return nil, errNotBig
		}
		b.Name = "bigref:" + arg
		return NewForeign(Foreign[*big.Float]{
			Backend: b,
			Arith:   a,
			Import: func(p Parts) *big.Float {
				imports.Add(1)
				x, err := bigCarrier{}.value(p)
				if err != nil {
					panic(err)
				}
				return a.Convert(x)
			},
			Export: func(x *big.Float) Parts {
				p, ok := bigCarrier{}.parts(x)
				if !ok {
					panic("wide value")
				}
				return p
			},
			Fail: func(err error) { panic(err) },
		}), nil
	})
}

type notBig struct{}

func (notBig) Error() string { return "not a vprecbig format" }

var errNotBig = notBig{}

// TestForeignRefused: a foreign format wider than the carrier its plan's
// vprec stages choose, or with an unbounded exponent, is refused naming
// both; on big.Float the wide one is carried.
func TestForeignRefused(t *testing.T) {
	for _, c := range []struct{ plan, want string }{
		{"ldl=bigref:vprecbig:200:e11,all=vprec:53", "stage ldl: stage format bigref:vprecbig:200:e11 has 200-bit significands, wider than the 128 bits of the plan's carrier vfloat.V"},
		{"ldl=bigref:vprecbig:53,all=vprec:53", "bigref:vprecbig:53 declares an unbounded exponent range (exponent_bits 0), beyond the plan's carrier vfloat.V"},
		{"ldl=bigref:native,all=vprec:53", "not a vprecbig format"},
		{"ldl=bigref:vprecbig:53:e11,ldl=vprec:40,all=vprec:53", "given twice"},
	} {
		if _, err := arith.Lookup("plan:" + c.plan); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.plan, err, c.want)
		}
	}
	b, err := arith.Lookup("plan:ldl=bigref:vprecbig:200:e11+all=vprecbig:53:e11")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := b.Impl.(arith.Arith[*big.Float]); !ok || b.Bits != 200 {
		t.Errorf("wide foreign stage over big.Float: %T, %d bits", b.Impl, b.Bits)
	}
	if b, err := arith.Lookup("plan:all=bigref:vprecbig:200:e11"); err != nil {
		t.Error(err)
	} else if _, ok := b.Impl.(arith.Arith[*big.Float]); !ok {
		t.Errorf("a plan of a wide foreign format alone runs on %T, want big.Float", b.Impl)
	}
}

// TestForeignRunMemory: a run's memory of converted values changes no
// result: random chains of operations (each result fed back, mixed with
// values from other formats) give the same values and decisions on the
// shared stage, which converts every operand, and on a run's copy, which
// converts far fewer.
func TestForeignRunMemory(t *testing.T) {
	b, err := arith.Lookup("plan:ldl=bigref:vprecbig:30:e11:rz+all=vprec:53:e11")
	if err != nil {
		t.Fatal(err)
	}
	p := b.Impl.(*Arith[vfloat.V, Format[vfloat.V]])
	shared := p.f[arith.PlanLDL]
	run := p.ForRun().(*Arith[vfloat.V, Format[vfloat.V]]).f[arith.PlanLDL]
	if run == shared {
		t.Fatal("ForRun shares the foreign stage")
	}
	wide, _ := vfloat.New(64)
	r := rand.New(rand.NewPCG(5, 6))
	count := func(s Format[vfloat.V], seed uint64) ([]vfloat.V, []int64, int64) {
		imports.Store(0)
		r := rand.New(rand.NewPCG(seed, 7))
		x := []vfloat.V{s.Of(3), s.Const(arith.InvQ), wide.FromFloat64(1.0 / 3)}
		var dec []int64
		for range 4000 {
			a, c := x[r.IntN(len(x))], x[r.IntN(len(x))]
			var y vfloat.V
			switch r.IntN(6) {
			case 0:
				y = s.Add(s.Convert(a), s.Convert(c))
			case 1:
				y = s.Mul(a, c)
			case 2:
				y = s.Sub(a, s.Half(c))
			case 3:
				y = s.Sqrt(s.Sqr(a))
			case 4:
				y = wide.Mul(a, wide.FromFloat64(r.Float64())) // from another format
			default:
				y = s.Inv(s.Convert(c))
			}
			dec = append(dec, s.Rint(y), s.Floor(y), s.Trunc(y))
			if s.Lt(y, a) {
				dec = append(dec, 1)
			}
			if !y.IsInf() && !y.IsZero() {
				x = append(x, y)
			}
		}
		return x, dec, imports.Load()
	}
	seed := r.Uint64()
	xs, ds, ns := count(shared, seed)
	xr, dr, nr := count(run, seed)
	if len(xs) != len(xr) || len(ds) != len(dr) {
		t.Fatalf("lengths differ: %d/%d values, %d/%d decisions", len(xs), len(xr), len(ds), len(dr))
	}
	for i := range xs {
		if xs[i] != xr[i] {
			t.Fatalf("value %d: %v shared, %v with the run's memory", i, xs[i], xr[i])
		}
	}
	for i := range ds {
		if ds[i] != dr[i] {
			t.Fatalf("decision %d differs", i)
		}
	}
	if nr*3 > ns {
		t.Errorf("the run's copy converted %d operands, the shared stage %d: want at most a third", nr, ns)
	}
}

// TestEscapeArg: every string survives escaping, and its escaped form has
// none of the plan's separators or spaces; a '%' that escapes nothing is
// refused.
func TestEscapeArg(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := "ab/.@=:+, %\t\x00\x7f\xc3\xa9Z9"
	for range 2000 {
		var s strings.Builder
		for range r.IntN(20) {
			s.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
		e := escapeArg(s.String())
		if strings.ContainsAny(e, "+, \t\x00\x7f") {
			t.Fatalf("%q escapes to %q", s.String(), e)
		}
		if got, err := unescapeArg(e); err != nil || got != s.String() {
			t.Fatalf("%q -> %q -> %q, %v", s.String(), e, got, err)
		}
	}
	if got, err := unescapeArg("a%2b%2C%25%41"); err != nil || got != "a+,%A" {
		t.Errorf("unescape: %q, %v", got, err)
	}
	for _, bad := range []string{"%", "x%4", "%zz", "100%.so"} {
		if _, err := unescapeArg(bad); err == nil || !strings.Contains(err.Error(), "not followed by two hex digits") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestCarriersExact: both carriers hold every value they accept exactly:
// a value's Parts are its shortest (odd) significand, and return to the
// same value; the V carrier's Parts of a value equal big.Float's of the
// same number; numbers beyond a carrier are refused.
func TestCarriersExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	vc, bc := vCarrier{}, bigCarrier{}
	for i := range 20000 {
		hi, lo := r.Uint64(), r.Uint64()
		switch i % 4 {
		case 1:
			lo = 0
		case 2:
			hi, lo = 0, lo>>r.IntN(64)
		case 3:
			lo &^= 1<<r.IntN(64) - 1
		}
		v, ok := vfloat.Exact(i%2 == 1, hi, lo, int64(r.IntN(4000)-2000))
		if !ok {
			t.Fatal("in range, refused")
		}
		p, _ := vc.parts(v)
		if p.Kind != PartsZero && p.M[0]&1 == 0 {
			t.Fatalf("%v: parts %+v not shortest", v, p)
		}
		if back, err := vc.value(p); err != nil || back != v {
			t.Fatalf("%v -> %+v -> %v, %v", v, p, back, err)
		}
		bp, ok := bc.parts(vExport.Big(v))
		if !ok || bp != p {
			t.Fatalf("%v: V parts %+v, big.Float parts %+v", v, p, bp)
		}
		x, err := bc.value(p)
		if err != nil || x.Cmp(vExport.Big(v)) != 0 || x.Signbit() != v.Signbit() {
			t.Fatalf("%v: big.Float value %v, %v", v, x, err)
		}
	}
	wide := Parts{Kind: PartsFinite, M: [4]uint64{1, 0, 1}} // 129 bits
	if _, err := vc.value(wide); err == nil || !strings.Contains(err.Error(), "129-bit significand lies outside the plan's carrier vfloat.V") {
		t.Errorf("129 bits on V: %v", err)
	}
	if x, err := bc.value(wide); err != nil || x.MinPrec() != 129 {
		t.Errorf("129 bits on big.Float: %v, %v", x, err)
	}
	far := Parts{Kind: PartsFinite, M: [4]uint64{1}, Exp: 1 << 40}
	if _, err := vc.value(far); err == nil || !strings.Contains(err.Error(), "2^1099511627776") {
		t.Errorf("2^(2^40) on V: %v", err)
	}
	if _, err := bc.value(far); err == nil {
		t.Error("2^(2^40) on big.Float accepted")
	}
	for _, p := range []Parts{{Kind: PartsZero, Neg: true}, {Kind: PartsInf}, {Kind: PartsInf, Neg: true}} {
		v, _ := vc.value(p)
		x, _ := bc.value(p)
		if q, _ := vc.parts(v); q != p {
			t.Errorf("%+v on V: %+v", p, q)
		}
		if q, _ := bc.parts(x); q != p {
			t.Errorf("%+v on big.Float: %+v", p, q)
		}
	}
	if v, _ := vc.value(Parts{Kind: PartsNaN}); !v.IsInf() || v.Signbit() {
		t.Error("NaN does not become +Inf on V")
	}
}

// TestForeignValueOutsideCarrier: a foreign format that exports a value
// its declaration promised not to have (here: 3 + 2^-128 for 3)
// stops the operation through Fail, naming the format and the carrier,
// instead of rounding it into the plan.
func TestForeignValueOutsideCarrier(t *testing.T) {
	b, err := arith.Lookup("vprecbig:53:e11")
	if err != nil {
		t.Fatal(err)
	}
	a := b.Impl.(oracle.Arith)
	b.Name = "liar"
	var failed error
	f := NewForeign(Foreign[*big.Float]{
		Backend: b,
		Arith:   a,
		Import: func(p Parts) *big.Float {
			x, _ := bigCarrier{}.value(p)
			return a.Convert(x)
		},
		Export: func(x *big.Float) Parts {
			p, _ := bigCarrier{}.parts(x)
			if x.Cmp(big.NewFloat(3)) == 0 {
				p.M, p.Exp = [4]uint64{1, 0, 3}, -128 // 3 + 2^-128: 130 significant bits
			}
			return p
		},
		Fail: func(err error) { failed = err },
	})
	s, err := f.overV()
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Add(s.Of(1), s.Of(2)); !got.IsZero() {
		t.Errorf("the failed operation returned %v, want the zero", got)
	}
	if failed == nil || !strings.Contains(failed.Error(), "stage format liar: a value 1.x * 2^1 with a 130-bit significand lies outside the plan's carrier vfloat.V") {
		t.Errorf("Fail got %v", failed)
	}
}
