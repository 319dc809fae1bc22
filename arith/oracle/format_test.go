package oracle

import (
	"crypto/sha256"
	"encoding/binary"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
)

func mustFormat(t testing.TB, name string) Arith {
	t.Helper()
	b, err := arith.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b.Impl.(Arith)
}

// TestFormatNames checks the canonical names of the vprec:P:eE forms and
// that malformed names are refused with an error naming the field.
func TestFormatNames(t *testing.T) {
	for in, want := range map[string]string{
		"vprec:53:e11":       "vprec:53:e11",
		"vprec:053:e011:rn":  "vprec:53:e11",
		"vprec:24:e8:rz":     "vprec:24:e8:rz",
		"vprec:24:e8:sr":     "vprec:24:e8:sr=0",
		"vprec:24:e8:sr=007": "vprec:24:e8:sr=7",
		"vprec:24":           "vprec:24",
	} {
		b, err := arith.Lookup(in)
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if b.Name != want || b.Impl.(Arith).String() != want {
			t.Errorf("%s: named %q (String %q), want %q", in, b.Name, b.Impl.(Arith).String(), want)
		}
	}
	for in, wantErr := range map[string]string{
		"vprec:24:8":         "exponent width",
		"vprec:24:e1":        "exponent width",
		"vprec:24:e25":       "exponent width",
		"vprec:24:e8:rx":     "rounding",
		"vprec:24:e8:sr=-1":  "seed",
		"vprec:24:e8:rz:x":   "fields",
		"vprec:10:e8":        "precision",
		"oracle:64:e8":       "oracle:P",
		"vprec:24:e8:sr=1e3": "seed",
	} {
		_, err := arith.Lookup(in)
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %v, want one mentioning %q", in, err, wantErr)
		}
	}
}

// TestNewFormatNames: NewFormat builds the backend its name denotes.
func TestNewFormatNames(t *testing.T) {
	for _, c := range []struct {
		rounding string
		want     string
	}{{"rn", "vprec:40:e8"}, {"rz", "vprec:40:e8:rz"}, {"sr=9", "vprec:40:e8:sr=9"}} {
		r, seed, err := ParseRounding(c.rounding)
		if err != nil {
			t.Fatal(err)
		}
		a, err := NewFormat(40, 8, r, seed)
		if err != nil {
			t.Fatal(err)
		}
		if a.String() != c.want {
			t.Errorf("%s: %s, want %s", c.rounding, a.String(), c.want)
		}
		if b, err := arith.Lookup(c.want); err != nil || b.Impl.(Arith).String() != c.want {
			t.Errorf("%s: lookup %v", c.want, err)
		}
	}
	if _, _, err := ParseRounding("up"); err == nil {
		t.Error("rounding up accepted")
	}
	if _, err := NewFormat(40, 1, RoundNearestEven, 0); err == nil {
		t.Error("E = 1 accepted")
	}
}

// TestFormatsListed checks that the registry lists every form of vprec,
// so that 'fprlab backends' shows them.
func TestFormatsListed(t *testing.T) {
	var usages []string
	for _, f := range arith.Families() {
		usages = append(usages, f.Usage)
	}
	all := strings.Join(usages, "\n")
	for _, u := range []string{"vprec:P (", "vprec:P:eE (", "vprec:P:eE:rz", "vprec:P:eE:sr=SEED"} {
		if !strings.Contains(all, u) {
			t.Errorf("no family form %q in %q", u, all)
		}
	}
}

// TestBinary64FormatMatchesNative: vprec:53:e11 rounds as hardware binary64
// in the normal range, and its expm_p63 (the reference's polynomial in the
// format's arithmetic) equals the native backend's double Horner bit for
// bit.
func TestBinary64FormatMatchesNative(t *testing.T) {
	v := mustFormat(t, "vprec:53:e11")
	matchesNative(t, v, 31)
	n := 100000
	if testing.Short() {
		n = 5000
	}
	rng := rand.New(rand.NewPCG(33, 34))
	hv, hn := sha256.New(), sha256.New()
	for i := 0; i < n; i++ {
		x, ccs := rng.Float64()*math.Ln2, rng.Float64()
		got, want := v.ExpmP63(v.FromFloat64(x), v.FromFloat64(ccs)), native.ExpmP63(x, ccs)
		hv.Write(binary.LittleEndian.AppendUint64(nil, got))
		hn.Write(binary.LittleEndian.AppendUint64(nil, want))
		if got != want {
			t.Fatalf("ExpmP63(%v, %v): vprec:53:e11 %#x, native %#x", x, ccs, got, want)
		}
	}
	if string(hv.Sum(nil)) != string(hn.Sum(nil)) {
		t.Fatal("ExpmP63 digests differ")
	}
}

