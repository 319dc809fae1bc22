package vfloat

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// Every operation is compared with the big.Float reference (package
// oracle) on the same operands: results must be the same number with the
// same sign, class and precision.

var testPrecs = []uint{11, 24, 25, 26, 27, 40, 52, 53, 54, 60, 64, 80, 100, 106, 107, 113}

// testFormat is one format under test: the fast arithmetic and its
// reference.
type testFormat struct {
	name string
	a    Arith
	ref  oracle.Arith
	emin int // smallest normal exponent of a bounded format (value in [2^e, 2^(e+1)))
	emax int
	// bounded reports an exponent range.
	bounded bool
}

// testFormats lists the formats of the tests: every precision with the
// unbounded exponent and with 5, 8, 11 and 15 exponent bits in each
// rounding; short mode keeps a sample.
func testFormats(t *testing.T) []testFormat {
	var out []testFormat
	for i, p := range testPrecs {
		names := []string{fmt.Sprintf("vprec:%d", p)}
		for _, e := range []int{5, 8, 11, 15} {
			for _, r := range []string{"rn", "rz", "sr=7"} {
				names = append(names, fmt.Sprintf("vprec:%d:e%d:%s", p, e, r))
			}
		}
		for j, n := range names {
			if testing.Short() && (i+j)%4 != 0 {
				continue
			}
			ref, err := refFor(n)
			if err != nil {
				t.Fatal(err)
			}
			a, err := FromOracle(ref)
			if err != nil {
				t.Fatal(err)
			}
			f := testFormat{name: n, a: a, ref: ref}
			if e, _, _, ok := ref.Format(); ok {
				f.bounded = true
				f.emax = 1<<(e-1) - 1
				f.emin = 1 - f.emax
			}
			out = append(out, f)
		}
	}
	return out
}

// refFor returns the reference arithmetic of a vprec name.
func refFor(name string) (oracle.Arith, error) {
	b, err := arith.Lookup("vprecbig" + name[len("vprec"):])
	if err != nil {
		return oracle.Arith{}, err
	}
	return b.Impl.(oracle.Arith), nil
}

// samplesPerFormat spreads n samples of an operation over the formats.
func samplesPerFormat(n, formats int) int {
	if testing.Short() {
		n /= 20
	}
	return max(n/formats, 200)
}

// gen draws operands as big.Float values of a format (at most P bits,
// inside its range or at its edges, zeros and infinities of both signs),
// built without the code under test.
type gen struct {
	r *rand.Rand
	f testFormat
}

// significand returns an integer in [2^(P-1), 2^P): random bits, or a
// pattern near rounding boundaries (runs of ones or zeros at the end, near
// powers of two).
func (g gen) significand() *big.Int {
	p := int(g.f.a.prec)
	one := big.NewInt(1)
	top := new(big.Int).Lsh(one, uint(p-1))
	m := new(big.Int)
	switch g.r.IntN(6) {
	case 0: // 2^(P-1) + small
		m.Add(top, big.NewInt(int64(g.r.IntN(4))))
	case 1: // 2^P - 1 - small
		m.Lsh(one, uint(p))
		m.Sub(m, big.NewInt(int64(1+g.r.IntN(4))))
	case 2: // random high part, then a run of ones or zeros
		k := g.r.IntN(p)
		g.randBits(m, p-1)
		m.Rsh(m, uint(k))
		m.Lsh(m, uint(k))
		if g.r.IntN(2) == 0 {
			m.Add(m, new(big.Int).Sub(new(big.Int).Lsh(one, uint(k)), one))
		}
		m.Or(m, top)
	default:
		g.randBits(m, p-1)
		m.Or(m, top)
	}
	return m
}

// randBits sets m to a uniform n-bit integer.
func (g gen) randBits(m *big.Int, n int) {
	m.SetUint64(0)
	for k := 0; k < n; k += 64 {
		m.Lsh(m, 64)
		m.Or(m, new(big.Int).SetUint64(g.r.Uint64()))
	}
	m.Rsh(m, uint((n+63)/64*64-n))
}

// exponent returns e for a value in [2^e, 2^(e+1)): near the format's
// range limits, near 0, or (unbounded formats) far beyond binary64's.
func (g gen) exponent() int {
	if g.f.bounded {
		switch g.r.IntN(4) {
		case 0:
			return g.f.emin + g.r.IntN(3) - 1 // -1: a value below the range, as a wider format may give
		case 1:
			return g.f.emax - g.r.IntN(3) + 1
		case 2:
			return g.f.emin/2 + g.r.IntN(5) - 2
		}
		return g.f.emin + g.r.IntN(g.f.emax-g.f.emin+1)
	}
	switch g.r.IntN(4) {
	case 0:
		return g.r.IntN(4000) - 2000
	case 1:
		return g.r.IntN(2200) - 1100
	}
	return g.r.IntN(80) - 40
}

