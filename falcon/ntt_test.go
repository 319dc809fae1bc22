package falcon

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// vrfyNegacyclic multiplies a and b in Z_q[X]/(X^n + 1) by the quadratic
// formula: X^n = -1 folds the upper half back with a sign change.
func vrfyNegacyclic(a, b []uint16) []uint16 {
	n := len(a)
	acc := make([]int64, n)
	for i := range n {
		for j := range n {
			v := int64(a[i]) * int64(b[j])
			if i+j < n {
				acc[i+j] += v
			} else {
				acc[i+j-n] -= v
			}
		}
	}
	out := make([]uint16, n)
	for i, v := range acc {
		out[i] = uint16((v%Q + Q) % Q)
	}
	return out
}

func vrfyRandPoly(rng *rand.Rand, n int) []uint16 {
	p := make([]uint16, n)
	for i := range p {
		p[i] = uint16(rng.IntN(Q))
	}
	return p
}

// TestNTTMultiplication: for every degree, NTT, pointwise product and
// inverse NTT equal the schoolbook negacyclic product, and the inverse NTT
// undoes the NTT.
func TestNTTMultiplication(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for logn := uint(1); logn <= 10; logn++ {
		n := 1 << logn
		trials := 5
		if logn >= 9 {
			trials = 2
		}
		for trial := range trials {
			a, b := vrfyRandPoly(rng, n), vrfyRandPoly(rng, n)
			if trial == 0 {
				// Edge values: all q-1 times X^(n-1).
				for i := range a {
					a[i] = Q - 1
				}
				clear(b)
				b[n-1] = 1
			}
			want := vrfyNegacyclic(a, b)
			ta, tb := slices.Clone(a), slices.Clone(b)
			mqNTT(ta, logn)
			mqNTT(tb, logn)
			back := slices.Clone(ta)
			mqINTT(back, logn)
			if !slices.Equal(back, a) {
				t.Fatalf("logn %d: iNTT(NTT(a)) != a", logn)
			}
			mqPolyMulNTT(ta, tb)
			prod := slices.Clone(ta)
			mqINTT(ta, logn)
			if !slices.Equal(ta, want) {
				t.Fatalf("logn %d trial %d: NTT product differs from schoolbook", logn, trial)
			}
			// Division undoes multiplication when b is invertible.
			if mqPolyDivNTT(prod, tb) {
				mqINTT(prod, logn)
				if !slices.Equal(prod, a) {
					t.Fatalf("logn %d: (a b)/b != a", logn)
				}
			} else if trial == 0 {
				t.Fatalf("logn %d: X^(n-1) reported not invertible", logn)
			}
		}
	}
}

// TestNTTTwiddles compares the computed twiddles with entries of the
// reference's GMb table, which stores R g^rev10(k) mod q in Montgomery form
// (R = 2^16 mod q = 4091).
func TestNTTTwiddles(t *testing.T) {
	ref := map[int]uint16{
		0: 4091, 1: 7888, 2: 11060, 3: 11208, 4: 6960, 5: 4342, 6: 6275, 7: 9759,
		1016: 6261, 1017: 5887, 1018: 2652, 1019: 10172, 1020: 1580, 1021: 10379, 1022: 4638, 1023: 9949,
	}
	refInv := map[int]uint16{0: 4091, 1: 4401, 2: 1081, 3: 1229, 1018: 6473, 1019: 436, 1020: 7567, 1021: 8603, 1022: 6229, 1023: 8230}
	const r = 4091
	for k, want := range ref {
		if got := uint16(uint32(mqGM[k]) * r % Q); got != want {
			t.Errorf("GM[%d]: R*%d = %d, want %d", k, mqGM[k], got, want)
		}
	}
	for k, want := range refInv {
		if got := uint16(uint32(mqIGM[k]) * r % Q); got != want {
			t.Errorf("iGM[%d]: R*%d = %d, want %d", k, mqIGM[k], got, want)
		}
	}
	// g has order exactly 2048: g^1024 = -1.
	if mqPow(mqGenerator, 1024) != Q-1 {
		t.Error("7^1024 != -1 mod q")
	}
}

// TestMqHelpers checks the scalar helpers on all inputs where feasible.
func TestMqHelpers(t *testing.T) {
	for x := int32(-Q + 1); x < Q; x++ {
		if got := int32(mqFromSmall(x)); got != ((x%Q)+Q)%Q {
			t.Fatalf("mqFromSmall(%d) = %d", x, got)
		}
	}
	for x := uint16(0); x < Q; x++ {
		c := mqCentre(x)
		if (int32(c)-int32(x))%Q != 0 || c < -Q/2 || c > Q/2 {
			t.Fatalf("mqCentre(%d) = %d", x, c)
		}
		if x != 0 && mqMul(mqInv(mqElem(x)), mqElem(x)) != 1 {
			t.Fatalf("mqInv(%d) wrong", x)
		}
	}
	if mqCentre(6144) != 6144 || mqCentre(6145) != -6144 {
		t.Error("centring boundary")
	}
}