// TestBinary64FormatRange checks the exponent range of vprec:53:e11
// against the reference's emulated binary64 (emu64), which flushes results
// below 2^-1022 to a signed zero, even those IEEE would round up to
// 2^-1022, and against hardware binary64 for overflow to infinity.
func TestBinary64FormatRange(t *testing.T) {
	v := mustFormat(t, "vprec:53:e11")
	var e emu64.Arith
	rng := rand.New(rand.NewPCG(35, 36))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	flushed := 0
	for i := 0; i < n; i++ {
		// Products and quotients around 2^-1022: exponents summing to
		// -1023..-1020, some results flushed, some normal.
		ex := rng.IntN(200) - 600
		x := randNormal(rng, ex, ex)
		y := randNormal(rng, -1022-ex-2, -1022-ex+1)
		q := randNormal(rng, 1022+ex-1, 1022+ex+2)
		got := v.Float64(v.Mul(v.FromFloat64(x), v.FromFloat64(y)))
		if want := uint64(e.Mul(e.FromFloat64(x), e.FromFloat64(y))); math.Float64bits(got) != want {
			t.Fatalf("mul(%v, %v): vprec:53:e11 %v (%#x), emu64 %#x", x, y, got, math.Float64bits(got), want)
		}
		// Division (emu64 has only Inv then Mul): hardware binary64
		// where the exact quotient is normal, a signed zero below.
		got2 := v.Float64(v.Div(v.FromFloat64(x), v.FromFloat64(q)))
		want2 := x / q
		if exact := new(big.Float).SetPrec(200).Quo(big.NewFloat(x), big.NewFloat(q)); exact.MantExp(nil)-1 < -1022 {
			want2 = math.Copysign(0, want2)
		}
		if math.Float64bits(got2) != math.Float64bits(want2) {
			t.Fatalf("div(%v, %v): vprec:53:e11 %v, want %v", x, q, got2, want2)
		}
		for _, r := range []float64{got, got2} {
			if r == 0 {
				flushed++
			}
		}
	}
	if flushed == 0 || flushed == 2*n {
		t.Fatalf("%d of %d results flushed: the test does not reach the boundary", flushed, 2*n)
	}
	// The exact product 2^-1022 (1 - 2^-60) rounds to 2^-1022 at 53 bits
	// but is below the smallest normal: flushed, as emu64 does.
	x, y := 1-0x1p-30, 0x1p-1022*(1+0x1p-30)
	got := v.Float64(v.Mul(v.FromFloat64(x), v.FromFloat64(y)))
	if want := math.Float64frombits(uint64(e.Mul(e.FromFloat64(x), e.FromFloat64(y)))); got != want || got != 0 {
		t.Errorf("(1-2^-30) * 2^-1022 (1+2^-30): %v, emu64 %v, want 0", got, want)
	}
	// Overflow: to +-Inf as binary64.
	for _, xy := range [][2]float64{{0x1p1000, 0x1p30}, {-0x1.fp1023, 2}, {math.MaxFloat64, 1 + 0x1p-52}} {
		got := v.Float64(v.Mul(v.FromFloat64(xy[0]), v.FromFloat64(xy[1])))
		if want := xy[0] * xy[1]; got != want || !math.IsInf(got, 0) {
			t.Errorf("%v * %v: %v, binary64 %v", xy[0], xy[1], got, want)
		}
	}
	if got := v.Float64(v.Double(v.FromFloat64(math.MaxFloat64))); !math.IsInf(got, 1) {
		t.Errorf("Double(MaxFloat64) = %v, want +Inf", got)
	}
	if got := v.Float64(v.Half(v.FromFloat64(-0x1p-1022))); got != 0 || !math.Signbit(got) {
		t.Errorf("Half(-2^-1022) = %v, want -0", got)
	}
	if got := v.Float64(v.FromFloat64(0x1p-1070)); got != 0 {
		t.Errorf("FromFloat64(subnormal) = %v, want 0", got)
	}
}

