package falcon

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/fprlab/fprlab/arith"
)

// Key generation (Falcon-impl-20211101 Zf(keygen)).
//
// The random source is consumed exactly as the reference consumes its
// SHAKE256 context: 8 bytes at a time, read as little-endian 64-bit words,
// and only by the Gaussian sampler of f and g. So the same stream gives
// the same key, and the NIST KAT keys are reproduced by feeding the KAT's
// SHAKE256 stream.
//
// Floating point is used twice: for the Gram-Schmidt norm bound on (f, g)
// and inside NTRUSolve's Babai reductions. Both go through the backend,
// so a backend whose arithmetic differs from binary64 may produce another
// key from the same stream (or the same key after a different number of
// rejected candidates).

// keygenEngine is the key-generation half of an engine.
type keygenEngine interface {
	// keygen draws keys of degree 2^logn from rng until one passes every
	// check, and returns f, g, F, G and h.
	// At most maxFailures consecutive candidates may fail the
	// floating-point checks.
	keygen(logn uint, rng io.Reader, maxFailures int) (*PrivateKey, *PublicKey, error)
	// solveNTRU runs NTRUSolve alone on (f, g) of degree 2^logn; ok is false
	// when the reference would reject the candidate.
	solveNTRU(logn uint, f, g []int8) (bigF, bigG []int8, ok bool)
	// checkRange reports whether the backend's exponent range suffices
	// for NTRUSolve (nil) or not (ErrKeygenRange).
	checkRange() error
}

// Keygen generates a Falcon key pair of degree 2^logn (1 <= logn <= 10)
// with the floating-point backend b. rng is the keygen random stream,
// consumed as the reference consumes its SHAKE256 context; for the
// reference's keys, pass a SHAKE256 instance that has absorbed the seed.
//
// Errors: a bad logn or backend, a failing rng, a backend whose exponent
// range is too small for NTRUSolve (ErrKeygenRange: binary32-based
// arithmetics), or a backend under which thousands of consecutive
// candidates fail the floating-point checks (the reference would loop
// forever).
func Keygen(b arith.Backend, logn uint, rng io.Reader) (*PrivateKey, *PublicKey, error) {
	return keygenLimit(b, logn, rng, maxKeygenFailures)
}

// keygenLimit is Keygen giving up (with an error wrapping ErrKeygenFailures)
// after maxFailures consecutive candidates fail the floating-point checks
// instead of the default 4096: over a backend with too little precision
// every candidate fails, and a precision sweep (KATOptions.MaxKeygenFailures)
// wants to know that quickly.
func keygenLimit(b arith.Backend, logn uint, rng io.Reader, maxFailures int) (*PrivateKey, *PublicKey, error) {
	if maxFailures < 1 {
		return nil, nil, fmt.Errorf("falcon: keygen failure limit %d, want at least 1", maxFailures)
	}
	if _, err := ParamsFor(logn); err != nil {
		return nil, nil, err
	}
	if rng == nil {
		return nil, nil, errors.New("falcon: keygen needs a random source")
	}
	e, err := newEngine(b)
	if err != nil {
		return nil, nil, err
	}
	return e.keygen(logn, rng, maxFailures)
}

// KeygenSupported reports whether backend b can run key generation: nil,
// or an error wrapping ErrKeygenRange for a backend whose exponent range
// is too small for NTRUSolve.
func KeygenSupported(b arith.Backend) error {
	e, err := newEngine(b)
	if err != nil {
		return err
	}
	return e.checkRange()
}

// gauss1024 is the reference's discrete Gaussian table for f and g, for
// standard deviation 1.17*sqrt(q/(2*1024)), scaled by 2^63: entry 0 is
// P(x = 0); entry k > 0 is P(|x| >= k+1 | x != 0). (Data of the reference,
// checked against the distribution in keygen_test.go.)
var gauss1024 = [...]uint64{
	1283868770400643928, 6416574995475331444, 4078260278032692663,
	2353523259288686585, 1227179971273316331, 575931623374121527,
	242543240509105209, 91437049221049666, 30799446349977173,
	9255276791179340, 2478152334826140, 590642893610164,
	125206034929641, 23590435911403, 3948334035941,
	586753615614, 77391054539, 9056793210,
	940121950, 86539696, 7062824,
	510971, 32764, 1862,
	94, 4, 0,
}

// keygenRNG reads 64-bit words from the keygen stream; the first read
// error is kept and later reads return 0.
type keygenRNG struct {
	r   io.Reader
	buf [8]byte
	err error
}

