package triword

import (
	"math"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestRegistered checks the four registered backends, their precision and
// the bounds they report, which must be those of Fabiano, Muller and Picot
// (IEEE TC 2019) in the form Thery and Rideau machine-checked (u = 2^-24;
// their proofs raise the reciprocal's and the quotient's u^4 terms).
func TestRegistered(t *testing.T) {
	u := math.Ldexp(1, -24)
	u3, u4 := u*u*u, u*u*u*u
	common := map[string]float64{
		"add": 2*u3 + 4.2*u4, "sub": 2*u3 + 4.2*u4,
		"inv": 11.5*u3 + 1830*u4, "div": 27*u3 + 2500*u4, "sqrt": 24*u3 + 10260*u4,
	}
	for _, c := range []struct {
		name     string
		accurate bool
		b64      bool
		mul      float64
	}{
		{"triword", false, false, 44*u3 + 176*u4},
		{"triword-acc", true, false, 28*u3 + 107*u4},
		{"triword-b64const", false, true, 44*u3 + 176*u4},
		{"triword-acc-b64const", true, true, 28*u3 + 107*u4},
	} {
		b, err := arith.Lookup(c.name)
		if err != nil {
			t.Fatal(err)
		}
		a, ok := b.Impl.(Arith)
		if !ok || a.Accurate != c.accurate || a.B64Const != c.b64 {
			t.Fatalf("%s: Impl = %#v", c.name, b.Impl)
		}
		if _, ok := b.Impl.(arith.Arith[TW]); !ok {
			t.Fatalf("%s does not implement arith.Arith[TW]", c.name)
		}
		if b.Bits != 72 || b.Description == "" {
			t.Errorf("%s: Bits %d, Description %q", c.name, b.Bits, b.Description)
		}
		eb, ok := b.Impl.(arith.ErrorBounds)
		if !ok {
			t.Fatalf("%s does not implement arith.ErrorBounds", c.name)
		}
		for _, op := range arith.OpNames {
			want, has := common[op]
			if op == "mul" || op == "sqr" {
				want, has = c.mul, true
			}
			got, ok := eb.RelErrBound(op)
			if ok != has || got != want {
				t.Errorf("%s: RelErrBound(%q) = %g, %v; want %g, %v", c.name, op, got, ok, want, has)
			}
		}
	}
}

// TestSpecialValues checks zeros and exact cases that random operands
// rarely produce.
func TestSpecialValues(t *testing.T) {
	for _, a := range []Arith{{}, {Accurate: true}} {
		zero, one, two, four := TW{}, a.Of(1), a.Of(2), a.Of(4)
		x := a.FromFloat64(math.Pi)
		eq := func(what string, got, want TW) {
			t.Helper()
			if bigTW(got).Cmp(bigTW(want)) != 0 {
				t.Errorf("Accurate=%v: %s = %v, want %v", a.Accurate, what, got, want)
			}
		}
		eq("0+0", a.Add(zero, zero), zero)
		eq("x-x", a.Sub(x, x), zero)
		eq("0*x", a.Mul(zero, x), zero)
		eq("x*1", a.Mul(x, one), x)
		eq("x*2", a.Mul(x, two), a.Double(x))
		eq("0/x", a.Div(zero, x), zero)
		eq("sqrt 0", a.Sqrt(zero), zero)
		// The Newton iterations need not be exact on exact cases; they
		// must be within their bounds.
		near := func(what, op string, rel float64) {
			t.Helper()
			if b, _ := a.RelErrBound(op); rel > b {
				t.Errorf("Accurate=%v: %s: rel. error %g > %g", a.Accurate, what, rel, b)
			}
		}
		rel, _ := relErrInv(one, zero, a.Inv(one))
		near("1/1", "inv", rel)
		rel, _ = relErrInv(two, zero, a.Inv(two))
		near("1/2", "inv", rel)
		rel, _ = relErrDiv(x, one, a.Div(x, one))
		near("x/1", "div", rel)
		rel, _ = relErrSqrt(four, zero, a.Sqrt(four))
		near("sqrt 4", "sqrt", rel)
		rel, _ = relErrSqrt(one, zero, a.Sqrt(one))
		near("sqrt 1", "sqrt", rel)
		if a.Lt(x, x) || !a.Lt(zero, x) || a.Lt(x, zero) {
			t.Errorf("Lt on 0 and pi is wrong")
		}
		if got := a.ExpmP63(zero, a.FromFloat64(0.5)); got != 1<<62 {
			t.Errorf("ExpmP63(0, 1/2) = %#x, want 2^62", got)
		}
	}
}

// TestLegacyName pins the meaning of the revision-1 names: each either
// maps to the backend whose arithmetic it named, or is refused.
func TestLegacyName(t *testing.T) {
	for old, want := range map[string]string{
		"triword": "triword-b64const", "triword-acc": "triword-acc-b64const",
		"native": "native", "emu64": "emu64", "dd": "dd", "vprec:53": "vprec:53",
	} {
		got, ok := arith.LegacyName(old)
		if !ok || got != want {
			t.Errorf("arith.LegacyName(%q) = %q, %v; want %q", old, got, ok, want)
		}
		if (arith.LegacyNameError(old) != nil) != arith.IsLegacyName(old) || arith.IsLegacyName(old) != (old != want) {
			t.Errorf("%q: IsLegacy %v, LegacyError %v", old, arith.IsLegacyName(old), arith.LegacyNameError(old))
		}
	}
	// The renamed backend is today's arithmetic of the old name.
	b, err := arith.Lookup("triword-b64const")
	if err != nil || b.Impl != (Arith{B64Const: true}) {
		t.Errorf("triword-b64const: %v, %v", b.Impl, err)
	}
	if cur, ok := arith.LegacyName("triword-fullconst"); ok || cur != "" {
		t.Errorf("arith.LegacyName(triword-fullconst) = %q, %v; want refused", cur, ok)
	}
	if err := arith.LegacyNameError("triword-fullconst"); err == nil || !strings.Contains(err.Error(), "no backend") {
		t.Errorf("arith.LegacyNameError(triword-fullconst) = %v", err)
	}
	if err := arith.LegacyNameError("triword"); err == nil || !strings.Contains(err.Error(), `now named "triword-b64const"`) {
		t.Errorf("arith.LegacyNameError(triword) = %v", err)
	}
}
