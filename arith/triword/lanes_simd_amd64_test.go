//go:build goexperiment.simd && amd64

package triword

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

// laneValue returns operands that reach every path of the eight-lane
// kernels: Falcon's range, near-cancelling pairs (whose merges leave the
// pairwise order), limbs not in canonical form, magnitudes past the
// lanes' limits, subnormals, small integers and signed zeros.
func laneValue(r *rand.Rand, prev TW) TW {
	switch r.IntN(12) {
	case 0:
		return Arith{}.Of(int64(r.IntN(11) - 5))
	case 1:
		return neg(Arith{}.Of(0))
	case 2: // the negation of the previous operand, slightly off
		return TW{-prev.Hi, -prev.Mid, randLimb(r, -120)}
	case 3: // limbs in any order (P-nonoverlapping not required)
		return TW{randLimb(r, r.IntN(60)-30), randLimb(r, r.IntN(60)-30), randLimb(r, r.IntN(60)-30)}
	case 4:
		return randTW(r, 55, 127)
	case 5:
		return randTW(r, -149, -100)
	}
	return randTW(r, -110, 30)
}

// TestLanes checks AddN, SubN and MulN against the scalar add and fast
// product, bit for bit, over random lengths (groups of eight and tails),
// with dst separate from and equal to an operand.
func TestLanes(t *testing.T) {
	if !HasLanes {
		if os.Getenv("CI") == "true" {
			t.Fatal("the CPU has no AVX2 and FMA: the eight-lane kernels cannot be tested")
		}
		t.Skip("the CPU has no AVX2 and FMA")
	}
	r := rand.New(rand.NewPCG(40, 41))
	type kernel struct {
		name   string
		vec    func(dst, x, y []TW)
		scalar func(x, y TW) TW
	}
	kernels := []kernel{
		{"AddN", AddN, add},
		{"SubN", SubN, func(x, y TW) TW { return add(x, neg(y)) }},
		{"MulN", MulN, func(x, y TW) TW { return mul33(x, y, false) }},
	}
	checked := 0
	for round := range 3000 {
		n := r.IntN(41)
		if round%100 == 0 {
			n = 1024
		}
		x, y := make([]TW, n), make([]TW, n)
		var prev TW
		for i := range n {
			x[i] = laneValue(r, prev)
			y[i] = laneValue(r, x[i])
			prev = y[i]
		}
		for _, k := range kernels {
			for _, alias := range []bool{false, true} {
				dst := make([]TW, n)
				xs := x
				if alias {
					xs = append([]TW(nil), x...)
					dst = xs
				}
				k.vec(dst, xs, y)
				for i := range n {
					want := k.scalar(x[i], y[i])
					if !sameLimbs(dst[i], want) {
						t.Fatalf("%s (alias %v), n = %d, element %d: %v op %v = %v, scalar %v", k.name, alias, n, i, x[i], y[i], dst[i], want)
					}
					checked++
				}
			}
		}
	}
	t.Logf("%d results compared", checked)
}

// sameLimbs is sameBits with every NaN limb equal to every other (a NaN's
// payload is not specified).
func sameLimbs(x, y TW) bool {
	eq := func(a, b float32) bool {
		return math.Float32bits(a) == math.Float32bits(b) || (a != a && b != b)
	}
	return eq(x.Hi, y.Hi) && eq(x.Mid, y.Mid) && eq(x.Lo, y.Lo)
}

func BenchmarkLanes(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 512
	x, y, dst := make([]TW, n), make([]TW, n), make([]TW, n)
	for i := range n {
		x[i], y[i] = randTW(r, -20, 20), randTW(r, -20, 20)
	}
	for _, c := range []struct {
		name string
		f    func(dst, x, y []TW)
	}{
		{"AddN", AddN},
		{"MulN", MulN},
		{"AddScalar", func(dst, x, y []TW) {
			for i := range dst {
				dst[i] = add(x[i], y[i])
			}
		}},
		{"MulScalar", func(dst, x, y []TW) {
			for i := range dst {
				dst[i] = mul33(x[i], y[i], false)
			}
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				c.f(dst, x, y)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/elem")
		})
	}
}
