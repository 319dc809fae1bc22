package emu64_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
)

// The comparison tests run each operation of emu64 and of the native
// (hardware binary64) backend on the same operands and require the same
// bits. Following the accumulated-hash style of Go's ML-KEM tests, the
// results of each backend go into one SHA-256 and the digests are
// compared; only on a mismatch is the run repeated case by case to name
// the first differing operands.
//
// Cases where the reference emulation deliberately differs from IEEE-754
// (results in the subnormal range, zero-sign rules, Floor(-0), Lt(-0, +0))
// are not hashed: each is checked on its own, requiring emu64 to give the
// reference's value (see refDeviation) while native gives IEEE's. Cases
// outside the reference's contract (IEEE overflow to infinity) are neither
// hashed nor checked, and are counted.

var (
	emu emu64.Arith
	nat native.Arith
)

func ef(x float64) emu64.FPR { return emu.FromFloat64(x) }

// operands is one test case: floating-point operands x, y, or an integer i
// and exponent e for Of and Scaled.
type operands struct {
	x, y float64
	i    int64
	e    int
}

// result is an operation's outcome as 64 bits (a binary64 pattern, an
// int64, or 0/1 for Lt) plus what it is.
type kind int

const (
	kFloat kind = iota
	kInt
	kBool
)

// op is one operation under test. emu and nat return the result bits.
type op struct {
	name  string
	kind  kind
	unary bool // x only
	emu   func(o operands) uint64
	nat   func(o operands) uint64
	// gens are the operand distributions, each used for n random cases.
	gens []generator
	// edges are the edge-case operands, compared in full in every mode.
	edges func() []operands
}

type generator struct {
	name string
	gen  func(r *rand.Rand) operands
}

