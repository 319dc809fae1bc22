package falcon

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	mrand "math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
)

// The native backend runs the generated, non-generic copy of the Falcon
// code (zz_native_gen.go); every other backend runs the generic code. The
// tests below run the same inputs through both for float64 arithmetic and
// compare SHA-256 digests of all outputs: genericNative is native.Arith
// behind another type, so newEngine gives it the generic code, with
// exactly the same operations.

// genericNative is native arithmetic that newEngine does not recognise as
// native.Arith: it is an arith.Arith[float64] and runs the generic code.
type genericNative struct{ native.Arith }

// nativePaths returns the native backend (generated code) and the same
// arithmetic on the generic code.
func nativePaths(t testing.TB) [2]arith.Backend {
	gen := mustBackend(t, "native")
	return [2]arith.Backend{gen, {Name: "native-generic", Bits: 53, Description: gen.Description, Impl: genericNative{}}}
}

// comparePaths runs fn over the generated and the generic path, each
// writing its outputs to a hash, and fails if the digests differ.
func comparePaths(t *testing.T, fn func(t *testing.T, b arith.Backend, h hash.Hash)) {
	t.Helper()
	var sums [2][]byte
	for i, b := range nativePaths(t) {
		h := sha256.New()
		fn(t, b, h)
		sums[i] = h.Sum(nil)
	}
	if !bytes.Equal(sums[0], sums[1]) {
		t.Fatalf("generated path digest %x, generic path %x", sums[0], sums[1])
	}
	t.Logf("both paths: SHA-256 %x", sums[0])
}

