package falcon

import (
	"bytes"
	"crypto/sha3"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ALTree/bigfloat"

	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/arith/backends"
)

// keygenVector is one key of the padded signing vectors (README section 2
// of the shared vectors): the reference Falcon-impl-20211101
// falcon_keygen_make run on the SHAKE256("external") stream from byte
// Offset consumes Skip bytes and produces (f, g, F, G).
type keygenVector struct {
	LogN       uint
	Offset     int64
	Skip       int64
	F, G       []int8
	BigF, BigG []int8
}

func loadKeygenVectors(t *testing.T) []keygenVector {
	t.Helper()
	var vs []keygenVector
	for _, v := range loadSignKAT(t) {
		vs = append(vs, keygenVector{v.LogN, v.StreamOffset, v.SkipBytes, v.F, v.G, v.BigF, v.BigG})
	}
	return vs
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// mustBackend looks a registered backend up by name.
func mustBackend(t testing.TB, name string) arith.Backend {
	t.Helper()
	b, err := arith.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testBackends returns the two binary64 backends, which must agree with
// the reference bit for bit.
func testBackends(t *testing.T) []arith.Backend {
	t.Helper()
	return []arith.Backend{mustBackend(t, "emu64"), mustBackend(t, "native")}
}

// TestKeygenExternalStream checks key generation for every degree 2..1024
// against the reference: on one continuous SHAKE256("external") stream,
// each key consumes exactly the reference's number of bytes and yields the
// reference's (f, g, F, G). -short runs the first key of each degree.
func TestKeygenExternalStream(t *testing.T) {
	vs := loadKeygenVectors(t)
	for _, b := range testBackends(t) {
		t.Run(b.Name, func(t *testing.T) {
			sh := sha3.NewSHAKE256()
			sh.Write([]byte("external"))
			var pos int64
			checked := 0
			for i, v := range vs {
				if testing.Short() && i%12 != 0 {
					continue
				}
				if v.Offset < pos {
					t.Fatalf("vector %d: offset %d behind stream position %d", i, v.Offset, pos)
				}
				if _, err := io.CopyN(io.Discard, sh, v.Offset-pos); err != nil {
					t.Fatal(err)
				}
				cr := &countingReader{r: sh}
				sk, pk, err := Keygen(b, v.LogN, cr)
				if err != nil {
					t.Fatalf("vector %d (logn %d): %v", i, v.LogN, err)
				}
				pos = v.Offset + cr.n
				if cr.n != v.Skip {
					t.Errorf("vector %d (logn %d): consumed %d bytes, reference %d", i, v.LogN, cr.n, v.Skip)
					continue
				}
				for _, c := range []struct {
					name      string
					got, want []int8
				}{{"f", sk.SmallF, v.F}, {"g", sk.SmallG, v.G}, {"F", sk.BigF, v.BigF}, {"G", sk.BigG, v.BigG}} {
					if !slices.Equal(c.got, c.want) {
						t.Errorf("vector %d (logn %d): %s differs from the reference", i, v.LogN, c.name)
					}
				}
				if pk.LogN != v.LogN || len(pk.H) != 1<<v.LogN {
					t.Errorf("vector %d: bad public key shape", i)
				}
				checked++
			}
			t.Logf("%d keys match the reference", checked)
		})
	}
}

// TestKeygenReproducible checks that a fixed seed gives the same key twice
// and on both binary64 backends, and that the key satisfies the NTRU
// equation (checked independently of the solver with big-integer
// polynomial arithmetic).
func TestKeygenReproducible(t *testing.T) {
	bs := testBackends(t)
	for logn := uint(1); logn <= 10; logn++ {
		if testing.Short() && logn > 8 {
			break
		}
		var first *PrivateKey
		for _, b := range append(bs, bs[0]) {
			sh := sha3.NewSHAKE256()
			fmt.Fprintf(sh, "fprlab keygen test %d", logn)
			sk, pk, err := Keygen(b, logn, sh)
			if err != nil {
				t.Fatal(err)
			}
			if first == nil {
				first = sk
				checkNTRU(t, sk)
				h, err := ComputePublic(sk.SmallF, sk.SmallG, logn)
				if err != nil || !slices.Equal(h, pk.H) {
					t.Errorf("logn %d: public key is not g/f", logn)
				}
				continue
			}
			for _, c := range [][2][]int8{{sk.SmallF, first.SmallF}, {sk.SmallG, first.SmallG}, {sk.BigF, first.BigF}, {sk.BigG, first.BigG}} {
				if !slices.Equal(c[0], c[1]) {
					t.Fatalf("logn %d backend %s: key differs between runs", logn, b.Name)
				}
			}
		}
	}
}

// checkNTRU verifies f*G - g*F = q in Z[X]/(X^n+1) with plain integer
// schoolbook arithmetic.
func checkNTRU(t *testing.T, sk *PrivateKey) {
	t.Helper()
	n := 1 << sk.LogN
	r := make([]int64, n)
	for i := range n {
		for j := range n {
			v := int64(sk.SmallF[i])*int64(sk.BigG[j]) - int64(sk.SmallG[i])*int64(sk.BigF[j])
			if k := i + j; k < n {
				r[k] += v
			} else {
				r[k-n] -= v
			}
		}
	}
	for k, v := range r {
		want := int64(0)
		if k == 0 {
			want = Q
		}
		if v != want {
			t.Fatalf("logn %d: f*G - g*F coefficient %d is %d, want %d", sk.LogN, k, v, want)
		}
	}
}

// TestKeygenErrors checks argument validation.
func TestKeygenErrors(t *testing.T) {
	b := testBackends(t)[0]
	for _, logn := range []uint{0, 11} {
		if _, _, err := Keygen(b, logn, sha3.NewSHAKE256()); err == nil {
			t.Errorf("logn %d accepted", logn)
		}
	}
	if _, _, err := Keygen(b, 9, nil); err == nil {
		t.Error("nil rng accepted")
	}
	if _, _, err := Keygen(b, 9, bytes.NewReader(make([]byte, 100))); err == nil {
		t.Error("short rng accepted")
	}
	if _, _, err := Keygen(arith.Backend{Name: "bogus", Impl: 3}, 9, sha3.NewSHAKE256()); err == nil {
		t.Error("bogus backend accepted")
	}
}

// TestKeygenOtherBackends runs key generation over the non-binary64
// backends: the oracle (256-bit big floats) must produce a valid key, and
// the triple-word backends must be refused quickly for their exponent
// range. A backend missing from the registry is a failure, not a skip.
func TestKeygenOtherBackends(t *testing.T) {
	sh := sha3.NewSHAKE256()
	sh.Write([]byte("oracle keygen"))
	sk, _, err := Keygen(mustBackend(t, "oracle"), 4, sh)
	if err != nil {
		t.Fatal(err)
	}
	checkNTRU(t, sk)

	for _, name := range []string{"triword", "triword-acc"} {
		if _, _, err := Keygen(mustBackend(t, name), 9, sha3.NewSHAKE256()); !errors.Is(err, ErrKeygenRange) {
			t.Errorf("%s keygen: got %v, want ErrKeygenRange", name, err)
		}
	}
}

// failingRint is native arithmetic whose rounding returns 2^40: every Babai
// reduction then fails, as with an unusable backend.
type failingRint struct{ arith.Arith[float64] }

func (failingRint) Rint(float64) int64 { return 1 << 40 }

// TestKeygenFailureLimit checks that keygen gives up, with an error, when
// every candidate fails NTRUSolve.
func TestKeygenFailureLimit(t *testing.T) {
	native, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int) { maxKeygenFailures = n }(maxKeygenFailures)
	maxKeygenFailures = 20
	b := arith.Backend{Name: "broken", Bits: 53, Impl: failingRint{native.Impl.(arith.Arith[float64])}}
	_, _, err = Keygen(b, 6, sha3.NewSHAKE256())
	if err == nil || !strings.Contains(err.Error(), "consecutive candidates") {
		t.Fatalf("got %v", err)
	}
}

// TestGaussTable recomputes the keygen Gaussian table from its definition
// (discrete Gaussian with sigma = 1.17*sqrt(q/2048), probabilities scaled by
// 2^63, entry 0 = P(x = 0), entry k = P(|x| > k | x != 0)) at 200 bits and
// checks that every entry is the nearest integer.
func TestGaussTable(t *testing.T) {
	const prec = 200
	nf := func(x float64) *big.Float { return new(big.Float).SetPrec(prec).SetFloat64(x) }
	// 2 sigma^2 = 1.17^2 * 12289 / 1024.
	twoSigma2 := new(big.Float).SetPrec(prec).Quo(nf(117*117), nf(100*100))
	twoSigma2.Mul(twoSigma2, nf(12289))
	twoSigma2.Quo(twoSigma2, nf(1024))
	w := make([]*big.Float, 64)
	for x := range w {
		e := new(big.Float).SetPrec(prec).Quo(nf(float64(-x*x)), twoSigma2)
		w[x] = bigfloat.Exp(e)
	}
	tail := func(from int) *big.Float {
		s := nf(0)
		for x := from; x < len(w); x++ {
			s.Add(s, w[x])
		}
		return s.Mul(s, nf(2))
	}
	nonzero := tail(1)
	total := new(big.Float).SetPrec(prec).Add(w[0], nonzero)
	scale := new(big.Float).SetPrec(prec).SetMantExp(nf(1), 63)
	for k, entry := range gauss1024 {
		var want *big.Float
		if k == 0 {
			want = new(big.Float).SetPrec(prec).Quo(w[0], total)
		} else {
			want = new(big.Float).SetPrec(prec).Quo(tail(k+1), nonzero)
		}
		want.Mul(want, scale)
		diff := new(big.Float).SetPrec(prec).Sub(want, new(big.Float).SetUint64(entry))
		if d, _ := diff.Float64(); math.Abs(d) > 0.5 {
			t.Errorf("entry %d = %d, exact %s", k, entry, want.Text('f', 3))
		}
	}
}

// TestKeygenSignVerify generates a key for every degree 2..1024 on each
// binary64 backend, signs with it in the three formats and verifies; a
// signature under another message must not verify. -short stops at 256.
func TestKeygenSignVerify(t *testing.T) {
	for _, b := range testBackends(t) {
		for logn := uint(1); logn <= 10; logn++ {
			if testing.Short() && logn > 8 {
				break
			}
			sh := sha3.NewSHAKE256()
			fmt.Fprintf(sh, "round trip %s %d", b.Name, logn)
			sk, pk, err := Keygen(b, logn, sh)
			if err != nil {
				t.Fatal(err)
			}
			for _, format := range []SigFormat{Compressed, Padded, CT} {
				msg := []byte(fmt.Sprintf("message %d %v", logn, format))
				sig, err := Sign(b, sk, msg, format, sh)
				if err != nil {
					t.Fatalf("%s logn %d %v: sign: %v", b.Name, logn, format, err)
				}
				if err := Verify(pk, msg, sig); err != nil {
					t.Errorf("%s logn %d %v: verify: %v", b.Name, logn, format, err)
				}
				if Verify(pk, append(msg, '!'), sig) == nil {
					t.Errorf("%s logn %d %v: signature verifies for another message", b.Name, logn, format)
				}
			}
		}
	}
}

// BenchmarkKeygen measures key generation (SHAKE256-seeded, a new seed per
// iteration) for Falcon-512 and Falcon-1024 on each binary64 backend.
func BenchmarkKeygen(b *testing.B) {
	for _, name := range []string{"native", "emu64"} {
		be, err := arith.Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, logn := range []uint{9, 10} {
			b.Run(fmt.Sprintf("%s/%d", name, 1<<logn), func(b *testing.B) {
				i := 0
				for b.Loop() {
					sh := sha3.NewSHAKE256()
					fmt.Fprintf(sh, "bench %d", i)
					i++
					if _, _, err := Keygen(be, logn, sh); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
