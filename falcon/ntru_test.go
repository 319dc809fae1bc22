package falcon

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// Tests of NTRUSolve's integer layer against math/big.

// TestPrimeTable checks the generated RNS table against its definition:
// every p is prime, 2^30 < p < 2^31, p = 1 mod 2048; the list is the
// descending run of all such primes; g has order exactly 2048; s is the
// inverse of the product of the previous primes times 2^31 mod p. It also
// covers the longest word length NTRUSolve uses.
func TestPrimeTable(t *testing.T) {
	if len(primes) < maxBlLarge[len(maxBlLarge)-1]+1 {
		t.Fatalf("%d primes, NTRUSolve needs %d", len(primes), maxBlLarge[len(maxBlLarge)-1]+1)
	}
	prod := big.NewInt(1)
	next := int64(1<<31 - 2047) // largest candidate = 1 mod 2048 below 2^31
	for i, sp := range primes {
		p := int64(sp.p)
		for c := next; c > p; c -= 2048 {
			if big.NewInt(c).ProbablyPrime(20) {
				t.Fatalf("prime %d missing before index %d", c, i)
			}
		}
		next = p - 2048
		bp := big.NewInt(p)
		if p%2048 != 1 || p <= 1<<30 || !bp.ProbablyPrime(20) {
			t.Fatalf("entry %d: p = %d", i, p)
		}
		g := big.NewInt(int64(sp.g))
		if new(big.Int).Exp(g, big.NewInt(1024), bp).Int64() != p-1 {
			t.Fatalf("entry %d: g^1024 != -1", i)
		}
		s := new(big.Int).ModInverse(new(big.Int).Mod(prod, bp), bp)
		s.Lsh(s, 31).Mod(s, bp)
		if s.Int64() != int64(sp.s) {
			t.Fatalf("entry %d: s = %d, want %d", i, sp.s, s)
		}
		prod.Mul(prod, bp)
	}
}

// TestModp checks the Montgomery arithmetic and constants modulo a few
// table primes on random operands.
func TestModp(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, i := range []int{0, 1, 17, 300} {
		p, p0i, r2 := primeData(i, nil)
		bp := big.NewInt(int64(p))
		if (uint64(p)*uint64(p0i)+1)&0x7FFFFFFF != 0 {
			t.Fatalf("p0i is not -1/p mod 2^31")
		}
		if want := new(big.Int).Exp(big.NewInt(2), big.NewInt(62), bp); int64(r2) != want.Int64() {
			t.Fatalf("R2 = %d, want %d", r2, want)
		}
		for x := uint(1); x <= 300; x += 37 {
			want := new(big.Int).Exp(big.NewInt(2), big.NewInt(int64(31*x)), bp)
			if got := modpRx(x, p, p0i, r2, nil); int64(got) != want.Int64() {
				t.Fatalf("Rx(%d) = %d, want %d", x, got, want)
			}
		}
		rinv := new(big.Int).ModInverse(big.NewInt(1<<31), bp)
		for range 1000 {
			a, b := r.Uint32N(p), r.Uint32N(p)
			ba, bb := big.NewInt(int64(a)), big.NewInt(int64(b))
			want := new(big.Int).Mul(ba, bb)
			want.Mul(want, rinv).Mod(want, bp)
			if got := modpMontymul(a, b, p, p0i); int64(got) != want.Int64() {
				t.Fatalf("montymul(%d, %d) = %d, want %d", a, b, got, want)
			}
			if got, want := modpAdd(a, b, p), (uint64(a)+uint64(b))%uint64(p); uint64(got) != want {
				t.Fatalf("add")
			}
			if got, want := modpSub(a, b, p), (uint64(a)+uint64(p)-uint64(b))%uint64(p); uint64(got) != want {
				t.Fatalf("sub")
			}
			if b != 0 {
				q := modpDiv(a, b, p, p0i, modpR(p), nil)
				if got := new(big.Int).Mul(big.NewInt(int64(q)), bb); got.Mod(got, bp).Cmp(ba) != 0 {
					t.Fatalf("div(%d, %d) = %d", a, b, q)
				}
			}
			x := int32(r.Int64N(int64(p))) - int32(p/2)
			if got := modpNorm(modpSet(x, p), p); got != x {
				t.Fatalf("norm(set(%d)) = %d", x, got)
			}
		}
	}
}