// value returns a value with the given exponent; the P-bit significand is
// random or a pattern. A bounded format's value below its range is kept
// (an operand from elsewhere); values above it become infinities.
func (g gen) valueAt(e int) *big.Float {
	p := g.f.a.prec
	x := new(big.Float).SetPrec(p).SetInt(g.significand())
	x.SetMantExp(x, e+1-int(p))
	if g.r.IntN(2) == 0 {
		x.Neg(x)
	}
	if g.f.bounded && e > g.f.emax {
		x.SetInf(x.Signbit())
	}
	return x
}

// value returns an operand: mostly finite, sometimes a zero or an infinity.
func (g gen) value() *big.Float {
	switch g.r.IntN(40) {
	case 0:
		return new(big.Float).SetPrec(g.f.a.prec)
	case 1:
		return new(big.Float).SetPrec(g.f.a.prec).Neg(new(big.Float))
	case 2:
		return new(big.Float).SetPrec(g.f.a.prec).SetInf(g.r.IntN(2) == 0)
	}
	return g.valueAt(g.exponent())
}

// pair returns two operands whose exponents differ by a drawn amount:
// cancellation, the sticky paths of alignment, or anything.
func (g gen) pair() (*big.Float, *big.Float) {
	x := g.value()
	if x.IsInf() || x.Sign() == 0 || g.r.IntN(8) == 0 {
		return x, g.value()
	}
	e := x.MantExp(nil) - 1
	var d int
	switch g.r.IntN(3) {
	case 0:
		d = g.r.IntN(5) - 2
	case 1:
		d = int(g.f.a.prec) + g.r.IntN(8) - 4
	default:
		d = g.r.IntN(260) - 130
	}
	return x, g.valueAt(e - d)
}

// check fails unless got (fast) is want (reference) exactly, at the same
// precision.
func check(t *testing.T, f testFormat, what string, got V, want *big.Float) bool {
	t.Helper()
	return checkValue(t, f, what, got, want, true)
}

// checkValue is check, comparing precisions only if withPrec.
func checkValue(t *testing.T, f testFormat, what string, got V, want *big.Float, withPrec bool) bool {
	t.Helper()
	gb := f.a.Big(got)
	if gb.IsInf() != want.IsInf() || gb.Signbit() != want.Signbit() || gb.Cmp(want) != 0 || (withPrec && gb.Prec() != want.Prec()) {
		t.Errorf("%s %s: got %s (prec %d), want %s (prec %d)", f.name, what, gb.Text('p', 0), gb.Prec(), want.Text('p', 0), want.Prec())
		return false
	}
	return true
}

func fromRef(x *big.Float) V { return fromBig(x) }

func TestConversionRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, f := range testFormats(t) {
		g := gen{r, f}
		for range samplesPerFormat(200_000, 70) {
			x := g.value()
			if !check(t, f, "round trip "+x.Text('p', 0), fromRef(x), new(big.Float).Copy(x)) {
				return
			}
		}
	}
}

// binaryOps are the two-operand operations with their reference.
var binaryOps = []struct {
	name string
	fast func(a Arith, x, y V) V
	ref  func(a oracle.Arith, x, y *big.Float) *big.Float
}{
	{"add", Arith.Add, oracle.Arith.Add},
	{"sub", Arith.Sub, oracle.Arith.Sub},
	{"mul", Arith.Mul, oracle.Arith.Mul},
	{"div", Arith.Div, oracle.Arith.Div},
}

func TestBinaryOps(t *testing.T) {
	fs := testFormats(t)
	for _, op := range binaryOps {
		t.Run(op.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(3, uint64(len(op.name))))
			total := 0
			defer func() { t.Logf("%s: %d operand pairs over %d formats", op.name, total, len(fs)) }()
			for _, f := range fs {
				g := gen{r, f}
				n := samplesPerFormat(1_250_000, len(fs)) // >= 1,000,000 in all without -short
				if f.a.sr {
					n /= 4 // through the reference
				}
				total += n
				for range n {
					x, y := g.pair()
					if r.IntN(2) == 0 {
						x, y = y, x
					}
					want := op.ref(f.ref, x, y)
					if !check(t, f, fmt.Sprintf("%s(%s, %s)", op.name, x.Text('p', 0), y.Text('p', 0)), op.fast(f.a, fromRef(x), fromRef(y)), want) {
						return
					}
				}
			}
		})
	}
}