// TestNativeEngineDispatch checks which code each float64 backend gets:
// native.Arith the generated engine, any other Arith[float64] the generic
// one.
func TestNativeEngineDispatch(t *testing.T) {
	bs := nativePaths(t)
	e, err := newEngine(bs[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := e.(*engineOfNative); !ok {
		t.Errorf("native backend: engine %T, want *engineOfNative", e)
	}
	for _, impl := range []any{genericNative{}, failingRint{native.Arith{}}} {
		e, err := newEngine(arith.Backend{Name: "wrapped", Bits: 53, Impl: impl})
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := e.(*engineOf[float64, arith.Arith[float64]]); !ok {
			t.Errorf("%T: engine %T, want the generic engine", impl, e)
		}
	}
}

// writeAttempt writes an attempt's outcome to h.
func writeAttempt(h hash.Hash, at *Attempt) {
	binary.Write(h, binary.LittleEndian, at.S1)
	binary.Write(h, binary.LittleEndian, at.S2)
	binary.Write(h, binary.LittleEndian, at.SqNorm)
	binary.Write(h, binary.LittleEndian, at.Short)
}

// TestNativeGenSignVectors signs all 120 padded signing vectors (n = 2 to
// 1024) on both paths, dynamic and expanded-key, and replays every
// attempt (rejected ones included) with its seed; the digests of the
// signatures and of all attempts (s1, s2, norm) must agree.
func TestNativeGenSignVectors(t *testing.T) {
	vs := loadSignKAT(t)
	comparePaths(t, func(t *testing.T, b arith.Backend, h hash.Hash) {
		attempts := 0
		for _, v := range vs {
			sk := v.key()
			msg := []byte(v.Message)
			sig, err := Sign(b, sk, msg, Padded, bytes.NewReader(v.stream(t)))
			if err != nil {
				t.Fatalf("%s vector %d: %v", b.Name, v.Index, err)
			}
			h.Write(sig)
			ek, err := ExpandPrivateKey(b, sk)
			if err != nil {
				t.Fatal(err)
			}
			sig, err = ek.Sign(msg, Padded, bytes.NewReader(v.stream(t)))
			if err != nil {
				t.Fatalf("%s vector %d (expanded key): %v", b.Name, v.Index, err)
			}
			h.Write(sig)
			hm := HashToPoint(mustHex(t, v.Nonce), msg, v.LogN)
			for _, s := range v.PRNGSeeds {
				seed := mustHex(t, s)
				at, err := SignAttemptDyn(b, sk, hm, seed)
				if err != nil {
					t.Fatal(err)
				}
				writeAttempt(h, at)
				if at, err = ek.SignAttempt(hm, seed); err != nil {
					t.Fatal(err)
				}
				writeAttempt(h, at)
				attempts++
			}
		}
		if attempts != 143 {
			t.Fatalf("%s: replayed %d attempts, want 143", b.Name, attempts)
		}
	})
}

// TestNativeGenExpandedKeys compares, bit for bit, the floating-point
// values of the expanded keys (basis in FFT form and normalised ffLDL
// tree) of the 120 signing vectors' keys. Signatures are integers rounded
// from these values and would hide most one-ulp differences; the tree
// does not.
func TestNativeGenExpandedKeys(t *testing.T) {
	vs := loadSignKAT(t)
	comparePaths(t, func(t *testing.T, b arith.Backend, h hash.Hash) {
		for _, v := range vs {
			ek, err := ExpandPrivateKey(b, v.key())
			if err != nil {
				t.Fatal(err)
			}
			var parts [][]float64
			switch k := ek.key.(type) {
			case *expandedKeyNative:
				parts = [][]float64{k.b00, k.b01, k.b10, k.b11, k.tree}
			case *expandedKey[float64]:
				parts = [][]float64{k.b00, k.b01, k.b10, k.b11, k.tree}
			default:
				t.Fatalf("%s: expanded key %T", b.Name, k)
			}
			for _, p := range parts {
				for _, x := range p {
					binary.Write(h, binary.LittleEndian, math.Float64bits(x))
				}
			}
		}
	})
}

// TestNativeGenKAT regenerates NIST KAT records (keys, then signed
// messages) on both paths: the first 2 records of each parameter set with
// -short, 20 of Falcon-512 and 10 of Falcon-1024 without.
func TestNativeGenKAT(t *testing.T) {
	counts := map[uint]int{9: 20, 10: 10}
	if testing.Short() {
		counts = map[uint]int{9: 2, 10: 2}
	}
	for _, logn := range []uint{9, 10} {
		t.Run(fmt.Sprint(1<<logn), func(t *testing.T) {
			comparePaths(t, func(t *testing.T, b arith.Backend, h hash.Hash) {
				for _, r := range katRecords(t, b, b, logn, counts[logn]) {
					h.Write(r.PK)
					h.Write(r.SK)
					h.Write(r.SM)
				}
			})
		})
	}
}

// TestNativeGenKeygen generates keys of every degree 2..1024 (up to 256
// with -short) from several seeds on both paths. Small degrees reject most
// candidates in the floating-point stages (Gram-Schmidt bound, Babai
// reduction), so the rejection paths are compared too: the digest includes
// the number of random bytes each key consumed.
func TestNativeGenKeygen(t *testing.T) {
	maxLogn, seeds := uint(10), 3
	if testing.Short() {
		maxLogn, seeds = 8, 2
	}
	comparePaths(t, func(t *testing.T, b arith.Backend, h hash.Hash) {
		for logn := uint(1); logn <= maxLogn; logn++ {
			for s := range seeds {
				sh := sha3.NewSHAKE256()
				fmt.Fprintf(sh, "native generated vs generic %d %d", logn, s)
				cr := &countingReader{r: sh}
				sk, pk, err := Keygen(b, logn, cr)
				if err != nil {
					t.Fatalf("%s logn %d: %v", b.Name, logn, err)
				}
				h.Write(sk.Encode())
				h.Write(pk.Encode())
				binary.Write(h, binary.LittleEndian, uint64(cr.n))
			}
		}
	})
}

// TestNativeGenSolveNTRU runs NTRUSolve alone on random (f, g), most of
// which it rejects, and compares (F, G, ok) on both paths.
func TestNativeGenSolveNTRU(t *testing.T) {
	trials := 40
	if testing.Short() {
		trials = 10
	}
	comparePaths(t, func(t *testing.T, b arith.Backend, h hash.Hash) {
		e, err := newEngine(b)
		if err != nil {
			t.Fatal(err)
		}
		rng := mrand.New(mrand.NewPCG(1, 2))
		for logn := uint(2); logn <= 9; logn++ {
			for range trials {
				n := 1 << logn
				f, g := make([]int8, n), make([]int8, n)
				for u := range n {
					f[u] = int8(rng.IntN(9) - 4)
					g[u] = int8(rng.IntN(9) - 4)
				}
				bigF, bigG, ok := e.solveNTRU(logn, f, g)
				binary.Write(h, binary.LittleEndian, ok)
				binary.Write(h, binary.LittleEndian, bigF)
				binary.Write(h, binary.LittleEndian, bigG)
			}
		}
	})
}

// TestNativeGenSampler draws from SamplerZ with random centres and
// deviations over the whole range signing uses, and compares the samples
// (and so the random bytes each consumed) on both paths.
func TestNativeGenSampler(t *testing.T) {
	count := 100000
	if testing.Short() {
		count = 10000
	}
	comparePaths(t, func(t *testing.T, b arith.Backend, h hash.Hash) {
		st := engineFor(t, b).(samplerTester)
		rng := mrand.New(mrand.NewPCG(3, 4))
		var seed [prngSeedSize]byte
		var p prng
		p.init(&seed)
		for i := range count {
			logn := uint(9 + i%2)
			mu := (rng.Float64() - 0.5) * 4096
			isigma := 1 / (1.2 + 0.6*rng.Float64())
			binary.Write(h, binary.LittleEndian, st.samplerZ(&p, logn, mu, isigma, 0))
		}
	})
}

// TestNativeGenFFT compares the FFT-domain helpers on random real
// polynomials of every degree, bit for bit.
func TestNativeGenFFT(t *testing.T) {
	comparePaths(t, func(t *testing.T, b arith.Backend, h hash.Hash) {
		ft := engineFor(t, b).(fftTester)
		rng := mrand.New(mrand.NewPCG(5, 6))
		put := func(xs ...[]float64) {
			for _, x := range xs {
				for _, v := range x {
					binary.Write(h, binary.LittleEndian, math.Float64bits(v))
				}
			}
		}
		for logn := uint(1); logn <= 10; logn++ {
			n := 1 << logn
			x, y := make([]float64, n), make([]float64, n)
			for u := range n {
				x[u] = rng.NormFloat64() * 1e3
				y[u] = rng.NormFloat64()
			}
			put(ft.fftRoundTrip(x, logn), ft.fftProduct(x, y, logn), ft.fftAdj(x, logn))
			put(ft.fftSplitMerge(x, logn))
		}
	})
}

// BenchmarkNativePaths measures the generated native code against the
// generic code over the same arithmetic (genericNative): Falcon-512 and
// Falcon-1024 signing on the dynamic and expanded-key paths, and
// Falcon-512 key generation. Sub-benchmark names carry path=generated or
// path=generic, for benchstat -col /path.
func BenchmarkNativePaths(b *testing.B) {
	keys := katKeys(b)
	msg := []byte("benchmark message")
	bs := nativePaths(b)
	for _, logn := range []uint{9, 10} {
		for _, mode := range []string{"dyn", "tree"} {
			for i, be := range bs {
				name := fmt.Sprintf("op=sign%d-%s/path=%s", 1<<logn, mode, [2]string{"generated", "generic"}[i])
				b.Run(name, func(b *testing.B) {
					sk := keys[logn]
					rng := seededRand(9)
					sign := func() error { _, err := Sign(be, sk, msg, Compressed, rng); return err }
					if mode == "tree" {
						ek, err := ExpandPrivateKey(be, sk)
						if err != nil {
							b.Fatal(err)
						}
						sign = func() error { _, err := ek.Sign(msg, Compressed, rng); return err }
					}
					for b.Loop() {
						if err := sign(); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
	for i, be := range bs {
		b.Run("op=keygen512/path="+[2]string{"generated", "generic"}[i], func(b *testing.B) {
			n := 0
			for b.Loop() {
				sh := sha3.NewSHAKE256()
				fmt.Fprintf(sh, "bench %d", n)
				n++
				if _, _, err := Keygen(be, 9, sh); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