// trunc24 truncates a normal binary64 value to a 24-bit significand
// (clears the 29 low significand bits): rounding toward zero, computed
// without big.Float.
func trunc24(x float64) float64 {
	return math.Float64frombits(math.Float64bits(x) &^ (1<<29 - 1))
}

// TestTowardZeroMatchesTruncation checks vprec:24:e8:rz against an
// independent computation: the binary64 result truncated to 24 bits. For
// add, sub and mul of 24-bit operands less than 29 binades apart the
// binary64 result is exact; for div and sqrt binary64's rounding cannot
// cross a 24-bit boundary (an exact quotient or root of 24-bit numbers is
// either a 24-bit number or at least 2^-49 relative from every one), so
// truncating it truncates the exact value.
func TestTowardZeroMatchesTruncation(t *testing.T) {
	v := mustFormat(t, "vprec:24:e8:rz")
	f32 := func(x float64) float64 { return float64(float32(x)) }
	rng := rand.New(rand.NewPCG(37, 38))
	n := 100000
	if testing.Short() {
		n = 5000
	}
	inexact := 0
	for i := 0; i < n; i++ {
		x := f32(randNormal(rng, -40, 40))
		y := f32(randNormal(rng, math.Ilogb(x)-20, math.Ilogb(x)+20))
		bx, by := v.FromFloat64(x), v.FromFloat64(y)
		ax := math.Abs(x)
		for _, c := range []struct {
			op        string
			got, want float64
		}{
			{"add", v.Float64(v.Add(bx, by)), trunc24(x + y)},
			{"sub", v.Float64(v.Sub(bx, by)), trunc24(x - y)},
			{"mul", v.Float64(v.Mul(bx, by)), trunc24(x * y)},
			{"sqr", v.Float64(v.Sqr(bx)), trunc24(x * x)},
			{"div", v.Float64(v.Div(bx, by)), trunc24(x / y)},
			{"inv", v.Float64(v.Inv(by)), trunc24(1 / y)},
			{"sqrt", v.Float64(v.Sqrt(v.FromFloat64(ax))), trunc24(math.Sqrt(ax))},
		} {
			if math.Float64bits(c.got) != math.Float64bits(c.want) {
				t.Fatalf("%s(%v, %v): vprec:24:e8:rz %v, truncated binary64 %v", c.op, x, y, c.got, c.want)
			}
			if c.op == "mul" && c.want != x*y {
				inexact++
			}
		}
	}
	if inexact < n/2 {
		t.Fatalf("only %d of %d products inexact", inexact, n)
	}
	// Rounding toward zero never overflows to infinity (IEEE 754 7.4).
	if got := v.Float64(v.Mul(v.FromFloat64(0x1p100), v.FromFloat64(0x1p100))); got != math.MaxFloat32 {
		t.Errorf("2^100 * 2^100: %v, want the largest finite %v", got, math.MaxFloat32)
	}
	if got := v.Float64(v.Mul(v.FromFloat64(-0x1p100), v.FromFloat64(0x1p100))); got != -math.MaxFloat32 {
		t.Errorf("-2^100 * 2^100: %v, want %v", got, -math.MaxFloat32)
	}
}