// unaryOps are the one-operand operations with their reference.
var unaryOps = []struct {
	name string
	fast func(a Arith, x V) V
	ref  func(a oracle.Arith, x *big.Float) *big.Float
}{
	{"sqr", Arith.Sqr, oracle.Arith.Sqr},
	{"inv", Arith.Inv, oracle.Arith.Inv},
	{"sqrt", Arith.Sqrt, oracle.Arith.Sqrt},
	{"neg", Arith.Neg, oracle.Arith.Neg},
	{"half", Arith.Half, oracle.Arith.Half},
	{"double", Arith.Double, oracle.Arith.Double},
	{"convert", Arith.Convert, oracle.Arith.Convert},
}

func TestUnaryOps(t *testing.T) {
	fs := testFormats(t)
	for _, op := range unaryOps {
		t.Run(op.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(5, uint64(len(op.name))))
			total := 0
			defer func() { t.Logf("%s: %d operands over %d formats", op.name, total, len(fs)) }()
			for _, f := range fs {
				g := gen{r, f}
				n := samplesPerFormat(1_250_000, len(fs))
				if f.a.sr || (op.name == "sqrt" && f.a.prec > 53) {
					n /= 4 // through the reference
				}
				total += n
				for range n {
					x := g.value()
					want := op.ref(f.ref, x)
					if !check(t, f, fmt.Sprintf("%s(%s)", op.name, x.Text('p', 0)), op.fast(f.a, fromRef(x)), want) {
						return
					}
				}
			}
		})
	}
}

// TestConvertFromWider converts values of a wider format (113 bits, any
// exponent) into each format: every rounding case of the conversion.
func TestConvertFromWider(t *testing.T) {
	fs := testFormats(t)
	r := rand.New(rand.NewPCG(7, 8))
	for _, f := range fs {
		wide := f
		w, err := New(MaxPrec)
		if err != nil {
			t.Fatal(err)
		}
		wide.a = w
		g := gen{r, wide}
		for range samplesPerFormat(1_000_000, len(fs)) {
			x := g.value()
			if !check(t, f, "convert "+x.Text('p', 0), f.a.Convert(fromRef(x)), f.ref.Convert(x)) {
				return
			}
			// Every operation accepts wider operands.
			y := g.value()
			if !check(t, f, "add wide "+x.Text('p', 0)+" "+y.Text('p', 0), f.a.Add(fromRef(x), fromRef(y)), f.ref.Add(x, y)) {
				return
			}
			if !check(t, f, "neg wide "+x.Text('p', 0), f.a.Neg(fromRef(x)), f.ref.Neg(x)) {
				return
			}
			// Half keeps a wider value's bits, as the reference's
			// (whose result then has the operand's precision).
			if !checkValue(t, f, "half wide "+x.Text('p', 0), f.a.Half(fromRef(x)), f.ref.Half(x), false) {
				return
			}
		}
	}
}

func TestIntConversions(t *testing.T) {
	fs := testFormats(t)
	r := rand.New(rand.NewPCG(9, 10))
	for _, f := range fs {
		for range samplesPerFormat(1_000_000, len(fs)) {
			var i int64
			switch r.IntN(5) {
			case 0:
				i = int64(r.Uint64())
			case 1:
				k := r.IntN(64)
				i = int64(uint64(1)<<k) + int64(r.IntN(7)) - 3
			case 2:
				i = []int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MinInt64 + 1}[r.IntN(6)]
			default:
				i = r.Int64N(1<<uint(r.IntN(62)+1)) - 1<<uint(r.IntN(62))
			}
			if !check(t, f, fmt.Sprintf("Of(%d)", i), f.a.Of(i), f.ref.Of(i)) {
				return
			}
			e := r.IntN(80) - 40
			switch r.IntN(3) {
			case 0:
				if f.bounded {
					e = f.emin - 64 + r.IntN(70)
				} else {
					e = r.IntN(4000) - 2000
				}
			case 1:
				if f.bounded {
					e = f.emax - 64 + r.IntN(70)
				}
			}
			if !check(t, f, fmt.Sprintf("Scaled(%d, %d)", i, e), f.a.Scaled(i, e), f.ref.Scaled(i, e)) {
				return
			}
			var x float64
			switch r.IntN(3) {
			case 0:
				x = math.Float64frombits(r.Uint64())
			case 1:
				x = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64}[r.IntN(8)]
			default:
				x = math.Ldexp(r.Float64()+0.5, r.IntN(80)-40)
			}
			if !check(t, f, fmt.Sprintf("FromFloat64(%v)", x), f.a.FromFloat64(x), f.ref.FromFloat64(x)) {
				return
			}
		}
	}
}

