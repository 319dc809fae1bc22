package falcon

import (
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// Signing (Falcon specification v1.2, Algorithm 10; Falcon-impl-20211101
// sign.c and falcon.c).
//
// A signature of msg is a nonce r and the short polynomial s2 such that
// s1 + s2 h = HashToPoint(r || msg) mod q with (s1, s2) short. With the
// secret basis B = [[b00, b01], [b10, b11]] = [[g, -f], [G, -F]]
// (det B = q), the signer maps the hashed point hm to the target
//
//	(t0, t1) = (hm, 0) B^-1 = (hm b11 / q, -hm b01 / q),
//
// samples an integer vector (z0, z1) close to it with ffSampling, and
// returns the difference between (hm, 0) and the lattice point (z0, z1) B:
//
//	s1 = hm - round(z0 b00 + z1 b10),  s2 = -round(z0 b01 + z1 b11).
//
// An attempt whose squared norm exceeds the bound is discarded and the
// next attempt reseeds the sampler.
//
// Two paths compute the same thing: the expanded-key path (ExpandedKey,
// Zf(sign_tree)) keeps the basis and the ffLDL tree, the dynamic path
// (Sign, Zf(sign_dyn)) rebuilds them for every attempt. Both follow the
// reference's operation order on their own path.
//
// Randomness. Every signature reads, from the caller's rng: 40 bytes of
// nonce, then 56 bytes per attempt to seed the sampler's ChaCha20
// generator (internal/samplerprng). With rng the SHAKE256 stream of the reference's
// falcon.h API tests, the signatures are the reference's byte for byte.
//
// Warning (Lin, Tibouchi, Yu, Zhang, "Do Not Disturb a Sleeping Falcon",
// Eurocrypt 2025): two signatures of the same hashed point produced by
// arithmetics that differ in any floating-point detail leak the secret
// key. Backends differ by design (ExpmP63 differs per backend), so a real
// key must only ever sign with fresh random nonces, and a fixed rng must
// never be replayed on two backends for a real key.

// signEngine is the signing half of an engine: the generic code of this
// file, instantiated for one backend.
type signEngine interface {
	// expandKey computes the expanded key (*expandedKey[F]) of a complete
	// key (G present).
	expandKey(sk *PrivateKey) any
	// attemptTree and attemptDyn run one signing attempt with the sampler
	// seeded from seed, on the expanded-key and on the dynamic path.
	// hNTT is the public key h = g/f mod q in NTT form (completeKeyNTT), with
	// which every attempt recomputes s1 exactly.
	attemptTree(key any, hNTT, hm []uint16, seed *[SeedSize]byte) (*Attempt, error)
	attemptDyn(sk *PrivateKey, hNTT, hm []uint16, seed *[SeedSize]byte) (*Attempt, error)
	// attemptFIPS206 runs one FN-DSA attempt (fips206.go) on the dynamic
	// path with the sampler reading the SHAKE256 stream of seed, as the
	// profile prof defines it.
	attemptFIPS206(sk *PrivateKey, hNTT, hm []uint16, seed []byte, prof fnDSAProfile) (*Attempt, error)
}

// SeedSize is the number of bytes a signing attempt reads from the
// caller's random source to seed the sampler (Zf(prng_init)).
const SeedSize = samplerprng.SeedSize

// maxAttempts bounds the number of attempts of one signature (both retry
// loops together). The reference loops until an attempt succeeds; an
// attempt fails with probability at most about 0.4 (n = 4 and 8; 0 in
// practice from n = 64 on), so a sound backend reaches the bound with
// probability below 2^-300. The bound only turns a backend whose
// arithmetic cannot produce short vectors into an error instead of an
// endless loop (an attempt on a big-float backend takes about 0.1 s).
const maxAttempts = 256

// Attempt is the outcome of one signing attempt with one sampler seed.
//
// s2 comes from the floating-point computation; s1 is then recomputed
// exactly as s1 = hm - s2 h mod q (centred), which is what a verifier
// computes, so that an attempt accepted as short always verifies. The
// reference takes s1 from the floating-point lattice point instead; over
// binary64 the two agree (the lattice point is within far less than 1/2 of
// an integer), so signatures and KATs are the reference's. Over a backend
// without enough precision they can differ, and the floating-point s1 would
// have produced signatures that do not verify.
type Attempt struct {
	// S1 and S2 are the candidate signature vectors (s1 = hm - s2 h mod q),
	// truncated to 16 bits as the reference stores them.
	S1, S2 []int16
	// SqNorm is ||(s1, s2)||^2, computed in 32 bits like the reference:
	// at least 2^31 whenever the exact value is.
	SqNorm uint32
	// Short reports SqNorm <= Params.L2Bound: the attempt is a signature.
	Short bool
	// FloatS1Mismatches counts the coefficients where the s1 rounded from
	// the floating-point lattice point differed from the exact s1 (0 for
	// any sound backend).
	FloatS1Mismatches int
}

// Failure says why the attempt is not a signature ("" when it is).
func (at *Attempt) Failure() string {
	if at.Short {
		return ""
	}
	msg := fmt.Sprintf("||(s1, s2)||^2 = %d exceeds the bound", at.SqNorm)
	if at.SqNorm >= 1<<31 {
		msg = "||(s1, s2)||^2 overflows 2^31"
	}
	if at.FloatS1Mismatches > 0 {
		msg += fmt.Sprintf(" (the floating-point s1 was wrong in %d coefficients)", at.FloatS1Mismatches)
	}
	return msg
}

// ErrSignAttempts is returned when no attempt produced a short vector
// within the bound on attempts (a backend without enough precision).
var ErrSignAttempts = errors.New("falcon: no short signature after the maximum number of attempts")

// ErrSamplerStuck is returned when SamplerZ rejects far more often than
// possible with a sound backend (see sampler.maxIter).
var ErrSamplerStuck = errors.New("falcon: SamplerZ rejected every candidate (the backend's arithmetic is unusable for sampling)")

// ExpandedKey is a private key prepared for signing over one backend: the
// basis in FFT form and the normalised ffLDL tree (falcon_expand_privkey).
// Signing with it skips the tree computation. It is safe for concurrent
// use.
type ExpandedKey struct {
	logn uint
	e    engine
	key  any
	hNTT []uint16 // the public key in NTT form, for the exact s1
}

// ExpandPrivateKey computes the expanded key of sk over backend b. G is
// recomputed from f, g and F (as the reference does); if sk.BigG is set it
// must equal the recomputed G.
func ExpandPrivateKey(b arith.Backend, sk *PrivateKey) (*ExpandedKey, error) {
	e, err := newEngine(b)
	if err != nil {
		return nil, err
	}
	full, hNTT, err := completeKeyNTT(sk)
	if err != nil {
		return nil, err
	}
	return &ExpandedKey{logn: full.LogN, e: e, key: e.expandKey(full), hNTT: hNTT}, nil
}

// errNoExpandedKey is returned by the methods of an ExpandedKey that was
// not made by ExpandPrivateKey.
var errNoExpandedKey = errors.New("falcon: expanded key not initialised (use ExpandPrivateKey)")

func (ek *ExpandedKey) check() error {
	if ek == nil || ek.e == nil || ek.key == nil {
		return errNoExpandedKey
	}
	return nil
}

// LogN returns the degree exponent of the key, or 0 for a nil or zero
// ExpandedKey (one not made by ExpandPrivateKey; no Falcon key has logn 0).
func (ek *ExpandedKey) LogN() uint {
	if ek.check() != nil {
		return 0
	}
	return ek.logn
}

// Backend returns the backend the key was expanded with, or the zero
// arith.Backend (empty Name, nil Impl) for a nil or zero ExpandedKey.
func (ek *ExpandedKey) Backend() arith.Backend {
	if ek.check() != nil {
		return arith.Backend{}
	}
	return ek.e.backend()
}

// Sign signs msg with the expanded key in the given format, reading the
// nonce and the sampler seeds from rng (falcon_sign_tree), as Sign does.
// For a real key rng must be crypto/rand.Reader (see Sign).
func (ek *ExpandedKey) Sign(msg []byte, format SigFormat, rng io.Reader) ([]byte, error) {
	if err := ek.check(); err != nil {
		return nil, err
	}
	return signMessage(ek.logn, msg, format, rng, func(hm []uint16, seed *[SeedSize]byte) (*Attempt, error) {
		return ek.e.attemptTree(ek.key, ek.hNTT, hm, seed)
	})
}

// SignHashed returns s2 for the hashed point hm, drawing a 56-byte sampler
// seed from rng for each attempt until one is short (Zf(sign_tree)).
func (ek *ExpandedKey) SignHashed(hm []uint16, rng io.Reader) ([]int16, error) {
	if err := ek.check(); err != nil {
		return nil, err
	}
	if err := checkHashed(hm, ek.logn); err != nil {
		return nil, err
	}
	budget := maxAttempts
	return signLoop(hm, rng, func(hm []uint16, seed *[SeedSize]byte) (*Attempt, error) {
		return ek.e.attemptTree(ek.key, ek.hNTT, hm, seed)
	}, &budget)
}

// SignAttempt runs one attempt of the expanded-key path on the hashed
// point hm with the sampler seeded from seed (SeedSize bytes). It is the
// step that SignHashed repeats; tests and analyses use it to replay known
// attempts.
func (ek *ExpandedKey) SignAttempt(hm []uint16, seed []byte) (*Attempt, error) {
	if err := ek.check(); err != nil {
		return nil, err
	}
	s, err := checkAttemptInputs(hm, seed, ek.logn)
	if err != nil {
		return nil, err
	}
	return ek.e.attemptTree(ek.key, ek.hNTT, hm, s)
}

// Sign signs msg with sk over backend b in the given format, reading the
// nonce and the sampler seeds from rng, on the dynamic path
// (falcon_sign_dyn): 40 bytes of nonce, then 56 bytes per attempt. An
// attempt is repeated when (s1, s2) is too long and, in the Padded format,
// when the compressed s2 does not fit the padded size.
//
// For a real key rng must be crypto/rand.Reader. A reproducible rng is for
// research and tests only: signing the same (key, nonce, message) on two
// backends, which differ in floating-point details by design, can reveal
// the secret key (Lin, Tibouchi, Yu, Zhang, "Do Not Disturb a Sleeping
// Falcon", Eurocrypt 2025).
func Sign(b arith.Backend, sk *PrivateKey, msg []byte, format SigFormat, rng io.Reader) ([]byte, error) {
	e, full, hNTT, err := engineAndKey(b, sk)
	if err != nil {
		return nil, err
	}
	return signMessage(full.LogN, msg, format, rng, func(hm []uint16, seed *[SeedSize]byte) (*Attempt, error) {
		return e.attemptDyn(full, hNTT, hm, seed)
	})
}

// SignHashedDyn returns s2 for the hashed point hm on the dynamic path,
// drawing a 56-byte sampler seed from rng for each attempt until one is
// short (Zf(sign_dyn)). The round-3 NIST API (nist.c crypto_sign) calls it
// with rng = SHAKE256 of a 48-byte seed drawn after the nonce:
//
//	h := sha3.NewSHAKE256()
//	h.Write(seed48)
//	s2, err := falcon.SignHashedDyn(b, sk, hm, h)
//
// and encodes s2 itself (header 0x20+logn, no retry on the size).
func SignHashedDyn(b arith.Backend, sk *PrivateKey, hm []uint16, rng io.Reader) ([]int16, error) {
	e, full, hNTT, err := engineAndKey(b, sk)
	if err != nil {
		return nil, err
	}
	if err := checkHashed(hm, full.LogN); err != nil {
		return nil, err
	}
	budget := maxAttempts
	return signLoop(hm, rng, func(hm []uint16, seed *[SeedSize]byte) (*Attempt, error) {
		return e.attemptDyn(full, hNTT, hm, seed)
	}, &budget)
}

// SignAttemptDyn runs one attempt of the dynamic path on the hashed point
// hm with the sampler seeded from seed (SeedSize bytes).
func SignAttemptDyn(b arith.Backend, sk *PrivateKey, hm []uint16, seed []byte) (*Attempt, error) {
	e, full, hNTT, err := engineAndKey(b, sk)
	if err != nil {
		return nil, err
	}
	s, err := checkAttemptInputs(hm, seed, full.LogN)
	if err != nil {
		return nil, err
	}
	return e.attemptDyn(full, hNTT, hm, s)
}

// engineAndKey returns the engine of b and, from completeKeyNTT, the
// completed sk and its public key in NTT form: what the dynamic-path entry
// points start from.
func engineAndKey(b arith.Backend, sk *PrivateKey) (engine, *PrivateKey, []uint16, error) {
	e, err := newEngine(b)
	if err != nil {
		return nil, nil, nil, err
	}
	full, hNTT, err := completeKeyNTT(sk)
	if err != nil {
		return nil, nil, nil, err
	}
	return e, full, hNTT, nil
}

// completeKeyNTT validates sk and returns a copy with G recomputed from
// f, g and F (Zf(complete_private)), and the public key h = g/f mod q in
// NTT form, with which attempts recompute s1 exactly; a G already present
// must agree.
func completeKeyNTT(sk *PrivateKey) (*PrivateKey, []uint16, error) {
	if err := sk.Check(); err != nil {
		return nil, nil, err
	}
	G, hNTT, err := completeNTT(sk.SmallF, sk.SmallG, sk.BigF, sk.LogN)
	if err != nil {
		return nil, nil, err
	}
	if sk.BigG != nil && !slices.Equal(sk.BigG, G) {
		return nil, nil, errors.New("falcon: private key G does not satisfy the NTRU equation with f, g, F")
	}
	return &PrivateKey{LogN: sk.LogN, SmallF: sk.SmallF, SmallG: sk.SmallG, BigF: sk.BigF, BigG: G}, hNTT, nil
}

// checkHashed checks that hm is a point of Z_q[X]/(X^n+1) for degree 2^logn.
func checkHashed(hm []uint16, logn uint) error {
	n := 1 << logn
	if len(hm) != n {
		return fmt.Errorf("falcon: hashed point has %d coefficients, want n = %d", len(hm), n)
	}
	for i, v := range hm {
		if v >= Q {
			return fmt.Errorf("falcon: hashed point coefficient %d is %d, not below q = %d", i, v, Q)
		}
	}
	return nil
}

func checkAttemptInputs(hm []uint16, seed []byte, logn uint) (*[SeedSize]byte, error) {
	if err := checkHashed(hm, logn); err != nil {
		return nil, err
	}
	if len(seed) != SeedSize {
		return nil, fmt.Errorf("falcon: sampler seed is %d bytes, want %d", len(seed), SeedSize)
	}
	return (*[SeedSize]byte)(seed), nil
}

// attemptFunc runs one signing attempt on hm with one sampler seed.
type attemptFunc func(hm []uint16, seed *[SeedSize]byte) (*Attempt, error)

// signLoop repeats attempts with fresh seeds from rng until one is short
// and returns its s2 (the loop of Zf(sign_dyn) and Zf(sign_tree)). Each
// attempt takes one from *budget; an empty budget is ErrSignAttempts.
func signLoop(hm []uint16, rng io.Reader, attempt attemptFunc, budget *int) ([]int16, error) {
	if rng == nil {
		return nil, errors.New("falcon: nil random source")
	}
	var seed [SeedSize]byte
	for ; *budget > 0; *budget-- {
		if _, err := io.ReadFull(rng, seed[:]); err != nil {
			return nil, fmt.Errorf("falcon: reading a sampler seed: %w", err)
		}
		at, err := attempt(hm, &seed)
		if err != nil {
			return nil, err
		}
		if at.Short {
			return at.S2, nil
		}
	}
	return nil, ErrSignAttempts
}

// signMessage is falcon_sign_start followed by the *_finish loop: draw the
// nonce, hash the message, sign, encode; in the Padded format a signature
// whose compressed s2 does not fit the padded size is drawn again (with
// the same nonce and new seeds).
func signMessage(logn uint, msg []byte, format SigFormat, rng io.Reader, attempt attemptFunc) ([]byte, error) {
	switch format {
	case Compressed, Padded, CT:
	default:
		return nil, fmt.Errorf("falcon: unknown signature format %d", int(format))
	}
	if rng == nil {
		return nil, errors.New("falcon: nil random source")
	}
	nonce := make([]byte, NonceSize)
	if _, err := io.ReadFull(rng, nonce); err != nil {
		return nil, fmt.Errorf("falcon: reading the nonce: %w", err)
	}
	var hm []uint16
	if format == CT {
		// The constant-time format hashes in constant time, as the
		// reference's falcon.h API does; the point is the same.
		hm = hashToPointCT(nonce, msg, logn)
	} else {
		hm = HashToPoint(nonce, msg, logn)
	}
	budget := maxAttempts
	for {
		s2, err := signLoop(hm, rng, attempt, &budget)
		if err != nil {
			return nil, err
		}
		sig, err := EncodeSignature(format, logn, nonce, s2)
		if err == nil {
			return sig, nil
		}
		if format == Padded && !fitsPadded(logn, nonce, s2) {
			budget--
			continue
		}
		return nil, err
	}
}

// fitsPadded reports whether s2 has a compressed encoding that fits the
// padded signature size (the reference retries whenever comp_encode into
// the padded buffer fails, for length or for an out-of-range value).
func fitsPadded(logn uint, nonce []byte, s2 []int16) bool {
	c, err := EncodeSignature(Compressed, logn, nonce, s2)
	return err == nil && len(c) <= mustParams(logn).SigPaddedSize
}

// expandKey implements signEngine.
func (e *engineOf[F, A]) expandKey(sk *PrivateKey) any {
	a := e.runArith()
	return expandPrivkey(a, sk.SmallF, sk.SmallG, sk.BigF, sk.BigG, sk.LogN)
}

// attemptTree implements signEngine.
func (e *engineOf[F, A]) attemptTree(key any, hNTT, hm []uint16, seed *[SeedSize]byte) (*Attempt, error) {
	ek := key.(*expandedKey[F])
	var p samplerprng.PRNG
	p.Init(seed)
	a := e.runArith()
	s := newSampler(a, &p, ek.logn, e.obs)
	s.setAcceptance(e.acc)
	s.edge = e.edge
	at := doSignTree(a, s, ek, hNTT, hm)
	if s.stuck {
		return nil, ErrSamplerStuck
	}
	if e.obs != nil {
		e.obs.Attempt(at)
	}
	return at, nil
}

// attemptDyn implements signEngine.
func (e *engineOf[F, A]) attemptDyn(sk *PrivateKey, hNTT, hm []uint16, seed *[SeedSize]byte) (*Attempt, error) {
	var p samplerprng.PRNG
	p.Init(seed)
	return e.runAttemptDyn(sk, hNTT, hm, &p, round3Profile)
}

// runAttemptDyn runs one attempt of the dynamic path with the sampler
// reading src; an FN-DSA profile selects FN-DSA's sampler and
// ffSampling (fips206.go) in place of round 3's.
func (e *engineOf[F, A]) runAttemptDyn(sk *PrivateKey, hNTT, hm []uint16, src randSource, prof fnDSAProfile) (*Attempt, error) {
	a := e.runArith()
	s := newSampler(a, src, sk.LogN, e.obs)
	s.setProfile(prof)
	s.setAcceptance(e.acc)
	s.edge = e.edge
	at := doSignDyn(a, s, sk, hNTT, hm, nil)
	if s.stuck {
		return nil, ErrSamplerStuck
	}
	if e.obs != nil {
		e.obs.Attempt(at)
	}
	return at, nil
}

// targetFFT sets t0 = FFT(hm) b11 / q and t1 = -FFT(hm) b01 / q, the
// target (hm, 0) B^-1 in FFT form (B^-1 = [[-F, f], [-G, g]] / q). As in
// the reference, 1/q is a constant multiplied in after the product; no
// division happens.
func targetFFT[F any, A arith.Arith[F]](a A, obs Observer[F], t0, t1, b01, b11 []F, hm []uint16, logn uint) {
	if !vecOfUint16(a, t0[:1<<logn], hm) {
		for u := range 1 << logn {
			t0[u] = a.Of(int64(hm[u]))
		}
	}
	fft(a, t0, logn)
	ni := a.Const(arith.InvQ)
	copy(t1, t0)
	polyMulFFT(a, t1, b01, logn)
	polyMulconst(a, t1, a.Neg(ni), logn)
	polyMulFFT(a, t0, b11, logn)
	polyMulconst(a, t0, ni, logn)
	if obs != nil {
		obs.Stage(StageTarget, int(logn), 0, t0, t1)
	}
}

// finishAttempt turns the sampled (z0, z1) (FFT form, in t0 and t1) into
// (s1, s2): it computes the lattice point (z0, z1) B in the reference's
// order, returns to coefficients, rounds s2, recomputes s1 exactly from s2
// and the public key (hNTT, see Attempt), and measures the norm. tx and ty
// are scratch.
func finishAttempt[F any, A arith.Arith[F]](a A, obs Observer[F], b00, b01, b10, b11, t0, t1, tx, ty []F, hNTT, hm []uint16, logn uint) *Attempt {
	n := 1 << logn
	copy(tx, t0)
	copy(ty, t1)
	polyMulFFT(a, tx, b00, logn)
	polyMulFFT(a, ty, b10, logn)
	polyAdd(a, tx, ty, logn)
	copy(ty, t0)
	polyMulFFT(a, ty, b01, logn)
	copy(t0, tx)
	polyMulFFT(a, t1, b11, logn)
	polyAdd(a, t1, ty, logn)
	ifft(a, t0, logn)
	ifft(a, t1, logn)
	if obs != nil {
		obs.Stage(StageLattice, int(logn), 0, t0, t1)
	}

	s := make([]int16, 2*n)
	at := &Attempt{S1: s[:n:n], S2: s[n:]}
	var r []int64
	if vecRint(a, &r, t0, t1, n) {
		for u := range n {
			at.S1[u] = int16(int32(hm[u]) - int32(r[u]))
			at.S2[u] = int16(-r[n+u])
		}
	} else {
		for u := range n {
			at.S1[u] = int16(int32(hm[u]) - int32(a.Rint(t0[u])))
		}
		for u := range n {
			at.S2[u] = int16(-a.Rint(t1[u]))
		}
	}
	at.FloatS1Mismatches = exactS1(at.S1, hm, at.S2, hNTT, logn)
	// ||(s1, s2)||^2 in 32 bits, s1 first then s2 as the reference sums
	// (is_short_half); once a partial sum has had its top bit set the total
	// is forced to at least 2^31 (above every bound).
	var sqn, ng uint32
	for _, v := range at.S1 {
		z := int32(v)
		sqn += uint32(z) * uint32(z)
		ng |= sqn
	}
	sqn |= -(ng >> 31)
	ng = -(sqn >> 31)
	for _, v := range at.S2 {
		z := int32(v)
		sqn += uint32(z) * uint32(z)
		ng |= sqn
	}
	sqn |= -(ng >> 31)
	at.SqNorm = sqn
	at.Short = sqn <= mustParams(logn).L2Bound
	return at
}

// doSignTree is one attempt on the expanded-key path (do_sign_tree).
func doSignTree[F any, A arith.Arith[F]](a A, s *sampler[F, A], ek *expandedKey[F], hNTT, hm []uint16) *Attempt {
	logn := ek.logn
	n := 1 << logn
	buf := make([]F, 6*n)
	t0, t1, tx, ty, tmp := buf[:n], buf[n:2*n], buf[2*n:3*n], buf[3*n:4*n], buf[4*n:]

	enterStage(s.st, PlanTarget)
	targetFFT(a, s.obs, t0, t1, ek.b01, ek.b11, hm, logn)
	enterStage(s.st, PlanFFSampling)
	ffSamplingTree(a, s, tx, ty, ek.tree, t0, t1, logn, tmp)
	copy(t0, tx)
	copy(t1, ty)
	enterStage(s.st, PlanLattice)
	return finishAttempt(a, s.obs, ek.b00, ek.b01, ek.b10, ek.b11, t0, t1, tx, ty, hNTT, hm, logn)
}

// doSignDyn is one attempt on the dynamic path (do_sign_dyn): basis and
// Gram matrix are computed, consumed by ffSampling, and the basis is
// computed again for the final product.
//
// ffs, when not nil, is the ffSampling step in place of the recursive
// ffSamplingDyn (the state machine of ffsampling_fsm.go): it gets the
// attempt's workspace ws, laid out as ffSamplingDyn's arguments are here
// -- g00, g01, g11 in polynomials 0 to 2, the target t0, t1 in 5 and 6,
// scratch (4n values) from 7 on, n = 2^logn each -- and replaces the
// target with the sample.
func doSignDyn[F any, A arith.Arith[F]](a A, s *sampler[F, A], sk *PrivateKey, hNTT, hm []uint16, ffs func(ws []F, logn uint)) *Attempt {
	logn := sk.LogN
	n := 1 << logn
	buf := make([]F, 11*n)
	poly := func(i int) []F { return buf[i*n : (i+1)*n] }
	b00, b01, b10, b11 := poly(0), poly(1), poly(2), poly(3)
	enterStage(s.st, PlanFFT)
	basisFFT(a, b00, b01, b10, b11, sk.SmallF, sk.SmallG, sk.BigF, sk.BigG, logn)
	if s.obs != nil {
		s.obs.Stage(StageBasis, int(logn), 0, b00, b01, b10, b11)
	}
	var basis []F
	vecKeepBasis(a, &basis, buf[:4*n])

	// Gram matrix, replacing B in place; -f (b01) is kept in s01 for the
	// target, -F stays in b11. The order of the products and sums is the
	// reference's, which differs from expandPrivkey's in g01.
	s01, tmp := poly(4), poly(5)
	enterStage(s.st, PlanGram)
	copy(s01, b01)
	polyMulselfadjFFT(a, s01, logn) // b01 adj(b01)
	copy(tmp, b00)
	polyMuladjFFT(a, tmp, b10, logn) // b00 adj(b10)
	polyMulselfadjFFT(a, b00, logn)
	polyAdd(a, b00, s01, logn) // g00
	copy(s01, b01)
	polyMuladjFFT(a, b01, b11, logn)
	polyAdd(a, b01, tmp, logn) // g01 = b01 adj(b11) + b00 adj(b10)
	polyMulselfadjFFT(a, b10, logn)
	copy(tmp, b11)
	polyMulselfadjFFT(a, tmp, logn)
	polyAdd(a, b10, tmp, logn) // g11
	g00, g01, g11 := b00, b01, b10
	if s.obs != nil {
		s.obs.Stage(StageGram, int(logn), 0, g00, g01, g11)
	}

	t0, t1 := poly(5), poly(6)
	enterStage(s.st, PlanTarget)
	targetFFT(a, s.obs, t0, t1, s01, b11, hm, logn)
	if ffs == nil {
		if !vecFFSampling(a, s, t0, t1, g00, g01, g11, logn, buf[7*n:]) {
			ffSamplingDyn(a, s, t0, t1, g00, g01, g11, logn, logn, buf[7*n:])
		}
	} else {
		ffs(buf, logn)
	}

	enterStage(s.st, PlanFFT)
	if basis != nil {
		copy(buf[:4*n], basis)
	} else {
		basisFFT(a, b00, b01, b10, b11, sk.SmallF, sk.SmallG, sk.BigF, sk.BigG, logn)
	}
	enterStage(s.st, PlanLattice)
	return finishAttempt(a, s.obs, b00, b01, b10, b11, t0, t1, poly(7), poly(8), hNTT, hm, logn)
}

// ffSamplingDyn is Fast Fourier sampling with the ffLDL tree computed on
// the fly (ffSampling_fft_dyntree): the target (t0, t1) is replaced with
// the sample, and the Gram matrix [[g00, g01], [adj(g01), g11]] is
// consumed. tmp needs 4n values.
//
// At each level the matrix is LDL-decomposed in place (g01 becomes l10,
// g11 becomes d11), d00 and d11 are split into the two half-degree
// quasi-cyclic Gram matrices of the subtrees, t1 is sampled with the
// right one, t0 is corrected by (t1 - z1) l10 and sampled with the left
// one. At the leaves the value is normalised (sqrt(x)/sigma) just before
// sampling.
func ffSamplingDyn[F any, A arith.Arith[F]](a A, s *sampler[F, A], t0, t1, g00, g01, g11 []F, origLogn, logn uint, tmp []F) {
	if logn == 0 {
		ffsLeaf(a, s, t0, t1, g00, origLogn)
		return
	}
	n := 1 << logn
	hn := n >> 1
	ffsBeforeRight(a, s, t1, g00, g01, g11, logn, tmp)
	z1 := tmp[n:]
	ffSamplingDyn(a, s, z1[:hn], z1[hn:], g11[:hn], g11[hn:], g01[hn:], origLogn, logn-1, z1[n:])
	ffsBetween(a, s, t0, t1, logn, tmp)
	z0 := tmp
	ffSamplingDyn(a, s, z0[:hn], z0[hn:], g00[:hn], g00[hn:], g01[:hn], origLogn, logn-1, z0[n:])
	ffsAfterLeft(a, s, t0, logn, tmp)
}

// The steps of one node of ffSamplingDyn, shared by the recursion above
// and the state machine of ffsampling_fsm.go (its actuation module): at a
// leaf, ffsLeaf; at an inner node, ffsBeforeRight, the right child on
// (z1[:hn], z1[hn:]) = tmp[n:2n] with the matrix (g11[:hn], g11[hn:],
// g01[hn:]) and scratch tmp[2n:], ffsBetween, the left child on
// (z0[:hn], z0[hn:]) = tmp[:n] with (g00[:hn], g00[hn:], g01[:hn]) and
// scratch tmp[n:], then ffsAfterLeft.

// ffsLeaf normalises the leaf (sqrt(g00)/sigma) and samples both
// coordinates of the target with it.
func ffsLeaf[F any, A arith.Arith[F]](a A, s *sampler[F, A], t0, t1, g00 []F, origLogn uint) {
	enterStage(s.st, PlanLeaf)
	var inv F
	if s.fips206 {
		inv = a.FromFloat64(fips206InvSigma[origLogn])
	} else {
		inv = a.Const(arith.InvSigma(origLogn))
	}
	leaf := a.Mul(a.Sqrt(g00[0]), inv)
	if s.obs != nil {
		s.obs.Stage(StageLeaf, 0, 0, []F{leaf})
	}
	t0[0] = a.Of(s.sample(t0[0], leaf))
	t1[0] = a.Of(s.sample(t1[0], leaf))
}

// ffsBeforeRight LDL-decomposes the node's matrix, lays out the two
// children's matrices and splits t1 into the right child's target.
func ffsBeforeRight[F any, A arith.Arith[F]](a A, s *sampler[F, A], t1, g00, g01, g11 []F, logn uint, tmp []F) {
	obs := s.obs
	n := 1 << logn
	hn := n >> 1
	enterStage(s.st, PlanLDL)
	if s.fips206 {
		polyLDLSelfAdjFFT(a, g00, g01, g11, logn)
	} else {
		polyLDLFFT(a, g00, g01, g11, logn)
	}
	if obs != nil {
		obs.Stage(StageLDL, int(logn), 0, g01, g11)
	}

	// Split d00 (in g00) and d11 (in g11) in place through tmp, keep l10
	// in tmp, and lay out the two half-size matrices:
	//   left:  g00[:hn], g00[hn:], g01[:hn] (= g00[:hn])
	//   right: g11[:hn], g11[hn:], g01[hn:] (= g11[:hn])
	// (FN-DSA splits d00 and d11 as real, self-adjoint values.)
	split := polySplitFFT[F, A]
	if s.fips206 {
		split = polySplitSelfAdjFFT[F, A]
	}
	split(a, tmp[:hn], tmp[hn:], g00, logn)
	copy(g00[:n], tmp[:n])
	split(a, tmp[:hn], tmp[hn:], g11, logn)
	copy(g11[:n], tmp[:n])
	copy(tmp[:n], g01[:n])
	copy(g01[:hn], g00[:hn])
	copy(g01[hn:n], g11[:hn])

	// The right child's target: split(t1) into tmp[n:2n].
	z1 := tmp[n:]
	enterStage(s.st, PlanFFSampling)
	polySplitFFT(a, z1[:hn], z1[hn:], t1, logn)
	if obs != nil {
		obs.Stage(StageSplit, int(logn), 1, z1[:n])
	}
}

// ffsBetween merges the right child's sample z1, updates the target
// (tb0 = t0 + (t1 - z1) l10 into t0, z1 into t1) and splits tb0 into the
// left child's target tmp[:n].
func ffsBetween[F any, A arith.Arith[F]](a A, s *sampler[F, A], t0, t1 []F, logn uint, tmp []F) {
	obs := s.obs
	n := 1 << logn
	hn := n >> 1
	z1 := tmp[n:]
	enterStage(s.st, PlanFFSampling)
	polyMergeFFT(a, tmp[2*n:], z1[:hn], z1[hn:], logn)
	if obs != nil {
		obs.Stage(StageMerge, int(logn), 1, tmp[2*n:3*n])
	}
	copy(z1[:n], t1[:n])
	polySub(a, z1, tmp[2*n:], logn)
	copy(t1[:n], tmp[2*n:3*n])
	polyMulFFT(a, tmp, z1, logn)
	polyAdd(a, t0, tmp, logn)
	if obs != nil {
		obs.Stage(StageUpdate, int(logn), 0, t0[:n])
	}
	z0 := tmp
	polySplitFFT(a, z0[:hn], z0[hn:], t0, logn)
	if obs != nil {
		obs.Stage(StageSplit, int(logn), 0, z0[:n])
	}
}

// ffsAfterLeft merges the left child's sample z0 into t0.
func ffsAfterLeft[F any, A arith.Arith[F]](a A, s *sampler[F, A], t0 []F, logn uint, tmp []F) {
	n := 1 << logn
	hn := n >> 1
	enterStage(s.st, PlanFFSampling)
	polyMergeFFT(a, t0, tmp[:hn], tmp[hn:], logn)
	if s.obs != nil {
		s.obs.Stage(StageMerge, int(logn), 0, t0[:n])
	}
}