func (g *keygenRNG) u64() uint64 {
	if g.err != nil {
		return 0
	}
	if _, err := io.ReadFull(g.r, g.buf[:]); err != nil {
		g.err = fmt.Errorf("falcon: reading the keygen random stream: %w", err)
		return 0
	}
	return binary.LittleEndian.Uint64(g.buf[:])
}

// mkgauss returns one coefficient: the sum of 2^(10-logn) samples of the
// degree-1024 Gaussian, which has the variance the degree 2^logn needs.
// Each sample takes two words: the first gives the sign and decides
// whether the value is 0, the second (63 bits) selects the magnitude by
// a full, constant-time scan of the table.
func mkgauss(rng *keygenRNG, logn uint) int32 {
	var val int32
	for range 1 << (10 - logn) {
		r := rng.u64()
		neg := uint32(r >> 63)
		r &^= 1 << 63
		f := uint32((r - gauss1024[0]) >> 63)

		var v uint32
		r = rng.u64()
		r &^= 1 << 63
		for k := 1; k < len(gauss1024); k++ {
			t := uint32((r-gauss1024[k])>>63) ^ 1
			v |= uint32(k) & -(t & (f ^ 1))
			f |= t
		}
		v = (v ^ -neg) + neg
		val += int32(v)
	}
	return val
}

// polySmallMkgauss samples a polynomial with coefficients in -127..127
// whose coefficient sum is odd (so that its resultant with X^n+1 is odd,
// which the binary GCD of NTRUSolve needs). An out-of-range coefficient,
// or a last coefficient of the wrong parity, is resampled in place.
func polySmallMkgauss(rng *keygenRNG, logn uint) []int8 {
	n := 1 << logn
	f := make([]int8, n)
	var mod2 uint32
	for u := 0; u < n; u++ {
		for {
			s := mkgauss(rng, logn)
			if rng.err != nil {
				return f
			}
			if s < -127 || s > 127 {
				continue
			}
			if u == n-1 {
				if mod2^uint32(s&1) == 0 {
					continue
				}
			} else {
				mod2 ^= uint32(s & 1)
			}
			f[u] = int8(s)
			break
		}
	}
	return f
}

// polySmallSqnorm returns the squared norm of f, saturated to 2^32-1 if it
// reaches 2^31.
func polySmallSqnorm(f []int8) uint32 {
	var s, ng uint32
	for _, z := range f {
		s += uint32(int32(z) * int32(z))
		ng |= s
	}
	return s | -(ng >> 31)
}

// gsNormOK reports whether the Gram-Schmidt norm of the basis row (g, -f)
// is below 1.17*sqrt(q): the squared norm of
// (q adj(f), q adj(g)) / (f adj(f) + g adj(g)), computed in floating point
// as the reference does, must be below arith.BnormMax = 16822.4121.
func (e *engineOf[F, A]) gsNormOK(f, g []int8, logn uint) bool {
	a := e.a
	n := 1 << logn
	rt1 := make([]F, n)
	rt2 := make([]F, n)
	rt3 := make([]F, n)
	for u := range n {
		rt1[u] = a.Of(int64(f[u]))
		rt2[u] = a.Of(int64(g[u]))
	}
	fft(a, rt1, logn)
	fft(a, rt2, logn)
	polyInvnorm2FFT(a, rt3, rt1, rt2, logn)
	polyAdjFFT(a, rt1, logn)
	polyAdjFFT(a, rt2, logn)
	q := a.Const(arith.Q)
	polyMulconst(a, rt1, q, logn)
	polyMulconst(a, rt2, q, logn)
	polyMulAutoadjFFT(a, rt1, rt3, logn)
	polyMulAutoadjFFT(a, rt2, rt3, logn)
	ifft(a, rt1, logn)
	ifft(a, rt2, logn)
	bnorm := a.Const(arith.Zero)
	for u := range n {
		bnorm = a.Add(bnorm, a.Sqr(rt1[u]))
		bnorm = a.Add(bnorm, a.Sqr(rt2[u]))
	}
	ok := a.Lt(bnorm, a.Const(arith.BnormMax))
	if e.obs != nil {
		e.obs.Stage(StageGSNorm, int(logn), 0, []F{bnorm})
	}
	return ok
}

func (e *engineOf[F, A]) solveNTRU(logn uint, f, g []int8) (bigF, bigG []int8, ok bool) {
	p := mustParams(logn)
	kc, _ := e.obs.(KeygenCounter)
	s := &ntruSolver[F, A]{a: e.a, logn: logn, f: f, g: g, obs: e.obs}
	if kc != nil {
		s.mc = new(modpCounter)
	}
	bigF, bigG, ok = s.solve(int32(1)<<(p.BigFGBits-1) - 1)
	if kc != nil {
		kc.NTRUSolve(logn, s.mc.n, ok)
	}
	return bigF, bigG, ok
}

