package triword

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The kernels add and mul33 run VecSum and VSEB unrolled (tw.go). The
// loop forms below are the algorithms as written in the paper, through
// the generic vecSum and vseb; the kernels
// must give the same limbs, bit for bit, on every input.

// addLoops restates Algorithm 8 as the paper writes it: the limb merge
// (x's limb first on ties, as in the formal proof), VecSum, VSEB(3).
func addLoops(x, y TW) TW {
	a := [3]float32{x.Hi, x.Mid, x.Lo}
	b := [3]float32{y.Hi, y.Mid, y.Lo}
	var z [6]float32
	i, j := 0, 0
	for k := range z {
		if j == 3 || (i < 3 && abs32(b[j]) <= abs32(a[i])) {
			z[k] = a[i]
			i++
		} else {
			z[k] = b[j]
			j++
		}
	}
	vecSum(z[:])
	var r [3]float32
	vseb(z[:], r[:])
	return TW{r[0], r[1], r[2]}
}

func mul33Loops(x, y TW, accurate bool) TW {
	z00p, z00m := twoProd(x.Hi, y.Hi)
	z01p, z01m := twoProd(x.Hi, y.Mid)
	z10p, z10m := twoProd(x.Mid, y.Hi)
	b := [3]float32{z00m, z01p, z10p}
	vecSum(b[:])
	c := fma32(x.Mid, y.Mid, b[2])
	z31 := fma32(x.Hi, y.Lo, z10m)
	z32 := fma32(x.Lo, y.Hi, z01m)
	z3 := z31 + z32
	var r [2]float32
	if accurate {
		e := [5]float32{z00p, b[0], b[1], c, z3}
		vecSum(e[:])
		vseb(e[1:], r[:])
		return TW{e[0], r[0], r[1]}
	}
	e := [4]float32{z00p, b[0], b[1], c + z3}
	vecSum(e[:])
	vseb(e[1:], r[:])
	return TW{e[0], r[0], r[1]}
}

// sameBits reports whether x and y have identical limbs (-0 and +0
// differ). Any two NaNs are the same: IEEE 754 leaves the sign and payload
// of a generated NaN open, and they differ by architecture (for an
// overflowing product, on arm64 under qemu, the unrolled kernel returned
// NaN limbs 0x7fc00000 and the loop form 0xffc00000; on amd64 both agree).
func sameBits(x, y TW) bool {
	same := func(a, b float32) bool {
		return math.Float32bits(a) == math.Float32bits(b) || (math.IsNaN(float64(a)) && math.IsNaN(float64(b)))
	}
	return same(x.Hi, y.Hi) && same(x.Mid, y.Mid) && same(x.Lo, y.Lo)
}

// TestKernelsMatchLoops compares the unrolled kernels with the loop forms
// on random triple words over a wide exponent range (underflow included),
// on operands of equal and opposite magnitudes (ties in the merge,
// cancellation), and on zeros and single-limb values.
func TestKernelsMatchLoops(t *testing.T) {
	r := rand.New(rand.NewPCG(61, 62))
	n := 400_000
	if testing.Short() {
		n = 50_000
	}
	special := []TW{{}, {Hi: float32(math.Copysign(0, -1))}, {Hi: 1}, {Hi: -1}, {Hi: 0x1p-149}, {Hi: math.MaxFloat32}}
	for i := range n {
		var x, y TW
		switch i % 5 {
		case 0:
			x, y = randTW(r, -140, 120), randTW(r, -140, 120)
		case 1:
			x = randTW(r, -30, 30)
			y = neg(x) // exact cancellation
			if r.IntN(2) == 0 {
				y = TW{y.Hi, y.Mid, 0} // ties on the leading limbs
			}
		case 2:
			x = randTW(r, -30, 30)
			y = TW{x.Hi, -x.Mid, x.Lo} // equal magnitudes, mixed signs
		case 3:
			// Raw limbs, unordered, with infinities and NaNs among
			// them: the kernels must merge exactly as the loop does
			// whatever the limbs.
			raw := func() float32 {
				switch r.IntN(16) {
				case 0:
					return float32(math.Inf(1 - 2*r.IntN(2)))
				case 1:
					return float32(math.NaN())
				case 2:
					return 0
				}
				return randF32(r, -40, 40)
			}
			x, y = TW{raw(), raw(), raw()}, TW{raw(), raw(), raw()}
		default:
			x = special[r.IntN(len(special))]
			y = randTW(r, -60, 60)
			if r.IntN(2) == 0 {
				x, y = y, x
			}
		}
		if got, want := add(x, y), addLoops(x, y); !sameBits(got, want) {
			t.Fatalf("add(%v, %v) = %v, loop form %v", x, y, got, want)
		}
		for _, acc := range []bool{false, true} {
			if got, want := mul33(x, y, acc), mul33Loops(x, y, acc); !sameBits(got, want) {
				t.Fatalf("mul33(%v, %v, accurate=%v) = %v, loop form %v", x, y, acc, got, want)
			}
		}
	}
}

func BenchmarkAddLoops(b *testing.B) { benchBinary(b, addLoops) }
func BenchmarkMulFastLoops(b *testing.B) {
	benchBinary(b, func(x, y TW) TW { return mul33Loops(x, y, false) })
}