// TestStochasticUnbiased checks stochastic rounding: every result is one
// of the two 24-bit neighbours of the exact value; over many seeds the
// mean of x/3 approaches the exact value and the frequency of rounding up
// is the residue; over many random products with one seed the mean
// rounding error, in ulps, is zero within five standard errors.
func TestStochasticUnbiased(t *testing.T) {
	seeds := 20000
	if testing.Short() {
		seeds = 4000
	}
	// 1/3 = 0.0101...b in [2^-2, 2^-1), where an ulp is 2^-25: the part
	// below the last of 24 bits is 2/3 ulp (binary ...0101|0101...).
	ups := 0
	exact := new(big.Float).SetPrec(200).Quo(big.NewFloat(1), big.NewFloat(3))
	down := new(big.Float).SetPrec(24).SetMode(big.ToZero).Set(exact)
	for s := 0; s < seeds; s++ {
		v := mustFormat(t, "vprec:24:e8:sr="+itoa(s))
		r := v.Div(v.Of(1), v.Of(3))
		switch r.Cmp(down) {
		case 0:
		case 1:
			ups++
			if up := new(big.Float).Sub(r, down); up.Cmp(big.NewFloat(0x1p-25)) != 0 {
				t.Fatalf("seed %d: 1/3 rounded to %v, not a neighbour", s, r)
			}
		default:
			t.Fatalf("seed %d: 1/3 rounded to %v, below the lower neighbour %v", s, r, down)
		}
	}
	resid, _ := new(big.Float).SetMantExp(new(big.Float).Sub(exact, down), 25).Float64()
	if math.Abs(resid-2.0/3) > 1e-6 {
		t.Fatalf("residue of 1/3 at 24 bits %v ulp, want 2/3", resid)
	}
	p := float64(ups) / float64(seeds)
	sigma := math.Sqrt(resid * (1 - resid) / float64(seeds))
	if math.Abs(p-resid) > 5*sigma {
		t.Errorf("1/3 rounded up in %d of %d seeds (%.4f), want %.4f within %.4f", ups, seeds, p, resid, 5*sigma)
	}
	t.Logf("1/3 at 24 bits rounded up by %d of %d seeds (%.4f)", ups, seeds, p)

	v := mustFormat(t, "vprec:24:e8:sr=1")
	rng := rand.New(rand.NewPCG(39, 40))
	n := seeds * 5
	var sum float64
	for i := 0; i < n; i++ {
		x := float64(float32(randNormal(rng, -10, 10)))
		y := float64(float32(randNormal(rng, -10, 10)))
		got := v.Float64(v.Mul(v.FromFloat64(x), v.FromFloat64(y)))
		want := x * y // exact in binary64
		ulp := math.Ldexp(1, math.Ilogb(want)-23)
		d := (got - want) / ulp
		if math.Abs(d) >= 1 {
			t.Fatalf("%v * %v: %v is not a neighbour of %v", x, y, got, want)
		}
		sum += d
	}
	// Each error is in (-1, 1) with variance at most 1/4.
	if mean := sum / float64(n); math.Abs(mean) > 5*0.5/math.Sqrt(float64(n)) {
		t.Errorf("mean rounding error of %d products %.5f ulp, want 0 within %.5f", n, mean, 5*0.5/math.Sqrt(float64(n)))
	}
}

// TestStochasticReproducible checks that stochastic rounding is a
// function of the seed and the operands: the same seed gives the same
// digest whether the operations run in order or spread over goroutines in
// reverse, and another seed gives another digest.
func TestStochasticReproducible(t *testing.T) {
	const n = 4000
	rng := rand.New(rand.NewPCG(41, 42))
	xs := make([]float64, 2*n)
	for i := range xs {
		xs[i] = randNormal(rng, -30, 30)
	}
	digest := func(name string, concurrent bool) [32]byte {
		v := mustFormat(t, name)
		out := make([]uint64, n)
		do := func(i int) {
			x, y := v.FromFloat64(xs[2*i]), v.FromFloat64(xs[2*i+1])
			r := v.Add(v.Mul(x, y), v.Sqrt(v.Sqr(y)))
			r = v.Div(r, v.Add(x, v.Of(3)))
			out[i] = math.Float64bits(v.Float64(r)) ^ v.ExpmP63(v.FromFloat64(math.Abs(xs[2*i])*1e-10), v.FromFloat64(0.75))
		}
		if concurrent {
			var wg sync.WaitGroup
			for w := range 4 {
				wg.Go(func() {
					for i := n - 1 - w; i >= 0; i -= 4 {
						do(i)
					}
				})
			}
			wg.Wait()
		} else {
			for i := range n {
				do(i)
			}
		}
		h := sha256.New()
		for _, o := range out {
			h.Write(binary.LittleEndian.AppendUint64(nil, o))
		}
		return [32]byte(h.Sum(nil))
	}
	a, b := digest("vprec:30:e8:sr=5", false), digest("vprec:30:e8:sr=5", true)
	if a != b {
		t.Errorf("seed 5: sequential digest %x, concurrent %x", a, b)
	}
	if c := digest("vprec:30:e8:sr=6", false); c == a {
		t.Errorf("seeds 5 and 6 give the same digest %x", a)
	}
	if c := digest("vprec:30:e8", false); c == a {
		t.Errorf("stochastic and nearest rounding give the same digest %x", a)
	}
}

