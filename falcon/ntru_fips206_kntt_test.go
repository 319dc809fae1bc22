package falcon

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// TestMontgomery32Inverse: -1/p mod 2^32 of the first two primes is the
// p0i of go-fn-dsa's table (2042615807, 1862176767).
func TestMontgomery32Inverse(t *testing.T) {
	for i, want := range []uint32{2042615807, 1862176767} {
		if got := montgomery32Inverse(primes[i].p); got != want {
			t.Errorf("prime %d: %d, want %d", i, got, want)
		}
	}
}

// TestFIPS206KNTTCanonical: for coefficients of magnitude below p,
// go-fn-dsa's NTT of k (2^32 Montgomery arithmetic) is round 3's, slot for
// slot, at every degree.
func TestFIPS206KNTTCanonical(t *testing.T) {
	rng := rand.New(rand.NewPCG(206, 1))
	for i := range 2 {
		p, p0i := primeP(i)
		for logn := uint(0); logn <= 10; logn++ {
			n := 1 << logn
			k := make([]int32, n)
			for v := range k {
				k[v] = int32(rng.Int64N(2*int64(p)-1) - int64(p) + 1)
			}
			k[0] = -int32(p) + 1
			gm, igm := make([]uint32, n), make([]uint32, n)
			modpMkgm2(gm, igm, logn, primes[i].g, p, p0i, nil)
			a, b := make([]uint32, n), make([]uint32, n)
			fips206KNTT(a, k, gm, logn, p, p0i, nil)
			kNTTRound3(b, k, gm, logn, p, p0i, nil)
			for v := range n {
				if a[v] != b[v] {
					t.Fatalf("prime %d, logn %d, slot %d: %d, round 3 %d", i, logn, v, a[v], b[v])
				}
			}
		}
	}
}

// TestFIPS206KNTTEdge: a coefficient k < -p, worked out by hand from
// go-fn-dsa's arithmetic. With p = 2147473409 (the first prime):
//
//   - degree 1 (no butterfly): k = -p - 1 is set to uint32(k) + p =
//     2^32 - 1, whose residue is 2^32 - 1 - 2p = 20477, where k mod p is
//     p - 1;
//   - degree 2 (one butterfly with twiddle w = g^512, g go-fn-dsa's and
//     round 3's root of order 2048): k = (0, -2^31), the second set to
//     2^31 + p, which the Montgomery product reads as the integer 2^31 + p:
//     slot 0 is (2^31 w) mod p and slot 1 its negation, where k mod p
//     gives (-2^31 w) mod p and its negation.
func TestFIPS206KNTTEdge(t *testing.T) {
	const p = 2147473409
	gp, p0i := primeP(0)
	if gp != p {
		t.Fatalf("first prime %d", gp)
	}
	a := make([]uint32, 1)
	fips206KNTT(a, []int32{-p - 1}, []uint32{0}, 0, p, p0i, nil)
	if a[0] != 20477 {
		t.Errorf("degree 1, k = -p-1: %d, want 20477 (k mod p would be %d)", a[0], p-1)
	}
	fips206KNTT(a, []int32{-p + 5}, []uint32{0}, 0, p, p0i, nil)
	if a[0] != 5 {
		t.Errorf("degree 1, k = -p+5: %d, want 5", a[0])
	}

	w := new(big.Int).Exp(big.NewInt(383167813), big.NewInt(512), big.NewInt(p))
	x := new(big.Int).Mod(new(big.Int).Mul(big.NewInt(1<<31), w), big.NewInt(p)).Uint64()
	want := [2]uint32{uint32(x), uint32(p - x)}
	exact := [2]uint32{uint32(p - x), uint32(x)} // the NTT of k mod p
	gm, igm := make([]uint32, 2), make([]uint32, 2)
	modpMkgm2(gm, igm, 1, primes[0].g, p, p0i, nil)
	b := make([]uint32, 2)
	fips206KNTT(b, []int32{0, -1 << 31}, gm, 1, p, p0i, nil)
	if [2]uint32(b) != want {
		t.Errorf("degree 2, k = (0, -2^31): %v, want %v (k mod p: %v)", b, want, exact)
	}
	kNTTRound3(b, []int32{0, -1<<31 + p}, gm, 1, p, p0i, nil)
	if [2]uint32(b) != exact {
		t.Errorf("degree 2, round 3's NTT of k mod p: %v, want %v", b, exact)
	}
}
