package falcon

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith"
	_ "github.com/fprlab/fprlab/arith/backends"
)

// fpBackends are the binary64 backends every bit-exactness test runs on.
var fpBackends = []string{"native", "emu64"}

// runOnBackends runs fn as a subtest for every backend in names; a
// backend that is not registered is a failure.
func runOnBackends(t *testing.T, names []string, fn func(t *testing.T, b arith.Backend)) {
	t.Helper()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			b, err := arith.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, b)
		})
	}
}

// fftTester is implemented by engineOf in this test file: it exposes the
// generic FFT helpers to backend-agnostic tests through float64 slices.
type fftTester interface {
	// fftRoundTrip imports f, applies fft then ifft, and returns the result.
	fftRoundTrip(f []float64, logn uint) []float64
	// fftProduct returns ifft(fft(x) * fft(y)).
	fftProduct(x, y []float64, logn uint) []float64
	// fftSplitMerge returns fft(f) split into two halves (each converted
	// back with ifft) and fft(f) after split then merge.
	fftSplitMerge(f []float64, logn uint) (f0, f1, merged, direct []float64)
	// fftAdj returns ifft(adj(fft(f))).
	fftAdj(f []float64, logn uint) []float64
}

func (e *engineOf[F, A]) toF(x []float64) []F {
	out := make([]F, len(x))
	for i, v := range x {
		out[i] = e.a.FromFloat64(v)
	}
	return out
}

func (e *engineOf[F, A]) toFloat(x []F) []float64 {
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = e.a.Float64(v)
	}
	return out
}

func (e *engineOf[F, A]) fftRoundTrip(f []float64, logn uint) []float64 {
	x := e.toF(f)
	fft(e.a, x, logn)
	ifft(e.a, x, logn)
	return e.toFloat(x)
}

func (e *engineOf[F, A]) fftProduct(x, y []float64, logn uint) []float64 {
	fx, fy := e.toF(x), e.toF(y)
	fft(e.a, fx, logn)
	fft(e.a, fy, logn)
	polyMulFFT(e.a, fx, fy, logn)
	ifft(e.a, fx, logn)
	return e.toFloat(fx)
}

func (e *engineOf[F, A]) fftSplitMerge(f []float64, logn uint) (f0, f1, merged, direct []float64) {
	n := 1 << logn
	x := e.toF(f)
	fft(e.a, x, logn)
	h0, h1 := make([]F, n/2), make([]F, n/2)
	polySplitFFT(e.a, h0, h1, x, logn)
	m := make([]F, n)
	polyMergeFFT(e.a, m, h0, h1, logn)
	direct = e.toFloat(x)
	merged = e.toFloat(m)
	if logn > 1 {
		ifft(e.a, h0, logn-1)
		ifft(e.a, h1, logn-1)
	}
	return e.toFloat(h0), e.toFloat(h1), merged, direct
}

func (e *engineOf[F, A]) fftAdj(f []float64, logn uint) []float64 {
	x := e.toF(f)
	fft(e.a, x, logn)
	polyAdjFFT(e.a, x, logn)
	ifft(e.a, x, logn)
	return e.toFloat(x)
}

func smallPoly(rng *rand.Rand, n, bound int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = float64(rng.IntN(2*bound+1) - bound)
	}
	return p
}

// checkNearInts checks that got is within tol of the integers want and
// that rounding got gives want exactly.
func checkNearInts(t *testing.T, what string, logn uint, got, want []float64, tol float64) {
	t.Helper()
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol || math.RoundToEven(got[i]) != want[i] {
			t.Fatalf("%s logn %d: coefficient %d = %v, want %v", what, logn, i, got[i], want[i])
		}
	}
}

