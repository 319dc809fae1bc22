package falcon

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/big"
	mrand "math/rand/v2"
	"testing"

	"github.com/fprlab/fprlab/arith/native"
)

// vecKernelValue draws a test operand: mostly Gaussian values of varied
// scale, with signed zeros, subnormals, values near the overflow threshold
// and exact small integers mixed in, so that every rounding case and the
// sign of zero results are exercised. (Products and inversions of the
// extreme values overflow, so infinities and NaNs occur in the outputs;
// Falcon never produces them.)
func vecKernelValue(rng *mrand.Rand) float64 {
	// A random 53-bit signed integer, exactly converted, scaled exactly:
	// integer operations only, so the operands do not depend on how the
	// compiler builds math's functions (NormFloat64's tails call math.Exp,
	// which GOAMD64=v3 builds with FMA).
	m := float64(int64(rng.Uint64()>>11) - 1<<52)
	switch rng.IntN(16) {
	case 0:
		return 0
	case 1:
		return math.Copysign(0, -1)
	case 2:
		return math.Ldexp(m, -1074-40) // subnormal (or zero)
	case 3:
		return math.Ldexp(m, 1000-52)
	case 4:
		return float64(rng.IntN(5) - 2)
	}
	return math.Ldexp(m, rng.IntN(80)-40-52)
}

// TestVectorKernels runs every FFT-domain kernel that has a vector hook
// (fft_vec.go) through the native instance's copy (zz_native_gen.go: the
// AVX2 kernels of fft_vec_simd_amd64.go in the GOEXPERIMENT=simd build on
// an AVX2 CPU, the scalar loops otherwise) and through the generic code
// (whose hooks always return false), for every degree 2..1024 on 30
// random operand sets each, and requires the same bits from both (any two
// NaNs count as equal). The SHA-256 of all outputs is pinned (computed by
// the default build), so the two builds, and GOAMD64=v3, where the
// compiler may contract scalar products into FMA, are also checked against
// each other.
func TestVectorKernels(t *testing.T) {
	const want = "c374166b4f6bb7ef70ccc62d9ed77aa74167d15a34c9ec975ff645bb28b27754"
	t.Logf("vector FFT kernels: %v", vectorFFT())
	var a native.Arith
	d := sha256.New()
	rng := mrand.New(mrand.NewPCG(12, 34))
	compare := func(name string, logn uint, gen, gener [][]float64) {
		t.Helper()
		for k := range gen {
			for i := range gen[k] {
				x, y := gen[k][i], gener[k][i]
				if math.IsNaN(x) && math.IsNaN(y) {
					// Which NaN an operation with two NaN operands
					// returns depends on the operand order the compiler
					// picks (x86 returns the first): not part of the
					// contract, and hashed as one value.
					binary.Write(d, binary.LittleEndian, uint64(0x7ff8000000000000))
					continue
				}
				if math.Float64bits(x) != math.Float64bits(y) {
					t.Fatalf("%s, logn %d: output %d, element %d: native copy %v (%#x), generic %v (%#x)",
						name, logn, k, i, x, math.Float64bits(x), y, math.Float64bits(y))
				}
				binary.Write(d, binary.LittleEndian, math.Float64bits(x))
			}
		}
	}
	for logn := uint(1); logn <= 10; logn++ {
		n := 1 << logn
		for range 30 {
			in := make([][]float64, 5)
			for k := range in {
				in[k] = make([]float64, n)
				for i := range in[k] {
					in[k][i] = vecKernelValue(rng)
				}
			}
			c := vecKernelValue(rng)
			// run gives both paths fresh copies of the operands.
			run := func(name string, nargs int, nat, gener func(x [][]float64)) {
				t.Helper()
				x, y := make([][]float64, nargs), make([][]float64, nargs)
				for k := range nargs {
					x[k] = append([]float64(nil), in[k]...)
					y[k] = append([]float64(nil), in[k]...)
				}
				nat(x)
				gener(y)
				compare(name, logn, x, y)
			}
			type nA = native.Arith
			run("fft", 1, func(x [][]float64) { fftNative(a, x[0], logn) }, func(x [][]float64) { fft[float64, nA](a, x[0], logn) })
			run("ifft", 1, func(x [][]float64) { ifftNative(a, x[0], logn) }, func(x [][]float64) { ifft[float64, nA](a, x[0], logn) })
			run("polyAdd", 2, func(x [][]float64) { polyAddNative(a, x[0], x[1], logn) }, func(x [][]float64) { polyAdd[float64, nA](a, x[0], x[1], logn) })
			run("polySub", 2, func(x [][]float64) { polySubNative(a, x[0], x[1], logn) }, func(x [][]float64) { polySub[float64, nA](a, x[0], x[1], logn) })
			run("polyNeg", 1, func(x [][]float64) { polyNegNative(a, x[0], logn) }, func(x [][]float64) { polyNeg[float64, nA](a, x[0], logn) })
			run("polyMulFFT", 2, func(x [][]float64) { polyMulFFTNative(a, x[0], x[1], logn) }, func(x [][]float64) { polyMulFFT[float64, nA](a, x[0], x[1], logn) })
			run("polyMuladjFFT", 2, func(x [][]float64) { polyMuladjFFTNative(a, x[0], x[1], logn) }, func(x [][]float64) { polyMuladjFFT[float64, nA](a, x[0], x[1], logn) })
			run("polyMulselfadjFFT", 1, func(x [][]float64) { polyMulselfadjFFTNative(a, x[0], logn) }, func(x [][]float64) { polyMulselfadjFFT[float64, nA](a, x[0], logn) })
			run("polyMulconst", 1, func(x [][]float64) { polyMulconstNative(a, x[0], c, logn) }, func(x [][]float64) { polyMulconst[float64, nA](a, x[0], c, logn) })
			run("polyLDLFFT", 3, func(x [][]float64) { polyLDLFFTNative(a, x[0], x[1], x[2], logn) }, func(x [][]float64) { polyLDLFFT[float64, nA](a, x[0], x[1], x[2], logn) })
			run("polyLDLmvFFT", 5, func(x [][]float64) { polyLDLmvFFTNative(a, x[0], x[1], x[2], x[3], x[4], logn) }, func(x [][]float64) { polyLDLmvFFT[float64, nA](a, x[0], x[1], x[2], x[3], x[4], logn) })
			run("polySplitFFT", 3, func(x [][]float64) { polySplitFFTNative(a, x[0], x[1], x[2], logn) }, func(x [][]float64) { polySplitFFT[float64, nA](a, x[0], x[1], x[2], logn) })
			run("polyMergeFFT", 3, func(x [][]float64) { polyMergeFFTNative(a, x[0], x[1], x[2], logn) }, func(x [][]float64) { polyMergeFFT[float64, nA](a, x[0], x[1], x[2], logn) })
		}
	}
	if got := hex.EncodeToString(d.Sum(nil)); got != want {
		t.Fatalf("SHA-256 of all kernel outputs = %s, want %s", got, want)
	}
}

