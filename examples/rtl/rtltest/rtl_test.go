package rtltest

import (
	"bytes"
	"context"
	"crypto/sha3"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cputime"
	"github.com/fprlab/fprlab/internal/plugintest"
	_ "github.com/fprlab/fprlab/valuetype"
)

var (
	buildMu    sync.Mutex
	buildDir   string
	vltRuntime []string // verilated.cpp and verilated_threads.cpp, compiled once
	builtLib   = map[string]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.Exit(code)
}

func run(name string, args ...string) error {
	if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
		return fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return nil
}

// build verilates fmul64.sv with the parameters and builds plugin.cpp
// around it, as run.sh does, once per parameter set; without verilator or
// g++ the test skips, except under CI=true.
func build(t testing.TB, trunc, comp, rz int) string {
	t.Helper()
	for _, tool := range []string{"verilator", "g++"} {
		if _, err := exec.LookPath(tool); err != nil {
			if plugintest.Required() {
				t.Fatalf("CI=true: %v", err)
			}
			t.Skip(err)
		}
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	tag := fmt.Sprintf("t%d-c%d-r%d", trunc, comp, rz)
	if p, ok := builtLib[tag]; ok {
		return p
	}
	if buildDir == "" {
		d, err := os.MkdirTemp("", "fprlab-rtl-")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = d
	}
	out, err := exec.Command("verilator", "--getenv", "VERILATOR_ROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	inc := filepath.Join(strings.TrimSpace(string(out)), "include")
	flags := []string{"-O2", "-fPIC", "-I" + inc, "-I" + filepath.Join(inc, "vltstd")}
	if vltRuntime == nil {
		for _, src := range []string{"verilated.cpp", "verilated_threads.cpp"} {
			obj := filepath.Join(buildDir, strings.TrimSuffix(src, ".cpp")+".o")
			if err := run("g++", append(flags, "-c", "-o", obj, filepath.Join(inc, src))...); err != nil {
				t.Fatal(err)
			}
			vltRuntime = append(vltRuntime, obj)
		}
	}
	obj := filepath.Join(buildDir, "obj-"+tag)
	if err := run("verilator", "--cc", "-O3", "-Mdir", obj, fmt.Sprintf("-GTRUNC=%d", trunc),
		fmt.Sprintf("-GCOMP=%d", comp), fmt.Sprintf("-GRZ=%d", rz), "../fmul64.sv"); err != nil {
		t.Fatal(err)
	}
	srcs, err := filepath.Glob(filepath.Join(obj, "*.cpp"))
	if err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(buildDir, "libfmul64-"+tag+".so")
	args := append(flags, "-shared", "-I"+obj, fmt.Sprintf("-DFMUL64_PARAMS=%q", tag), "-o", lib, "../plugin.cpp")
	args = append(append(args, srcs...), vltRuntime...)
	if err := run("g++", args...); err != nil {
		t.Fatal(err)
	}
	builtLib[tag] = lib
	return lib
}

func lookup(t testing.TB, name string) arith.Backend {
	t.Helper()
	b, err := arith.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func stream(label string, i int) io.Reader {
	h := sha3.NewSHAKE256()
	fmt.Fprintf(h, "rtl test %s %d", label, i)
	return h
}

func records(t *testing.T, b arith.Backend, cfg shadow.Config) []byte {
	t.Helper()
	recs, err := shadow.Run(context.Background(), b, cfg)
	if err != nil {
		t.Fatalf("%s: %v", b.Name, err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s: no records", b.Name)
	}
	var buf bytes.Buffer
	for _, r := range recs {
		c := *r
		c.Seconds = 0
		j, err := json.Marshal(&c)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(j)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// TestExactAsNative: with no truncation the Verilated multiplier signs
// Falcon-512 as native does, byte for byte, and a shadowed campaign gives
// native's records (every statistic, decision and flip).
func TestExactAsNative(t *testing.T) {
	b := lookup(t, "so:"+build(t, 0, 0, 0))
	nb := lookup(t, "native")
	sk, _, err := falcon.Keygen(nb, 9, stream("key", 9))
	if err != nil {
		t.Fatal(err)
	}
	n := 6
	if testing.Short() {
		n = 2
	}
	for j := range n {
		msg := []byte(fmt.Sprintf("message %d", j))
		sb, err := falcon.Sign(b, sk, msg, falcon.Compressed, stream("sig", j))
		if err != nil {
			t.Fatal(err)
		}
		sn, err := falcon.Sign(nb, sk, msg, falcon.Compressed, stream("sig", j))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(sb, sn) {
			t.Fatalf("signature %d differs from native's", j)
		}
	}
	cfg := shadow.Config{LogN: 9, Signatures: 2, Keys: 1, Seed: "rtl", OracleBits: 256, Sigma: shadow.SigmaFormula,
		Shadow: shadow.ShadowDD, KeygenBackend: "emu64", Workers: 1}
	if got, want := records(t, b, cfg), records(t, nb, cfg); !bytes.Equal(got, want) {
		t.Errorf("records differ from native's\n got %.300s\nwant %.300s", got, want)
	}
}

// mul is the plugin's multiplication of two binary64 numbers.
func mul(t *testing.T, b arith.Backend) func(x, y float64) float64 {
	a, ok := b.Impl.(cabi.ArithOf[cabi.Value8])
	if !ok {
		t.Fatalf("%s: implementation %T, want 8-byte values", b.Name, b.Impl)
	}
	return func(x, y float64) float64 { return a.Float64(a.Mul(a.FromFloat64(x), a.FromFloat64(y))) }
}

const minNormal = 0x1p-1022

// ieeeMul is the product the header promises at TRUNC = 0, from math/big:
// x*y rounded to 53 bits (nearest even, or toward zero) with an unbounded
// exponent, then flushed to a signed zero below the normal range and
// overflowed to infinity (nearest) or the largest finite number (toward
// zero); subnormal operands read as zeros; NaN for any NaN and for
// infinity times zero.
func ieeeMul(x, y float64, rz bool) float64 {
	if math.Abs(x) < minNormal {
		x = math.Copysign(0, x)
	}
	if math.Abs(y) < minNormal {
		y = math.Copysign(0, y)
	}
	neg := math.Signbit(x) != math.Signbit(y)
	sign := func(v float64) float64 {
		if neg {
			return -v
		}
		return v
	}
	switch {
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case math.IsInf(x, 0) || math.IsInf(y, 0):
		if x == 0 || y == 0 {
			return math.NaN()
		}
		return sign(math.Inf(1))
	case x == 0 || y == 0:
		return sign(0)
	}
	mode := big.ToNearestEven
	if rz {
		mode = big.ToZero
	}
	z := new(big.Float).SetPrec(53).SetMode(mode).Mul(big.NewFloat(math.Abs(x)), big.NewFloat(math.Abs(y)))
	e := z.MantExp(nil) // z in [2^(e-1), 2^e)
	switch {
	case e-1 < -1022:
		return sign(0)
	case e-1 > 1023:
		if rz {
			return sign(math.MaxFloat64)
		}
		return sign(math.Inf(1))
	}
	f, acc := z.Float64()
	if acc != big.Exact {
		panic("ieeeMul: inexact conversion of a normal 53-bit number")
	}
	return sign(f)
}

// operands are the edge cases (zeros, subnormals, the normal range's ends,
// infinities, NaN, products that tie, overflow and underflow) crossed with
// each other, then random bit patterns and random normal numbers.
func operands() [][2]float64 {
	edge := []float64{0, math.Copysign(0, -1), 0x1p-1074, 0x0.fffffffffffffp-1022, minNormal, 0x1.0000000000001p-1022,
		math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 1, -1, 0.5, 1.5, 1.25, 3,
		1 + 0x1p-52, 1 + 0x3p-52, 2 - 0x1p-52, 0x1.8000000000001p0, 0x1p-511, 0x1p-512, 0x1.fffffffffffffp-512,
		0x1p512, 0x1.fffffffffffffp511, 0x1.8p511, 12289, 1.0 / 12289}
	var ops [][2]float64
	for _, x := range edge {
		for _, y := range edge {
			ops = append(ops, [2]float64{x, y})
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	n := 20000
	if testing.Short() {
		n = 2000
	}
	for range n {
		ops = append(ops, [2]float64{math.Float64frombits(r.Uint64()), math.Float64frombits(r.Uint64())})
	}
	for range n {
		ops = append(ops, [2]float64{math.Ldexp(1+r.Float64(), r.IntN(80)-40), -math.Ldexp(1+r.Float64(), r.IntN(80)-40)})
	}
	return ops
}

func same(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
}

// TestExactMultiplier: at TRUNC = 0 the RTL multiplies as binary64 with
// the header's flush policy, to nearest even and toward zero: equal to
// math/big's rounding, and to the CPU's product wherever that is normal.
func TestExactMultiplier(t *testing.T) {
	for _, rz := range []int{0, 1} {
		f := mul(t, lookup(t, "so:"+build(t, 0, 0, rz)))
		bad := 0
		for _, o := range operands() {
			x, y := o[0], o[1]
			got, want := f(x, y), ieeeMul(x, y, rz == 1)
			// The CPU rounds tiny products to subnormals before the RTL's
			// flush: compare with it where both give a normal number.
			if p := x * y; rz == 0 && math.Abs(p) >= minNormal && math.Abs(want) >= minNormal && !same(p, want) {
				t.Fatalf("reference %x * %x = %x, the CPU gives %x", x, y, want, p)
			}
			if !same(got, want) {
				if bad++; bad <= 5 {
					t.Errorf("RZ=%d: %x * %x = %x, want %x", rz, x, y, got, want)
				}
			}
		}
		if bad > 0 {
			t.Errorf("RZ=%d: %d wrong products", rz, bad)
		}
	}
}

// relBound is the header's bound on |r - xy| / |xy| for normal results.
func relBound(trunc, comp, rz int) float64 {
	dmax := float64(trunc-1)*math.Ldexp(1, trunc) + 1
	if trunc == 0 {
		dmax = 0
	}
	d := dmax
	if comp == 1 && trunc > 0 {
		e := math.Floor((dmax + 2) / 4) // round(dmax/4), the RTL's constant
		d = math.Max(e, dmax-e)
	}
	return d*0x1p-104 + float64(1+rz)*0x1p-53
}

// truncatedMul is the product fmul64.sv's header defines, computed here
// from that definition alone for normal operands whose product is normal:
// the rows a*b[i]*2^i of the significands without their TRUNC lowest
// columns, summed with the compensation constant, then normalised and
// rounded to 53 bits (nearest even, or toward zero).
func truncatedMul(x, y float64, trunc, comp, rz int) float64 {
	bits := func(v float64) (int, *big.Int) {
		u := math.Float64bits(v)
		return int(u>>52) & 0x7ff, new(big.Int).SetUint64(u&(1<<52-1) | 1<<52)
	}
	ea, ma := bits(x)
	eb, mb := bits(y)
	keep := new(big.Int).Lsh(big.NewInt(1), 106)
	keep.Sub(keep, new(big.Int).Lsh(big.NewInt(1), uint(trunc)))
	sum := new(big.Int)
	if comp == 1 && trunc > 0 {
		dmax := new(big.Int).Lsh(big.NewInt(int64(trunc-1)), uint(trunc))
		sum.Rsh(dmax.Add(dmax, big.NewInt(3)), 2) // round(Dmax/4), Dmax = (TRUNC-1)*2^TRUNC + 1
	}
	for i := range 53 {
		if mb.Bit(i) == 1 {
			row := new(big.Int).Lsh(ma, uint(i))
			sum.Add(sum, row.And(row, keep))
		}
	}
	top := int(sum.Bit(105))
	m := new(big.Int).Rsh(sum, uint(52+top))
	guard := sum.Bit(51 + top)
	sticky := new(big.Int).And(sum, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(51+top)), big.NewInt(1))).Sign() != 0
	if rz == 0 && guard == 1 && (sticky || m.Bit(0) == 1) {
		m.Add(m, big.NewInt(1))
	}
	carry := int(m.Bit(53))
	e := ea + eb - 1023 + top + carry
	if e <= 0 || e >= 2047 {
		panic("truncatedMul: a product outside the normal range")
	}
	frac := m.Uint64() & (1<<52 - 1)
	if carry == 1 {
		frac = 0
	}
	sign := (math.Float64bits(x) ^ math.Float64bits(y)) >> 63
	return math.Float64frombits(sign<<63 | uint64(e)<<52 | frac)
}

// TestTruncatedWithinBound: truncated multipliers (with and without the
// compensation, both roundings) give the product the header defines (the
// kept partial products summed, then rounded: truncatedMul), bit for bit,
// stay within the header's relative error bound on random operands, and
// some products differ from the correctly rounded ones (the truncation is
// there).
func TestTruncatedWithinBound(t *testing.T) {
	for _, c := range [][3]int{{48, 0, 0}, {48, 1, 1}} {
		trunc, comp, rz := c[0], c[1], c[2]
		f := mul(t, lookup(t, "so:"+build(t, trunc, comp, rz)))
		bound := relBound(trunc, comp, rz)
		worst, differ := 0.0, 0
		r := rand.New(rand.NewPCG(3, 4))
		n := 40000
		if testing.Short() {
			n = 4000
		}
		for range n {
			x, y := math.Ldexp(1+r.Float64(), r.IntN(80)-40), math.Ldexp(1+r.Float64(), r.IntN(80)-40)
			if r.IntN(4) == 0 { // significands with long runs of ones, the truncation's worst case
				x = math.Float64frombits(math.Float64bits(x) | (1<<52-1)&^(1<<r.IntN(52)-1))
				y = math.Float64frombits(math.Float64bits(y) | (1<<52-1)&^(1<<r.IntN(52)-1))
			}
			got := f(x, y)
			if want := truncatedMul(x, y, trunc, comp, rz); !same(got, want) {
				t.Fatalf("TRUNC=%d COMP=%d RZ=%d: %x * %x = %x, the header's sum of kept partial products gives %x",
					trunc, comp, rz, x, y, got, want)
			}
			exact := new(big.Float).SetPrec(106).Mul(big.NewFloat(x), big.NewFloat(y))
			diff := new(big.Float).SetPrec(200).Sub(big.NewFloat(got).SetPrec(200), exact)
			rel, _ := new(big.Float).Quo(diff.Abs(diff), exact).Float64()
			if rel > bound {
				t.Fatalf("TRUNC=%d COMP=%d RZ=%d: %x * %x = %x, relative error 2^%.2f > bound 2^%.2f",
					trunc, comp, rz, x, y, got, math.Log2(rel), math.Log2(bound))
			}
			worst = math.Max(worst, rel)
			if !same(got, ieeeMul(x, y, rz == 1)) {
				differ++
			}
		}
		if differ == 0 {
			t.Errorf("TRUNC=%d COMP=%d RZ=%d: every product correctly rounded, no truncation seen", trunc, comp, rz)
		}
		t.Logf("TRUNC=%d COMP=%d RZ=%d: worst relative error 2^%.2f, bound 2^%.2f, %d of %d products not correctly rounded",
			trunc, comp, rz, math.Log2(worst), math.Log2(bound), differ, n)
		// fprlab arith errors' measurement (against the oracle, over
		// Falcon's exponent range) of the products that go through the
		// RTL stays within the bound too.
		b := lookup(t, "so:"+build(t, trunc, comp, rz))
		rows, err := analysis.MeasureOpErrors(b, []string{"mul", "sqr"}, analysis.OpErrorConfig{N: n / 4, Seed: 7, Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Samples == 0 || r.MaxRelErrLog2 > math.Log2(bound) {
				t.Errorf("TRUNC=%d COMP=%d RZ=%d: arith errors %s: worst 2^%.2f over %d samples, bound 2^%.2f",
					trunc, comp, rz, r.Op, r.MaxRelErrLog2, r.Samples, math.Log2(bound))
			}
			t.Logf("TRUNC=%d COMP=%d RZ=%d: arith errors %s: worst 2^%.2f over %d samples", trunc, comp, rz, r.Op, r.MaxRelErrLog2, r.Samples)
		}
	}
}

// BenchmarkShadowedSignRatio signs the same eight Falcon-512 messages
// under compare's dd shadow (one goroutine) over native and over the
// Verilated multiplier (TRUNC = 0, the exact one, and TRUNC = 32),
// interleaved so that a machine whose speed drifts slows both alike, and
// reports the process CPU time per signature of each and their ratio
// (RTL/native): the figure of docs/rtl.md's target (within 5x of native).
//
//	go test -run='^$' -bench=ShadowedSignRatio -count=5 ./examples/rtl/rtltest
func BenchmarkShadowedSignRatio(b *testing.B) {
	for _, trunc := range []int{0, 32} {
		b.Run(fmt.Sprintf("trunc=%d", trunc), func(b *testing.B) { benchRatio(b, build(b, trunc, 0, 0)) })
	}
}

func benchRatio(b *testing.B, lib string) {
	cfg := shadow.Config{LogN: 9, Signatures: 8, Keys: 1, Seed: "bench", OracleBits: 256, Sigma: shadow.SigmaFormula,
		Shadow: shadow.ShadowDD, KeygenBackend: "native", Workers: 1}
	sk, _, err := falcon.Keygen(lookup(b, "native"), cfg.LogN, stream("bench key", 0))
	if err != nil {
		b.Fatal(err)
	}
	var signers [2]*shadow.Signer
	for k, name := range []string{"native", "so:" + lib} {
		if signers[k], err = shadow.NewSigner(lookup(b, name), cfg); err != nil {
			b.Fatal(err)
		}
	}
	var cpu [2]time.Duration
	sign := func(k int) {
		t0, _ := cputime.Now()
		for j := 1; j <= cfg.Signatures; j++ {
			if _, err := signers[k].Sign(sk, j); err != nil {
				b.Fatal(err)
			}
		}
		t1, _ := cputime.Now()
		cpu[k] += t1 - t0
	}
	if _, ok := cputime.Now(); !ok {
		b.Skip("no process CPU time on this platform")
	}
	sign(0)
	sign(1)
	cpu = [2]time.Duration{}
	runtime.GC()
	for b.Loop() {
		sign(0)
		sign(1)
	}
	sigs := float64(b.N * cfg.Signatures)
	b.ReportMetric(float64(cpu[0])/sigs, "native-cpu-ns/sig")
	b.ReportMetric(float64(cpu[1])/sigs, "rtl-cpu-ns/sig")
	b.ReportMetric(float64(cpu[1])/float64(cpu[0]), "ratio")
}