// TestFFTRoundTrip checks ifft(fft(f)) = f for small integer polynomials
// of every degree: within a tiny error, and exactly after rounding.
func TestFFTRoundTrip(t *testing.T) {
	runOnBackends(t, fpBackends, func(t *testing.T, b arith.Backend) {
		ft := engineFor(t, b).(fftTester)
		rng := rand.New(rand.NewPCG(1, 2))
		for logn := uint(1); logn <= 10; logn++ {
			for range 4 {
				f := smallPoly(rng, 1<<logn, 127)
				checkNearInts(t, "fft/ifft", logn, ft.fftRoundTrip(f, logn), f, 1e-9)
			}
		}
	})
}

// negacyclic returns x*y mod X^n+1 by schoolbook multiplication.
func negacyclic(x, y []float64) []float64 {
	n := len(x)
	out := make([]float64, n)
	for i := range n {
		for j := range n {
			k := i + j
			if k < n {
				out[k] += x[i] * y[j]
			} else {
				out[k-n] -= x[i] * y[j]
			}
		}
	}
	return out
}

// TestFFTProduct checks that the pointwise product in FFT representation
// is the negacyclic product: this fixes the transform up to the order of
// the roots, so it tests the twiddle table and the butterflies.
func TestFFTProduct(t *testing.T) {
	runOnBackends(t, fpBackends, func(t *testing.T, b arith.Backend) {
		ft := engineFor(t, b).(fftTester)
		rng := rand.New(rand.NewPCG(3, 4))
		for logn := uint(1); logn <= 10; logn++ {
			x := smallPoly(rng, 1<<logn, 127)
			y := smallPoly(rng, 1<<logn, 2047)
			checkNearInts(t, "fft product", logn, ft.fftProduct(x, y, logn), negacyclic(x, y), 1e-3)
		}
	})
}

// TestFFTSplitMerge checks that splitting fft(f) gives the FFTs of the
// even and odd coefficients of f, and that merging gives fft(f) back.
func TestFFTSplitMerge(t *testing.T) {
	runOnBackends(t, fpBackends, func(t *testing.T, b arith.Backend) {
		ft := engineFor(t, b).(fftTester)
		rng := rand.New(rand.NewPCG(5, 6))
		for logn := uint(1); logn <= 10; logn++ {
			n := 1 << logn
			f := smallPoly(rng, n, 127)
			f0, f1, merged, direct := ft.fftSplitMerge(f, logn)
			even, odd := make([]float64, n/2), make([]float64, n/2)
			for i := range n / 2 {
				even[i], odd[i] = f[2*i], f[2*i+1]
			}
			if logn == 1 {
				// Degree-1 halves are constants; the "FFT" of a
				// constant is the constant itself.
				checkNearInts(t, "split even", logn, f0, even, 0)
				checkNearInts(t, "split odd", logn, f1, odd, 0)
			} else {
				checkNearInts(t, "split even", logn, f0, even, 1e-9)
				checkNearInts(t, "split odd", logn, f1, odd, 1e-9)
			}
			for i := range direct {
				if math.Abs(merged[i]-direct[i]) > 1e-9*(1+math.Abs(direct[i])) {
					t.Fatalf("merge logn %d: value %d = %v, want %v", logn, i, merged[i], direct[i])
				}
			}
		}
	})
}

// TestFFTAdjoint checks polyAdjFFT against the coefficient definition of
// the adjoint, adj(f) = f(1/X) mod X^n+1: f_0 - f_{n-1} X - ... - f_1 X^{n-1}.
func TestFFTAdjoint(t *testing.T) {
	runOnBackends(t, fpBackends, func(t *testing.T, b arith.Backend) {
		ft := engineFor(t, b).(fftTester)
		rng := rand.New(rand.NewPCG(7, 8))
		for logn := uint(1); logn <= 10; logn++ {
			n := 1 << logn
			f := smallPoly(rng, n, 127)
			want := make([]float64, n)
			want[0] = f[0]
			for i := 1; i < n; i++ {
				want[i] = -f[n-i]
			}
			checkNearInts(t, "adjoint", logn, ft.fftAdj(f, logn), want, 1e-9)
		}
	})
}

func engineFor(t testing.TB, b arith.Backend) engine {
	t.Helper()
	e, err := newEngine(b)
	if err != nil {
		t.Fatal(err)
	}
	return e
}