// TestRounding checks Rint, Floor, Trunc, Lt and Float64 on values near
// half integers, near 2^63 and anywhere.
func TestRounding(t *testing.T) {
	fs := testFormats(t)
	r := rand.New(rand.NewPCG(11, 12))
	for _, f := range fs {
		g := gen{r, f}
		for range samplesPerFormat(1_000_000, len(fs)) {
			var x *big.Float
			switch r.IntN(4) {
			case 0: // k + {0, 1/4, 1/2, 3/4} +- one ulp
				k := r.Int64N(1 << uint(min(int(f.a.prec)-3, 62)))
				x = new(big.Float).SetPrec(f.a.prec).SetInt64(4*k + int64(r.IntN(4)))
				x.SetMantExp(x, -2)
				u := new(big.Float).SetMantExp(big.NewFloat(1), x.MantExp(nil)-int(f.a.prec))
				switch r.IntN(3) {
				case 0:
					x.Add(x, u)
				case 1:
					x.Sub(x, u)
				}
				if r.IntN(2) == 0 {
					x.Neg(x)
				}
				if f.bounded {
					x = f.ref.Convert(x)
				}
			case 1:
				x = g.valueAt(61 + r.IntN(4))
			default:
				x = g.value()
			}
			y := g.value()
			xv, yv := fromRef(x), fromRef(y)
			if got, want := f.a.Rint(xv), f.ref.Rint(x); got != want {
				t.Fatalf("%s Rint(%s) = %d, want %d", f.name, x.Text('p', 0), got, want)
			}
			if got, want := f.a.Floor(xv), f.ref.Floor(x); got != want {
				t.Fatalf("%s Floor(%s) = %d, want %d", f.name, x.Text('p', 0), got, want)
			}
			if got, want := f.a.Trunc(xv), f.ref.Trunc(x); got != want {
				t.Fatalf("%s Trunc(%s) = %d, want %d", f.name, x.Text('p', 0), got, want)
			}
			if got, want := f.a.Lt(xv, yv), f.ref.Lt(x, y); got != want {
				t.Fatalf("%s Lt(%s, %s) = %v, want %v", f.name, x.Text('p', 0), y.Text('p', 0), got, want)
			}
			if got, want := f.a.Lt(xv, xv), f.ref.Lt(x, x); got != want {
				t.Fatalf("%s Lt(%s, itself) = %v", f.name, x.Text('p', 0), got)
			}
			if got, want := f.a.Float64(xv), f.ref.Float64(x); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s Float64(%s) = %v, want %v", f.name, x.Text('p', 0), got, want)
			}
		}
	}
}