// TestVectorGaussian0 compares the base sampler (gaussian0: the vector
// count of sampler_vec_simd_amd64.go in the GOEXPERIMENT=simd build on an
// AVX2 CPU) with its portable loop on every table entry and its
// neighbours (u = w-1, w, w+1, where the count changes) and on 200,000
// random 72-bit values.
func TestVectorGaussian0(t *testing.T) {
	check := func(lo uint64, hi uint32) {
		t.Helper()
		if got, want := gaussian0(lo, hi), gaussian0Loop(lo, hi); got != want {
			t.Fatalf("gaussian0(lo %#x, hi %#x) = %d, portable loop %d", lo, hi, got, want)
		}
	}
	for _, w := range rcdt {
		// The 72-bit entry as hi (top 8 bits) and lo (low 64 bits).
		v := new(big.Int).Lsh(big.NewInt(int64(w[0])), 48)
		v.Or(v, new(big.Int).Lsh(big.NewInt(int64(w[1])), 24))
		v.Or(v, big.NewInt(int64(w[2])))
		for _, d := range []int64{-1, 0, 1} {
			u := new(big.Int).Add(v, big.NewInt(d))
			if u.Sign() < 0 {
				continue
			}
			lo := new(big.Int).And(u, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
			check(lo, uint32(new(big.Int).Rsh(u, 64).Uint64()))
		}
	}
	rng := mrand.New(mrand.NewPCG(7, 8))
	for range 200000 {
		check(rng.Uint64(), uint32(rng.IntN(256)))
	}
}