// TestModpNTT checks that the NTT turns negacyclic products into pointwise
// ones and that the inverse NTT inverts it, against schoolbook products
// modulo X^n+1.
func TestModpNTT(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	p, p0i, r2 := primeData(5, nil)
	for logn := uint(1); logn <= 10; logn++ {
		n := 1 << logn
		gm := make([]uint32, n)
		igm := make([]uint32, n)
		modpMkgm2(gm, igm, logn, primes[5].g, p, p0i, nil)
		a := make([]uint32, n)
		b := make([]uint32, n)
		for i := range n {
			a[i], b[i] = r.Uint32N(p), r.Uint32N(p)
		}
		want := make([]uint64, n)
		for i := range n {
			for j := range n {
				v := uint64(a[i]) * uint64(b[j]) % uint64(p)
				if k := i + j; k < n {
					want[k] = (want[k] + v) % uint64(p)
				} else {
					want[k-n] = (want[k-n] + uint64(p) - v) % uint64(p)
				}
			}
		}
		modpNTT2(a, gm, logn, p, p0i, nil)
		modpNTT2(b, gm, logn, p, p0i, nil)
		for i := range n {
			a[i] = modpMontymul(modpMontymul(a[i], b[i], p, p0i), r2, p, p0i)
		}
		modpINTT2(a, igm, logn, p, p0i, nil)
		for i := range n {
			if uint64(a[i]) != want[i] {
				t.Fatalf("logn %d: product coefficient %d = %d, want %d", logn, i, a[i], want[i])
			}
		}
	}
}

// zintFromBig writes x (|x| < 2^(31n-1)) as n signed 31-bit words.
func zintFromBig(x *big.Int, n int) []uint32 {
	m := new(big.Int).Lsh(big.NewInt(1), uint(31*n))
	v := new(big.Int).Mod(x, m)
	w := make([]uint32, n)
	for i := range n {
		w[i] = uint32(new(big.Int).And(v, big.NewInt(0x7FFFFFFF)).Int64())
		v.Rsh(v, 31)
	}
	return w
}

// zintToBig reads n signed 31-bit words.
func zintToBig(w []uint32, n int) *big.Int {
	v := new(big.Int)
	for i := n - 1; i >= 0; i-- {
		v.Lsh(v, 31).Or(v, big.NewInt(int64(w[i])))
	}
	if n > 0 && w[n-1]>>30 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(31*n)))
	}
	return v
}

func randBig(r *rand.Rand, bits int) *big.Int {
	v := new(big.Int)
	for range (bits + 31) / 32 {
		v.Lsh(v, 32).Or(v, big.NewInt(int64(r.Uint32())))
	}
	v.Rsh(v, uint(((bits+31)/32)*32-bits))
	if r.IntN(2) == 0 {
		v.Neg(v)
	}
	return v
}

// TestZintCRT checks that residues modulo the first n primes rebuild the
// signed integer.
func TestZintCRT(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{1, 2, 7, 40, 308} {
		for range 20 {
			x := randBig(r, 31*n-3)
			w := make([]uint32, n)
			for u := range n {
				bp := big.NewInt(int64(primes[u].p))
				w[u] = uint32(new(big.Int).Mod(x, bp).Int64())
			}
			// The same value from its signed binary form.
			for u := range n {
				p, p0i, r2 := primeData(u, nil)
				rx := modpRx(uint(n), p, p0i, r2, nil)
				if got := zintModSmallSigned(zintFromBig(x, n), n, p, p0i, r2, rx, nil); got != w[u] {
					t.Fatalf("n %d: residue %d mismatch", n, u)
				}
			}
			zintRebuildCRT(w, n, n, 1, true, make([]uint32, n), nil)
			if got := zintToBig(w, n); got.Cmp(x) != 0 {
				t.Fatalf("n %d: rebuilt %v, want %v", n, got, x)
			}
		}
	}
}

// TestZintBezout checks the extended GCD on random odd inputs.
func TestZintBezout(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, 5, 20} {
		coprime, other := 0, 0
		for range 200 {
			x := new(big.Int).Abs(randBig(r, 31*n-1))
			y := new(big.Int).Abs(randBig(r, 31*n-1-r.IntN(20)))
			x.SetBit(x, 0, 1)
			y.SetBit(y, 0, 1)
			u := make([]uint32, n)
			v := make([]uint32, n)
			ok := zintBezout(u, v, zintFromBig(x, n), zintFromBig(y, n), n, make([]uint32, 4*n))
			gcd := new(big.Int).GCD(nil, nil, x, y)
			if ok != (gcd.Cmp(big.NewInt(1)) == 0) {
				t.Fatalf("n %d: bezout ok = %v, gcd = %v", n, ok, gcd)
			}
			if !ok {
				other++
				continue
			}
			coprime++
			// Unsigned words: 0 <= u <= y, 0 <= v <= x.
			bu, bv := zintUnsigned(u), zintUnsigned(v)
			lhs := new(big.Int).Sub(new(big.Int).Mul(x, bu), new(big.Int).Mul(y, bv))
			if lhs.Cmp(big.NewInt(1)) != 0 || bu.Cmp(y) > 0 || bv.Cmp(x) > 0 {
				t.Fatalf("n %d: x*u - y*v = %v", n, lhs)
			}
		}
		if coprime == 0 || other == 0 {
			t.Logf("n %d: %d coprime, %d not", n, coprime, other)
		}
	}
	// Even input is refused.
	if zintBezout(make([]uint32, 1), make([]uint32, 1), []uint32{4}, []uint32{3}, 1, make([]uint32, 4)) {
		t.Error("even x accepted")
	}
}