// TestTables: every constant and twiddle of every format.
func TestTables(t *testing.T) {
	for _, f := range testFormats(t) {
		for c := arith.Constant(-1); int(c) <= arith.NumConstants; c++ {
			if !check(t, f, fmt.Sprintf("Const(%d)", c), f.a.Const(c), f.ref.Const(c)) {
				return
			}
		}
		for k := -1; k <= 2048; k += 1 + 7*btoi(testing.Short()) {
			if !check(t, f, fmt.Sprintf("GM(%d)", k), f.a.GM(k), f.ref.GM(k)) {
				return
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// TestExpmP63 compares ExpmP63 on the sampler's domain (x in [0, ln 2),
// ccs in (0, 1]) and outside it.
func TestExpmP63(t *testing.T) {
	fs := testFormats(t)
	r := rand.New(rand.NewPCG(13, 14))
	for _, f := range fs {
		g := gen{r, f}
		n := samplesPerFormat(200_000, len(fs))
		if f.a.fm == nil {
			n /= 4 // the reference computes a correctly rounded exponential, slowly
		}
		for range n {
			var x, ccs *big.Float
			switch r.IntN(10) {
			case 0:
				x, ccs = g.value(), g.value()
			case 1, 2: // full P-bit operands in [0, 1), some tiny
				x = g.valueAt(-1 - r.IntN(3) - r.IntN(2)*r.IntN(200))
				x.Abs(x)
				ccs = g.valueAt(-1 - r.IntN(2))
				ccs.Abs(ccs)
				if f.bounded {
					x, ccs = f.ref.Convert(x), f.ref.Convert(ccs)
				}
			default:
				x = f.ref.FromFloat64(r.Float64() * math.Ln2)
				ccs = f.ref.FromFloat64(r.Float64())
				if r.IntN(20) == 0 {
					ccs = f.ref.Of(1)
				}
			}
			if got, want := f.a.ExpmP63(fromRef(x), fromRef(ccs)), f.ref.ExpmP63(x, ccs); got != want {
				t.Fatalf("%s ExpmP63(%s, %s) = %d, want %d", f.name, x.Text('p', 0), ccs.Text('p', 0), got, want)
			}
		}
	}
}

// TestFloat64Pair: where Float64Pair reports a split, hi is x rounded to
// binary64 and hi + lo is x exactly.
func TestFloat64Pair(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	split := 0
	for _, f := range testFormats(t) {
		g := gen{r, f}
		for range samplesPerFormat(200_000, 70) {
			x := g.value()
			hi, lo, ok := f.a.Float64Pair(fromRef(x))
			if !ok {
				continue
			}
			split++
			want, _ := x.Float64()
			sum := new(big.Float).SetPrec(200).SetFloat64(hi)
			sum.Add(sum, big.NewFloat(lo))
			if math.Float64bits(hi) != math.Float64bits(want) || sum.Cmp(x) != 0 || math.Abs(lo) > math.Abs(hi)*0x1p-53 {
				t.Fatalf("%s: Float64Pair(%s) = %v, %v", f.name, x.Text('p', 0), hi, lo)
			}
		}
	}
	if split == 0 {
		t.Fatal("no value split")
	}
}

// TestExpNeg compares the fixed-point exponential of plain vprec:P's
// ExpmP63 with the reference's correctly rounded one, and checks that it
// rarely needs the reference.
func TestExpNeg(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	for _, p := range testPrecs {
		f := testFormat{name: fmt.Sprintf("vprec:%d", p)}
		var err error
		if f.ref, err = refFor(f.name); err != nil {
			t.Fatal(err)
		}
		if f.a, err = FromOracle(f.ref); err != nil {
			t.Fatal(err)
		}
		g := gen{r, f}
		n, undecided := samplesPerFormat(400_000, len(testPrecs)), 0
		for range n {
			x := g.valueAt(-1 - r.IntN(4) - r.IntN(2)*r.IntN(140))
			x.Abs(x)
			e, ok := expNeg(fromRef(x), p)
			if !ok {
				undecided++
				continue
			}
			if !check(t, f, "exp(-"+x.Text('p', 0)+")", e, oracle.ExpRounded(new(big.Float).Neg(x), p)) {
				return
			}
		}
		if limit := n / 100; p <= 100 && undecided > limit {
			t.Errorf("P = %d: %d of %d undecided", p, undecided, n)
		}
	}
}

// TestSqrtAtBoundaries: square roots whose binary64 root s is itself a
// rounding boundary of the format (a P-midpoint, or a P-bit value), the
// case the residual decides; found by squaring boundaries and rounding
// the square into the format.
func TestSqrtAtBoundaries(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, name := range []string{"vprec:36", "vprec:40", "vprec:44:e11", "vprec:48:e11:rz", "vprec:50", "vprec:52:e11:rz", "vprec:53"} {
		ref, err := refFor(name)
		if err != nil {
			t.Fatal(err)
		}
		a, err := FromOracle(ref)
		if err != nil {
			t.Fatal(err)
		}
		f := testFormat{name: name, a: a, ref: ref}
		p := int(a.prec)
		found, tries := 0, 0
		for found < 40 && tries < 20_000_000 {
			tries++
			// b: a boundary with P+1 bits (a midpoint when its last bit is 1) in [1, 2).
			b := float64(uint64(1)<<p|r.Uint64()&(uint64(1)<<p-1)) / float64(uint64(1)<<p)
			x := f.ref.FromFloat64(b * b) // b*b rounded to 53 bits, then to P bits
			xf, _ := x.Float64()
			if math.Sqrt(xf) != b || math.FMA(-b, b, xf) == 0 {
				continue
			}
			found++
			if !check(t, f, "sqrt("+x.Text('p', 0)+")", f.a.Sqrt(fromRef(x)), f.ref.Sqrt(x)) {
				return
			}
		}
		if found < 40 && p >= 40 {
			t.Errorf("%s: %d boundary cases in %d tries", name, found, tries)
		}
	}
}
