package falcon

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/fips206"
	"github.com/fprlab/fprlab/internal/shakeprng"
)

// The floating-point part of FN-DSA signing (the FIPS 206 draft; FIPS 206
// is not final), as the FN-DSA implementations that track it compute it
// (pornin's go-fn-dsa at commit e24833f, interoperable with c-fn-dsa and
// rust-fn-dsa). The scheme layer -- nonces, hash-to-point with a
// domain-separation context and a pre-hash identifier, encodings -- is
// package fndsa; this file holds only what runs inside the generic engine
// over a backend, so that every backend, observer, precision plan and
// shadow that signs round 3 also signs FN-DSA.
//
// One attempt differs from round 3's dynamic path (doSignDyn) in three
// places, all inside ffSampling and the sampler:
//
//   - the sampler's random bytes are the SHAKE256 stream of the 56-byte
//     attempt seed (internal/shakeprng) instead of ChaCha20;
//   - the LDL decomposition at every node uses that g00 and g11 are
//     self-adjoint (real in FFT form): mu = g01 * (1/g00) with one real
//     inversion, d11 = g11 - Re(mu adj(g01)), and the split of d00 and d11
//     takes real values only (polyLDLSelfAdjFFT, polySplitSelfAdjFFT),
//     where round 3 divides complex numbers and carries the rounding noise
//     of the imaginary parts;
//   - the leaves are normalised with 1/sigma correctly rounded to binary64
//     (fips206InvSigma), where round 3's table fpr_inv_sigma is one ulp
//     above it at every degree;
//   - ApproxExp is the integer evaluation of the FACCT polynomial on
//     floor(2^63 x) and floor(2^63 ccs) for every backend (expmP63Int),
//     where round 3 lets each backend evaluate it its own way (ExpmP63;
//     fips206.ExpmP63 holds the integer one).
//
// Basis, Gram matrix, target, base sampler, BerExp and the final
// lattice point are round 3's, operation for operation.

func init() {
	fips206.SignAttempt = signAttemptFIPS206
	fips206.SignAttempt2026 = signAttemptFIPS206Draft2026
	fips206.SolveNTRU = solveNTRUFIPS206
	fips206.SolveNTRU2026 = solveNTRUFIPS206Draft2026
}

// fnDSAProfile selects what a dynamic-path attempt runs: round 3's
// sampler and ffSampling, or FN-DSA's as one of its drafts defines them.
type fnDSAProfile uint8

const (
	round3Profile fnDSAProfile = iota
	// fnDSA2025Profile is FN-DSA as go-fn-dsa e24833f signs (this file's
	// description above).
	fnDSA2025Profile
	// fnDSA2026Profile is the July 2026 draft as rust-fn-dsa 0.4.0 signs:
	// the 2025 profile with the new base sampler (gaussian0Draft2026,
	// 80 random bits per draw, the sign bit among them), and the sampler
	// stream starting after the attempt's nonce, which the scheme reads
	// from the same stream.
	fnDSA2026Profile
)

// signAttemptFIPS206 implements fips206.SignAttempt: one FN-DSA signing
// attempt over backend b on the hashed point hm, with the sampler reading
// the SHAKE256 stream of seed (fips206.SeedSize bytes). G is recomputed
// from f, g and F as in SignAttemptDyn. The attempt's s2 is the FN-DSA
// signature's when short (package fndsa encodes it and retries on a
// failed encoding).
func signAttemptFIPS206(b arith.Backend, logn uint, f, g, F, G []int8, hm []uint16, seed []byte) ([]int16, bool, error) {
	at, err := runFIPS206(b, logn, f, g, F, G, hm, seed, fips206.SeedSize, fnDSA2025Profile)
	if err != nil {
		return nil, false, err
	}
	return at.S2, at.Short, nil
}

// signAttemptFIPS206Draft2026 implements fips206.SignAttempt2026.
func signAttemptFIPS206Draft2026(b arith.Backend, logn uint, f, g, F, G []int8, hm []uint16, seed []byte) ([]int16, []int16, bool, error) {
	at, err := runFIPS206(b, logn, f, g, F, G, hm, seed, fips206.SeedSize2026, fnDSA2026Profile)
	if err != nil {
		return nil, nil, false, err
	}
	return at.S1, at.S2, at.Short, nil
}