// keygenExpRange is the binary exponent range NTRUSolve's floating-point
// values reach: the Babai reduction converts the top 10 31-bit words of
// big integers, accumulating weights up to 2^(31*11) = 2^341, and scales
// results by powers of two as small as 2^-256.
const keygenExpRange = 341

// ErrKeygenRange reports a backend whose exponent range is too small for
// key generation (binary32-based arithmetics): the reference's NTRUSolve
// relies on binary64's range, so such a backend could only fail forever.
var ErrKeygenRange = errors.New("falcon: the backend's exponent range does not reach 2^±341, which the reference's NTRUSolve needs")

// ErrKeygenFailures is wrapped by the error of a key generation that gave
// up after too many consecutive candidates failed the floating-point checks.
var ErrKeygenFailures = errors.New("falcon: keygen: candidates kept failing the Gram-Schmidt bound or NTRUSolve")

// maxKeygenFailures bounds the number of consecutive (f, g) candidates that
// pass the integer norm check but fail a floating-point dependent stage
// (the Gram-Schmidt bound or NTRUSolve). Over binary64 the longest runs
// measured are about 25 (Falcon-8 fails NTRUSolve on ~85% of candidates);
// 4096 consecutive failures only happen with a backend that cannot work.
// (A variable so that tests can exercise the limit quickly.)
var maxKeygenFailures = 4096

// checkRange reports whether the backend represents 2^341 and 2^-341: each
// must come back unchanged from a round trip through the backend (import,
// then rounding to binary64); a too small exponent range turns them into an
// infinity or a zero. It uses conversions only, no arithmetic operation, so
// that key generation performs exactly the reference's sequence of fpr
// operations (the reference has no such check; package accel's operation
// counts are compared with the reference's).
func (e *engineOf[F, A]) checkRange() error {
	a := e.a
	for _, v := range []float64{math.Ldexp(1, keygenExpRange), math.Ldexp(1, -keygenExpRange)} {
		if a.Float64(a.FromFloat64(v)) != v {
			return fmt.Errorf("%w (backend %s)", ErrKeygenRange, e.b.Name)
		}
	}
	return nil
}

func (e *engineOf[F, A]) keygen(logn uint, r io.Reader, maxFailures int) (*PrivateKey, *PublicKey, error) {
	p, err := ParamsFor(logn)
	if err != nil {
		return nil, nil, err
	}
	if err := e.checkRange(); err != nil {
		return nil, nil, err
	}
	rng := &keygenRNG{r: r}
	kc, _ := e.obs.(KeygenCounter)
	failures := 0
	for candidate := 0; ; {
		if failures >= maxFailures {
			return nil, nil, fmt.Errorf("%w: backend %s, %d consecutive candidates", ErrKeygenFailures, e.b.Name, failures)
		}
		f := polySmallMkgauss(rng, logn)
		g := polySmallMkgauss(rng, logn)
		if rng.err != nil {
			return nil, nil, rng.err
		}

		// Coefficients must fit the trim encoding of the private key.
		lim := int32(1) << (p.FGBits - 1)
		if !allBelow(f, lim) || !allBelow(g, lim) {
			continue
		}

		// ||(g, -f)||^2 < 1.17^2 q, exactly in integers.
		nf, ng := polySmallSqnorm(f), polySmallSqnorm(g)
		if norm := (nf + ng) | -((nf | ng) >> 31); norm >= 16823 {
			continue
		}
		if e.obs != nil {
			e.obs.Stage(StageCandidate, int(logn), candidate)
		}
		candidate++
		if !e.gsNormOK(f, g, logn) {
			failures++
			continue
		}

		// h = g/f mod q; f must be invertible.
		h, divided := computePublic(f, g, logn, kc != nil)
		if kc != nil {
			kc.ComputePublic(logn, divided)
		}
		if h == nil {
			continue
		}

		bigF, bigG, ok := e.solveNTRU(logn, f, g)
		if !ok {
			failures++
			continue
		}
		sk := &PrivateKey{LogN: logn, SmallF: f, SmallG: g, BigF: bigF, BigG: bigG}
		return sk, &PublicKey{LogN: logn, H: h}, nil
	}
}

// allBelow reports whether every |x[u]| < lim.
func allBelow(x []int8, lim int32) bool {
	for _, v := range x {
		if int32(v) >= lim || int32(v) <= -lim {
			return false
		}
	}
	return true
}