func zintUnsigned(w []uint32) *big.Int {
	v := new(big.Int)
	for i := len(w) - 1; i >= 0; i-- {
		v.Lsh(v, 31).Or(v, big.NewInt(int64(w[i])))
	}
	return v
}

// TestZintScaled checks the scaled additions of the Babai reduction.
func TestZintScaled(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for range 500 {
		xlen := 1 + r.IntN(12)
		ylen := 1 + r.IntN(xlen)
		sc := r.IntN(31 * xlen)
		x := randBig(r, 31*xlen-40)
		y := randBig(r, 31*ylen-2)
		k := int32(r.Uint32())
		mod := new(big.Int).Lsh(big.NewInt(1), uint(31*xlen))
		half := new(big.Int).Rsh(mod, 1)
		wrap := func(v *big.Int) *big.Int {
			v.Mod(v, mod)
			if v.Cmp(half) >= 0 {
				v.Sub(v, mod)
			}
			return v
		}
		ys := new(big.Int).Lsh(y, uint(sc))

		xw := zintFromBig(x, xlen)
		zintAddScaledMulSmall(xw, xlen, zintFromBig(y, ylen), ylen, k, uint32(sc/31), uint32(sc%31))
		want := wrap(new(big.Int).Add(x, new(big.Int).Mul(ys, big.NewInt(int64(k)))))
		if got := zintToBig(xw, xlen); got.Cmp(want) != 0 {
			t.Fatalf("add scaled: got %v want %v", got, want)
		}

		xw = zintFromBig(x, xlen)
		zintSubScaled(xw, xlen, zintFromBig(y, ylen), ylen, uint32(sc/31), uint32(sc%31))
		want = wrap(new(big.Int).Sub(x, ys))
		if got := zintToBig(xw, xlen); got.Cmp(want) != 0 {
			t.Fatalf("sub scaled: got %v want %v", got, want)
		}
	}
}

// TestSolveNTRUFixedKeys solves the NTRU equation for the f, g of the
// reference's test keys (test_falcon.c): for n = 512 and 1024 it must give
// the reference's F, G. The n = 16 key was not made by this key generator:
// its g has an even coefficient sum, hence an even resultant, which the
// binary GCD refuses, so NTRUSolve must fail on it as the reference's does.
func TestSolveNTRUFixedKeys(t *testing.T) {
	keys := loadNTRUKeys(t)
	for _, b := range testBackends(t) {
		e, err := newEngine(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			F, G, ok := e.solveNTRU(k.logn, k.f, k.g)
			if k.logn == 4 {
				if ok {
					t.Errorf("%s n=16: NTRUSolve succeeded with an even resultant", b.Name)
				}
				continue
			}
			if !ok {
				t.Fatalf("%s n=%d: NTRUSolve failed", b.Name, 1<<k.logn)
			}
			if !slices.Equal(F, k.F) || !slices.Equal(G, k.G) {
				t.Errorf("%s n=%d: (F, G) differs from the reference", b.Name, 1<<k.logn)
			}
		}
	}
}

// ntruKey is one fixed key of the reference's test_falcon.c.
type ntruKey struct {
	logn       uint
	f, g, F, G []int8
}

// loadNTRUKeys reads the fixed keys (n = 16, 512, 1024) from
// the reference's test vectors (testFalconVectorsFile).
func loadNTRUKeys(t *testing.T) []ntruKey {
	t.Helper()
	var v struct {
		Keys map[string]struct {
			LogN uint   `json:"logn"`
			F    []int8 `json:"f"`
			G    []int8 `json:"g"`
			BigF []int8 `json:"F"`
			BigG []int8 `json:"G"`
		} `json:"ntru_keys"`
	}
	readJSON(t, testFalconVectorsFile, &v)
	var keys []ntruKey
	for _, name := range []string{"16", "512", "1024"} {
		k, ok := v.Keys[name]
		if !ok {
			t.Fatalf("no key %s", name)
		}
		keys = append(keys, ntruKey{k.LogN, k.F, k.G, k.BigF, k.BigG})
	}
	return keys
}