// runFIPS206 runs one FN-DSA attempt of profile prof over b, checking
// the arguments first (seedSize is the profile's seed length).
func runFIPS206(b arith.Backend, logn uint, f, g, F, G []int8, hm []uint16, seed []byte, seedSize int, prof fnDSAProfile) (*Attempt, error) {
	e, full, hNTT, err := engineAndKey(b, &PrivateKey{LogN: logn, SmallF: f, SmallG: g, BigF: F, BigG: G})
	if err != nil {
		return nil, err
	}
	if err := checkHashed(hm, full.LogN); err != nil {
		return nil, err
	}
	if len(seed) != seedSize {
		return nil, fmt.Errorf("falcon: FN-DSA sampler seed is %d bytes, want %d", len(seed), seedSize)
	}
	return e.attemptFIPS206(full, hNTT, hm, seed, prof)
}

// attemptFIPS206 implements signEngine. In the 2026 profile the first
// NonceSize bytes of the stream are the attempt's nonce, which the
// scheme has read already: the sampler starts after them.
func (e *engineOf[F, A]) attemptFIPS206(sk *PrivateKey, hNTT, hm []uint16, seed []byte, prof fnDSAProfile) (*Attempt, error) {
	p := shakeprng.New(seed)
	if prof == fnDSA2026Profile {
		p.Skip(NonceSize)
	}
	return e.runAttemptDyn(sk, hNTT, hm, p, prof)
}

// fips206InvSigma is FN-DSA's 1/sigma for logn = 1..10 (entry 0 unused),
// sigma = 1.17 sqrt(q) sigma_min with round 3's sigma_min, correctly
// rounded to binary64: go-fn-dsa's inv_sigma table, which
// arith.InvSigmaFormula reproduces (TestFIPS206InvSigma). Every backend
// imports it exactly as the scheme's parameter, as the shadow's default
// (SigmaReference) does with round 3's table.
var fips206InvSigma = [...]float64{
	0,
	0x1.c48eb7e241699p-8, 0x1.be50a548caed8p-8, 0x1.b852ee09e762bp-8, 0x1.afc5ed3cada35p-8,
	0x1.a7b3b0976b3ecp-8, 0x1.a011282ca9c97p-8, 0x1.98d49ce5f2735p-8, 0x1.91f57c56ed9edp-8,
	0x1.8b6c2de64c7c9p-8, 0x1.8531ef6311ae2p-8,
}

// polyLDLSelfAdjFFT is FN-DSA's LDL decomposition of the self-adjoint
// G = [[g00, g01], [adj(g01), g11]] in place, for g00 and g11 whose FFT
// values are real (their imaginary halves are ignored): at every root
//
//	mu  = g01 * (1/g00)                 (one inversion, two products)
//	d11 = g11 - (mu_re g01_re + mu_im g01_im)
//	l10 = adj(mu)
//
// g01 receives l10 and g11 receives d11, with a zero imaginary half.
func polyLDLSelfAdjFFT[F any, A arith.Arith[F]](a A, g00, g01, g11 []F, logn uint) {
	hn := 1 << logn >> 1
	zero := a.Const(arith.Zero)
	for u := range hn {
		inv := a.Inv(g00[u])
		mur := a.Mul(g01[u], inv)
		mui := a.Mul(g01[u+hn], inv)
		zo := a.Add(a.Mul(mur, g01[u]), a.Mul(mui, g01[u+hn]))
		g11[u] = a.Sub(g11[u], zo)
		g11[u+hn] = zero
		g01[u] = mur
		g01[u+hn] = a.Neg(mui)
	}
}

// polySplitSelfAdjFFT is polySplitFFT for an f whose FFT values are real
// (only f[:n/2] is read): f0 is real too, and f1's values are
// ((f(w) - f(-w))/2) conj(w) with a real first factor.
func polySplitSelfAdjFFT[F any, A arith.Arith[F]](a A, f0, f1, f []F, logn uint) {
	n := 1 << logn
	hn := n >> 1
	qn := hn >> 1
	zero := a.Const(arith.Zero)
	if logn == 1 {
		f0[0] = f[0]
		f1[0] = zero
		return
	}
	for u := range qn {
		ar, br := f[u<<1], f[(u<<1)+1]
		f0[u] = a.Half(a.Add(ar, br))
		f0[u+qn] = zero
		t := a.Half(a.Sub(ar, br))
		f1[u] = a.Mul(t, a.GM((u+hn)<<1))
		f1[u+qn] = a.Mul(t, a.Neg(a.GM(((u+hn)<<1)+1)))
	}
}