// TestFormatExpmDegrades measures the expm_p63 of vprec:P:e11 (the
// reference's polynomial in P-bit arithmetic) against the exact value on
// 2,000 points of [0, ln 2) x [0, 1), relative to full scale 2^63: its
// worst error must follow the precision (between 2^-(P+3) and 2^-(P-5) for
// small P, thirteen Horner steps each adding a rounding) and, at 64 bits,
// stay within the polynomial's own error of about 2^-51.2.
func TestFormatExpmDegrades(t *testing.T) {
	ref, err := New(DefaultPrec)
	if err != nil {
		t.Fatal(err)
	}
	worst := func(name string) float64 {
		v := mustFormat(t, name)
		rng := rand.New(rand.NewPCG(43, 44))
		w := math.Inf(-1)
		for range 2000 {
			x, c := v.FromFloat64(rng.Float64()*math.Ln2), v.FromFloat64(rng.Float64())
			got, want := v.ExpmP63(x, c), ref.ExpmP63(x, c)
			if d := math.Abs(float64(got) - float64(want)); d > 0 {
				w = max(w, math.Log2(d)-63)
			}
		}
		return w
	}
	for _, p := range []int{20, 24, 32, 40} {
		for _, r := range []string{"", ":rz"} {
			name := "vprec:" + itoa(p) + ":e11" + r
			w := worst(name)
			t.Logf("%s: worst expm_p63 error 2^%.2f of full scale", name, w)
			if w < -float64(p+3) || w > -float64(p-5) {
				t.Errorf("%s: worst expm_p63 error 2^%.2f, want within 2^-%d..2^-%d", name, w, p+3, p-5)
			}
		}
	}
	if w := worst("vprec:64:e11"); w > -50.5 {
		t.Errorf("vprec:64:e11: worst expm_p63 error 2^%.2f, want the polynomial's ~2^-51.2", w)
	} else {
		t.Logf("vprec:64:e11: worst expm_p63 error 2^%.2f of full scale", w)
	}
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// Convert rounds a wider value as the format's own results round: into
// vprec:24:e8 as float32 conversion does (Go's conversion is IEEE round to
// nearest even), into vprec:53:e11 as big.Float.Float64 does, toward zero
// as truncation of the significand does; below 2^emin it flushes, and it
// is the identity on the format's values.
func TestConvert(t *testing.T) {
	f32, err := NewFormat(24, 8, RoundNearestEven, 0)
	if err != nil {
		t.Fatal(err)
	}
	f64, err := NewFormat(53, 11, RoundNearestEven, 0)
	if err != nil {
		t.Fatal(err)
	}
	rz, err := NewFormat(24, 8, RoundTowardZero, 0)
	if err != nil {
		t.Fatal(err)
	}
	wide, err := New(256)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 20000 {
		x := math.Float64frombits(rng.Uint64()&^(0x7ff<<52) | uint64(1023-40+rng.IntN(80))<<52)
		bx := new(big.Float).SetFloat64(x)
		if got, want := f32.Float64(f32.Convert(bx)), float64(float32(x)); got != want {
			t.Fatalf("%d: vprec:24:e8 Convert(%g) = %g, float32 gives %g", i, x, got, want)
		}
		m, e := math.Frexp(x)
		trunc := math.Ldexp(math.Trunc(math.Ldexp(m, 24)), e-24)
		if got := rz.Float64(rz.Convert(bx)); got != trunc {
			t.Fatalf("%d: vprec:24:e8:rz Convert(%g) = %g, truncation gives %g", i, x, got, trunc)
		}
		// A 256-bit quotient, rounded into binary64.
		q := wide.Div(bx, wide.Of(int64(3+rng.IntN(1000))))
		want, _ := q.Float64()
		if got := f64.Float64(f64.Convert(q)); got != want {
			t.Fatalf("%d: vprec:53:e11 Convert(%v) = %g, big.Float.Float64 gives %g", i, q, got, want)
		}
		own := f32.Convert(bx)
		if again := f32.Convert(own); again.Cmp(own) != 0 {
			t.Fatalf("%d: Convert is not the identity on the format's own value %v", i, own)
		}
	}
	tiny := new(big.Float).SetMantExp(big.NewFloat(1), -127) // below 2^-126
	if z := f32.Convert(tiny); z.Sign() != 0 {
		t.Errorf("vprec:24:e8 Convert(2^-127) = %v, want a flush to zero", z)
	}
	huge := new(big.Float).SetMantExp(big.NewFloat(1), 200)
	if z := f32.Convert(huge); !z.IsInf() {
		t.Errorf("vprec:24:e8 Convert(2^200) = %v, want +Inf", z)
	}
}