func fb(x emu64.FPR) uint64 { return uint64(x) }
func nb(x float64) uint64   { return math.Float64bits(x) }
func bb(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// randFloat returns a random normal binary64 value with exponent uniform in
// [emin, emax], random sign, and a random fraction; one time in four the
// fraction is cut short (its low bits zero), which makes exact results and
// exact rounding ties frequent.
func randFloat(r *rand.Rand, emin, emax int) float64 {
	e := emin + r.IntN(emax-emin+1)
	f := r.Uint64() & (1<<52 - 1)
	if r.IntN(4) == 0 {
		f &^= 1<<r.IntN(53) - 1
	}
	return math.Float64frombits(r.Uint64()&(1<<63) | uint64(e+1023)<<52 | f)
}

// near returns a value close to x: exponent within 2, fraction equal to x's
// except in some low bits, random sign. Sums of x and near(x) cancel
// heavily, which the independent random operands almost never do.
func near(r *rand.Rand, x float64) float64 {
	b := math.Float64bits(x)
	b ^= r.Uint64() & (1<<r.IntN(53) - 1)
	b += uint64(r.IntN(5)-2) << 52
	b ^= r.Uint64() & (1 << 63)
	return math.Float64frombits(b)
}

// pairGens draws two operands over an exponent range; one pair in four is
// a near pair.
func pairGens(pos bool) []generator {
	mk := func(name string, emin, emax int) generator {
		return generator{name, func(r *rand.Rand) operands {
			x := randFloat(r, emin, emax)
			y := randFloat(r, emin, emax)
			if r.IntN(4) == 0 {
				y = near(r, x)
			}
			if pos {
				x, y = math.Abs(x), math.Abs(y)
			}
			return operands{x: x, y: y}
		}}
	}
	return []generator{mk("exp±128", -128, 128), mk("falcon", -110, 80)}
}

// intGens draws operands for Rint, Floor and Trunc: magnitudes 2^-8 to
// 2^62 (the contract is |x| < 2^63), and exact ties k + 1/2.
func intGens() []generator {
	return []generator{
		{"2^-8..2^62", func(r *rand.Rand) operands { return operands{x: randFloat(r, -8, 62)} }},
		{"ties", func(r *rand.Rand) operands {
			k := r.Int64N(1 << r.IntN(53))
			x := float64(k) + 0.5
			if r.IntN(2) == 0 {
				x = -x
			}
			return operands{x: x}
		}},
	}
}

// scaledGens draws an integer shifted right by a random count (so all
// magnitudes occur) and an exponent range.
func scaledGens(emin, emax int, name string) generator {
	return generator{name, func(r *rand.Rand) operands {
		return operands{i: int64(r.Uint64()) >> r.IntN(64), e: emin + r.IntN(emax-emin+1)}
	}}
}

// ltGens adds equal and opposite pairs to the random ones.
func ltGens() []generator {
	gs := pairGens(false)
	for k := range gs {
		g := gs[k].gen
		gs[k].gen = func(r *rand.Rand) operands {
			o := g(r)
			switch r.IntN(8) {
			case 0:
				o.y = o.x
			case 1:
				o.y = -o.x
			}
			return o
		}
	}
	return gs
}

// edgeFloats are the special operands: zeros, small integers and rint ties
// of both parities and signs, powers of two, values around 2^52, 2^53 and
// 2^63, the smallest and largest normals, and a few irrationals.
func edgeFloats() []float64 {
	v := []float64{
		0, 1, 2, 3, 0.5, 0.25, 0.75, 1.5, 2.5, 3.5, 4.5, 5.5, 0.5000000000000001, 0.49999999999999994,
		1 + 0x1p-52, 1 - 0x1p-53, 2 - 0x1p-52,
		0x1p52 - 0.5, 0x1p52 - 1.5, 0x1p52, 0x1p52 + 1, 0x1p51 + 0.5, 0x1p53 - 1, 0x1p53, 0x1p53 + 2,
		0x1p62, 0x1p63 - 1024, 0x1p63 - 2048,
		0x1p-1022, 0x1p-1022 * (1 + 0x1p-52), 0x1p-1021, 0x1p-1000, 0x1p-520, 0x1p-511,
		math.MaxFloat64, 0x1p1023, 0x1p511, 0x1p512,
		0x1p-110, 0x1p80, 0x1p-128, 0x1p128,
		math.Pi, math.Ln2, 1.0 / 3, 12289, 1.0 / 12289, 165.7366171829776,
	}
	out := make([]float64, 0, 2*len(v))
	for _, x := range v {
		out = append(out, x, -x)
	}
	return out
}

func edgePairs(pos bool) func() []operands {
	return func() []operands {
		var out []operands
		for _, x := range edgeFloats() {
			for _, y := range edgeFloats() {
				if pos && (math.Signbit(x) || math.Signbit(y)) {
					continue
				}
				out = append(out, operands{x: x, y: y})
			}
		}
		return out
	}
}

func edgeSingles(pos bool) func() []operands {
	return func() []operands {
		var out []operands
		for _, x := range edgeFloats() {
			if !pos || !math.Signbit(x) {
				out = append(out, operands{x: x})
			}
		}
		return out
	}
}

// edgeInts are integers for Of and Scaled: int64 extremes, the rounding
// boundaries at 2^53 and 2^63, and exact ties of the int-to-float rounding.
func edgeInts() []int64 {
	v := []int64{0, 1, 2, 3, 1<<53 - 1, 1 << 53, 1<<53 + 1, 1<<53 + 2, 1<<53 + 3, 1<<54 + 2, 1<<54 + 6,
		1<<62 + 1<<9, 1<<62 + 3<<9, math.MaxInt64, math.MaxInt64 - 512, math.MaxInt64 - 1023, 1<<63 - 1536, 12289}
	out := []int64{math.MinInt64, math.MinInt64 + 1}
	for _, i := range v {
		out = append(out, i, -i)
	}
	return out
}

func edgeScaled() []operands {
	var out []operands
	for _, i := range edgeInts() {
		for _, e := range []int{-1140, -1100, -1075, -1074, -1022, -1000, -200, -128, -110, -63, -52, -1, 0, 1, 52, 80, 128, 900} {
			out = append(out, operands{i: i, e: e})
		}
	}
	return out
}

func ops() []op {
	f1 := func(name string, pos bool, e func(emu64.FPR) emu64.FPR, n func(float64) float64) op {
		return op{name: name, kind: kFloat, unary: true,
			emu:   func(o operands) uint64 { return fb(e(ef(o.x))) },
			nat:   func(o operands) uint64 { return nb(n(o.x)) },
			gens:  pairGens(pos),
			edges: edgeSingles(pos)}
	}
	f2 := func(name string, e func(x, y emu64.FPR) emu64.FPR, n func(x, y float64) float64) op {
		return op{name: name, kind: kFloat,
			emu:   func(o operands) uint64 { return fb(e(ef(o.x), ef(o.y))) },
			nat:   func(o operands) uint64 { return nb(n(o.x, o.y)) },
			gens:  pairGens(false),
			edges: edgePairs(false)}
	}
	i1 := func(name string, e func(emu64.FPR) int64, n func(float64) int64) op {
		return op{name: name, kind: kInt, unary: true,
			emu:  func(o operands) uint64 { return uint64(e(ef(o.x))) },
			nat:  func(o operands) uint64 { return uint64(n(o.x)) },
			gens: intGens(),
			edges: func() []operands {
				var out []operands
				for _, o := range edgeSingles(false)() {
					if math.Abs(o.x) < 0x1p63 {
						out = append(out, o)
					}
				}
				return out
			}}
	}
	return []op{
		f2("add", emu.Add, nat.Add),
		f2("sub", emu.Sub, nat.Sub),
		f2("mul", emu.Mul, nat.Mul),
		f1("sqr", false, emu.Sqr, nat.Sqr),
		f2("div", emu.Div, nat.Div),
		f1("inv", false, emu.Inv, nat.Inv),
		f1("sqrt", true, emu.Sqrt, nat.Sqrt),
		{name: "of", kind: kFloat,
			emu: func(o operands) uint64 { return fb(emu.Of(o.i)) },
			nat: func(o operands) uint64 { return nb(nat.Of(o.i)) },
			gens: []generator{scaledGens(0, 0, "int64"), {"|i| < 2^31", func(r *rand.Rand) operands {
				return operands{i: r.Int64N(1<<32) - 1<<31}
			}}},
			edges: func() []operands {
				var out []operands
				for _, i := range edgeInts() {
					out = append(out, operands{i: i})
				}
				return out
			}},
		{name: "scaled", kind: kFloat,
			emu:   func(o operands) uint64 { return fb(emu.Scaled(o.i, o.e)) },
			nat:   func(o operands) uint64 { return nb(nat.Scaled(o.i, o.e)) },
			gens:  []generator{scaledGens(-128-63, 128, "exp±128"), scaledGens(-110-63, 80-63, "falcon")},
			edges: edgeScaled},
		f1("half", false, emu.Half, nat.Half),
		f1("double", false, emu.Double, nat.Double),
		f1("neg", false, emu.Neg, nat.Neg),
		i1("rint", emu.Rint, nat.Rint),
		i1("floor", emu.Floor, nat.Floor),
		i1("trunc", emu.Trunc, nat.Trunc),
		{name: "lt", kind: kBool,
			emu:   func(o operands) uint64 { return bb(emu.Lt(ef(o.x), ef(o.y))) },
			nat:   func(o operands) uint64 { return bb(nat.Lt(o.x, o.y)) },
			gens:  ltGens(),
			edges: edgePairs(false)},
	}
}

// verdict classifies a case for the hashed comparison.
type verdict int

const (
	compare    verdict = iota // must be bit-identical
	deviation                 // documented difference: emu64 must give refValue
	outOfRange                // outside the reference's contract: not checked
)

// classify decides how the case (op, o) is checked, given native's IEEE
// result. For a documented difference it returns the reference's value,
// derived from the rules of the emulation (not from running it). Where
// that rule happens to agree with IEEE (Half(+0), say) the case is simply
// compared.
func classify(name string, o operands, ieee uint64) (verdict, uint64) {
	v, ref := refDeviation(name, o, ieee)
	if v == deviation && ref == ieee {
		return compare, 0
	}
	return v, ref
}

func refDeviation(name string, o operands, ieee uint64) (verdict, uint64) {
	const minNormal = 0x1p-1022
	switch name {
	case "floor":
		if nb(o.x) == 1<<63 { // Floor(-0) = -1
			return deviation, uint64(math.MaxUint64)
		}
		return compare, 0
	case "rint", "trunc":
		return compare, 0
	case "lt":
		if nb(o.x) == 1<<63 && o.y == 0 && !math.Signbit(o.y) { // Lt(-0, +0)
			return deviation, 1
		}
		return compare, 0
	}
	r := math.Float64frombits(ieee)
	if math.IsInf(r, 0) || math.IsNaN(r) {
		return outOfRange, 0
	}
	switch name {
	case "half":
		// Half subtracts one from the exponent field; both zeros give +0.
		if o.x == 0 {
			return deviation, 0
		}
		if nb(o.x)>>52&0x7FF == 1 {
			return deviation, nb(o.x) - 1<<52
		}
		return compare, 0
	case "sqrt":
		if o.x == 0 { // the root of -0 is +0
			return deviation, 0
		}
	case "div":
		if o.x == 0 { // 0/y = +0 whatever the signs
			return deviation, 0
		}
	}
	// Results whose exact value lies below the smallest normal are
	// flushed to a zero of the result's sign, even when IEEE rounds them
	// up to 2^-1022.
	if a := math.Abs(r); a != 0 && a <= minNormal && exactBelowMinNormal(name, o) {
		return deviation, ieee & (1 << 63)
	}
	return compare, 0
}

// exactBelowMinNormal reports whether the exact result of (name, o) is
// nonzero and below 2^-1022 in magnitude, computed with big floats.
func exactBelowMinNormal(name string, o operands) bool {
	const prec = 4096
	bf := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	z := new(big.Float).SetPrec(prec)
	m := bf(0x1p-1022)
	switch name {
	case "add":
		z.Add(bf(o.x), bf(o.y))
	case "sub":
		z.Sub(bf(o.x), bf(o.y))
	case "mul":
		z.Mul(bf(o.x), bf(o.y))
	case "sqr":
		z.Mul(bf(o.x), bf(o.x))
	case "div", "inv":
		// |x/y| < m  <=>  |x| < m*|y|.
		num := bf(o.x)
		if name == "inv" {
			num, o.y = bf(1), o.x
		}
		m.Mul(m, bf(o.y))
		return num.Sign() != 0 && num.Abs(num).Cmp(m.Abs(m)) < 0
	case "of", "scaled":
		z.SetMantExp(new(big.Float).SetPrec(prec).SetInt64(o.i), o.e)
	default:
		return false
	}
	return z.Sign() != 0 && z.Abs(z).Cmp(m) < 0
}

// hashSink buffers 8-byte results into a SHA-256.
type hashSink struct {
	h   hash.Hash
	buf []byte
}

func newSink() *hashSink { return &hashSink{h: sha256.New(), buf: make([]byte, 0, 8192)} }

func (s *hashSink) put(v uint64) {
	s.buf = binary.LittleEndian.AppendUint64(s.buf, v)
	if len(s.buf) == cap(s.buf) {
		s.h.Write(s.buf)
		s.buf = s.buf[:0]
	}
}

func (s *hashSink) sum() []byte {
	s.h.Write(s.buf)
	s.buf = s.buf[:0]
	return s.h.Sum(nil)
}

// describe formats a case for a failure message.
func describe(p op, o operands, emuBits, natBits uint64) string {
	k, name := p.kind, p.name
	var args string
	switch {
	case name == "of":
		args = fmt.Sprintf("%d", o.i)
	case name == "scaled":
		args = fmt.Sprintf("%d, %d", o.i, o.e)
	case p.unary:
		args = fmt.Sprintf("%v (%#016x)", o.x, nb(o.x))
	default:
		args = fmt.Sprintf("%v (%#016x), %v (%#016x)", o.x, nb(o.x), o.y, nb(o.y))
	}
	res := func(b uint64) string {
		switch k {
		case kFloat:
			return fmt.Sprintf("%v (%#016x)", math.Float64frombits(b), b)
		case kInt:
			return fmt.Sprint(int64(b))
		}
		return fmt.Sprint(b == 1)
	}
	return fmt.Sprintf("%s(%s): emu64 %s, native %s", name, args, res(emuBits), res(natBits))
}

// cases yields the operands of one run: the edge cases, then n random
// cases from each generator, reproducibly.
func cases(o op, n int, yield func(src string, idx int, ops operands)) {
	for k, e := range o.edges() {
		yield("edge", k, e)
	}
	for gi, g := range o.gens {
		r := rand.New(rand.NewPCG(0x656d753634, uint64(gi)))
		for k := range n {
			yield(g.name, k, g.gen(r))
		}
	}
}

func TestEmuMatchesNative(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 25_000
	}
	for _, o := range ops() {
		t.Run(o.name, func(t *testing.T) {
			t.Parallel()
			he, hn := newSink(), newSink()
			var hashed, devs, skipped int
			cases(o, n, func(src string, k int, ops operands) {
				e, nv := o.emu(ops), o.nat(ops)
				switch v, ref := classify(o.name, ops, nv); v {
				case compare:
					he.put(e)
					hn.put(nv)
					hashed++
				case deviation:
					devs++
					if e != ref {
						t.Errorf("%s #%d: documented difference, want emu64 %#016x: %s",
							src, k, ref, describe(o, ops, e, nv))
					}
					if e == nv {
						t.Errorf("%s #%d: expected native (IEEE) to differ from the reference value: %s",
							src, k, describe(o, ops, e, nv))
					}
				default:
					skipped++
				}
			})
			de, dn := he.sum(), hn.sum()
			t.Logf("%d cases hashed, %d documented differences checked, %d out of contract", hashed, devs, skipped)
			if bytes.Equal(de, dn) {
				return
			}
			t.Errorf("digest mismatch: emu64 %x, native %x", de, dn)
			// Find the first differing case.
			found := false
			cases(o, n, func(src string, k int, ops operands) {
				e, nv := o.emu(ops), o.nat(ops)
				if v, _ := classify(o.name, ops, nv); !found && v == compare && e != nv {
					found = true
					t.Errorf("first difference, %s #%d: %s", src, k, describe(o, ops, e, nv))
				}
			})
		})
	}
}
