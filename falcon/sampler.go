package falcon

import (
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/fips206"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// SamplerZ: the discrete Gaussian sampler at the leaves of ffSampling
// (Falcon specification v1.2, Algorithms 12-15: BaseSampler, ApproxExp,
// BerExp, SamplerZ; Falcon-impl-20211101 sign.c, Zf(sampler)).
//
// A sample from D_{Z, mu, sigma} is obtained by rejection from a bimodal
// distribution built on a fixed half-Gaussian of standard deviation
// sigma_max = 1.8205 (the base sampler, exact to 72 bits). The acceptance
// test is a Bernoulli trial of probability ccs*exp(-x), evaluated by the
// backend's ExpmP63 and compared lazily, byte by byte, with random bytes.
// The sampler's floating-point operations and its consumption of random
// bytes are the reference's, so that with the same random bytes a
// binary64 backend returns the same integers.

// randSource is where the sampler's random values come from: the ChaCha20
// generator (samplerprng.PRNG) when signing, a replay of known bytes in
// tests.
type randSource interface {
	// U64 returns the next 64-bit value (prng_get_u64).
	U64() uint64
	// U8 returns the next byte (prng_get_u8).
	U8() uint32
}

// rcdt is the reverse cumulative distribution table of the base sampler:
// entry k is 2^72 * P(z0 > k) for the half-Gaussian of standard deviation
// sigma_max = 1.8205 over {0, ..., 18}, as three 24-bit limbs, most
// significant first. The base sampler returns z0 = #{k : u < rcdt[k]} for
// a uniform 72-bit u.
var rcdt = [18][3]uint32{
	{10745844, 3068844, 3741698},
	{5559083, 1580863, 8248194},
	{2260429, 13669192, 2736639},
	{708981, 4421575, 10046180},
	{169348, 7122675, 4136815},
	{30538, 13063405, 7650655},
	{4132, 14505003, 7826148},
	{417, 16768101, 11363290},
	{31, 8444042, 8086568},
	{1, 12844466, 265321},
	{0, 1232676, 13644283},
	{0, 38047, 9111839},
	{0, 870, 6138264},
	{0, 14, 12545723},
	{0, 0, 3104126},
	{0, 0, 28824},
	{0, 0, 198},
	{0, 0, 1},
}

// gaussian0Loop is the base sampler (BaseSampler; Zf(gaussian0_sampler)): for
// a 72-bit value u (lo, drawn first as a u64, for the low 64 bits, then hi,
// a byte, for the high 8 bits) it counts the table entries above u. The
// comparison runs over all entries with borrow propagation (the reference
// uses three 24-bit limbs; here the low two are one 48-bit step), so its
// timing does not depend on u.
//
// gaussian0 calls it (vec_portable.go), or in the GOEXPERIMENT=simd
// build its vector form (sampler_vec_simd_amd64.go).
func gaussian0Loop(lo uint64, hi uint32) int {
	// The low two limbs of u and of each entry are compared as one 48-bit
	// number (the same borrow as the two 24-bit limb steps), the high limb
	// on its own.
	u48 := lo & (1<<48 - 1)
	v2 := uint32(lo>>48) | hi<<16
	z := 0
	for _, w := range &rcdt48 {
		// Borrow of (v2:u48) - (w.hi:w.lo): 1 exactly when u < w.
		cc := uint32((u48 - w.lo) >> 63)
		cc = (v2 - w.hi - cc) >> 31
		z += int(cc)
	}
	return z
}

// rcdt48 is rcdt with the two low limbs of each entry joined into one
// 48-bit value.
var rcdt48 = func() (t [len(rcdt)]struct {
	lo uint64
	hi uint32
}) {
	for k, w := range rcdt {
		t[k].lo = uint64(w[1])<<24 | uint64(w[2])
		t[k].hi = w[0]
	}
	return t
}()

// rcdt2026 is the base sampler's table of the July 2026 FN-DSA draft
// (rust-fn-dsa 0.4.0, the draft's distribution table for BaseSampler):
// entry k is 2^79 * P(z0 > k), as a 31-bit high limb and two 24-bit
// limbs, most significant first. It replaces rcdt's 72 bits with 79.
var rcdt2026 = [18][3]uint32{
	{1375468055, 6936092, 9176346},
	{711562636, 1023934, 15582455},
	{289335016, 4826132, 14746371},
	{90749601, 12313548, 10843417},
	{21676598, 5732767, 9419414},
	{3908963, 11171514, 6206010},
	{529006, 11146683, 11891888},
	{53503, 15610582, 11661180},
	{4032, 7095613, 11671091},
	{225, 16701698, 407118},
	{9, 6787688, 1638204},
	{0, 4870085, 8687822},
	{0, 111406, 13946073},
	{0, 1887, 12017202},
	{0, 23, 11452285},
	{0, 0, 3689579},
	{0, 0, 25354},
	{0, 0, 129},
}

// gaussian0Draft2026 is the July 2026 draft's base sampler: from 80
// random bits (lo, a u64 drawn first, and hi, 16 bits drawn next) the
// lowest bit of lo is the sign bit b of the bimodal draw, and the 79
// bits above it, read as v = hi:lo>>1, give z0 = #{k : v < rcdt2026[k]},
// counted over every entry with borrow propagation so that the timing
// does not depend on v.
func gaussian0Draft2026(lo uint64, hi uint32) int {
	v0 := uint32(lo>>1) & 0xFFFFFF
	v1 := uint32(lo>>25) & 0xFFFFFF
	v2 := uint32(lo>>49) | hi<<15
	z := 0
	for _, w := range &rcdt2026 {
		cc := (v0 - w[2]) >> 31
		cc = (v1 - w[1] - cc) >> 31
		cc = (v2 - w[0] - cc) >> 31
		z += int(cc)
	}
	return z
}

// sampler is a SamplerZ instance for one signing attempt: the random
// source and the degree's sigma_min, plus the constants it uses, fetched
// from the backend once.
type sampler[F any, A arith.Arith[F]] struct {
	a A
	// The random source: p is the signer's generator, called directly so
	// that its reads inline; src, used when p is nil, replays known bytes
	// in tests.
	p             *samplerprng.PRNG
	src           randSource
	sigmaMin      F
	inv2SqrSigma0 F // 1/(2 sigma_max^2)
	invLog2       F // 1/ln 2
	log2          F // ln 2
	// fips206 selects FN-DSA's ApproxExp (fips206.ExpmP63, or fipsExpm's
	// when the arithmetic has its own) in place of the backend's ExpmP63,
	// and FN-DSA's ffSampling (fips206.go).
	fips206  bool
	fipsExpm fips206.Expm[F]
	// base79 selects the July 2026 draft's base sampler
	// (gaussian0Draft2026) in place of round 3's.
	base79 bool
	// stuck is set when a call gave up after maxIter rejections; the
	// signer then reports an error instead of a signature.
	stuck bool
	// obs, when not nil, sees every call and every Bernoulli trial.
	obs Observer[F]
	// st, when not nil, is told where the sampler's arithmetic begins and
	// ends (precision plans), and where the signing stages that hold the
	// sampler begin.
	st Staged
	// acc, when not nil, replaces BerExp (acceptance.go); aobs is the
	// observer's view of its decisions, words the buffer of their random
	// words.
	acc   Acceptance
	aobs  AcceptanceObserver[F]
	words [MaxAcceptanceWords]uint64
	// edge, when on, fixes z0 (edge.go).
	edge edgeSamples
	// regs are the registers of the sampler's programs (sampler_program.go).
	regs samplerRegs[F]
}

// maxIter bounds the rejection loop of one sample. Each iteration accepts
// with probability about 0.58 for a sound backend, so 2^16 consecutive
// rejections (probability below 2^-80000) only happen when the backend's
// arithmetic is broken (for instance NaN leaves from too little precision),
// and the bound turns an endless loop into an error. The reference has no
// bound; no reachable run of a sound backend differs.
const maxIter = 1 << 16

// newSampler returns a sampler for degree 2^logn reading from src,
// reporting to obs (nil for none).
func newSampler[F any, A arith.Arith[F]](a A, src randSource, logn uint, obs Observer[F]) *sampler[F, A] {
	st, _ := any(a).(Staged)
	prev := enterStage(st, PlanSampler)
	s := &sampler[F, A]{
		obs:           obs,
		st:            st,
		a:             a,
		src:           src,
		sigmaMin:      a.Const(arith.SigmaMin(logn)),
		inv2SqrSigma0: a.Const(arith.Inv2SqrSigma0),
		invLog2:       a.Const(arith.InvLog2),
		log2:          a.Const(arith.Log2),
	}
	if p, ok := src.(*samplerprng.PRNG); ok {
		s.p = p
	}
	enterStage(st, prev)
	return s
}

// setProfile selects the sampler of an FN-DSA profile (FN-DSA's integer
// ApproxExp, and for the 2026 draft its 80-bit base sampler); round 3's
// is the default.
func (s *sampler[F, A]) setProfile(prof fnDSAProfile) {
	if prof == round3Profile {
		return
	}
	s.fips206 = true
	s.fipsExpm, _ = any(s.a).(fips206.Expm[F])
	s.base79 = prof == fnDSA2026Profile
}

// u64 and u8 read the sampler's random source.
func (s *sampler[F, A]) u64() uint64 {
	if s.p != nil {
		return s.p.U64()
	}
	return s.src.U64()
}

func (s *sampler[F, A]) u8() uint32 {
	if s.p != nil {
		return s.p.U8()
	}
	return s.src.U8()
}

// sample returns an integer drawn from the discrete Gaussian of centre mu
// and standard deviation 1/isigma (Zf(sampler)). The reference takes the
// inverse of sigma, which the ffLDL tree stores, to save divisions; sigma
// must lie in [1, 2] (Falcon's leaves are within [sigma_min, 1.8205]).
//
// With mu = s + r, s = floor(mu), the candidate z is drawn around 0 or 1
// (z0 from the base sampler, b a random bit, z = b + (2b-1) z0) and kept
// with probability
//
//	ccs * exp(-x),  x = (z - r)^2 / (2 sigma^2) - z0^2 / (2 sigma_max^2)
//
// where the reference computes 1/(2 sigma^2) as dss = (isigma^2)/2 and
// ccs = sigma_min/sigma as isigma * sigma_min.
func (s *sampler[F, A]) sample(mu, isigma F) int64 {
	if s.st == nil {
		return s.draw(mu, isigma)
	}
	prev := s.st.EnterStage(PlanSampler)
	z := s.draw(mu, isigma)
	s.st.EnterStage(prev)
	return z
}

// draw is sample's computation, in the sampler's plan stage.
func (s *sampler[F, A]) draw(mu, isigma F) int64 {
	if s.stuck {
		// The attempt is void already; do not spend another maxIter
		// iterations on each remaining leaf.
		return 0
	}
	if s.edge.on {
		return s.edgeSample(mu, isigma)
	}
	if z := int64(0); drawProgram(s, mu, isigma, &z) {
		return z
	}
	a := s.a
	c := int32(a.Floor(mu))
	r := a.Sub(mu, a.Of(int64(c)))
	dss := a.Half(a.Sqr(isigma))
	ccs := a.Mul(isigma, s.sigmaMin)
	for iter := range maxIter {
		var z0, b int32
		if s.base79 {
			lo := s.u64()
			hi := s.u8()
			hi |= s.u8() << 8
			z0 = int32(gaussian0Draft2026(lo, hi))
			b = int32(lo & 1)
		} else {
			lo := s.u64()
			z0 = int32(gaussian0(lo, s.u8()))
			b = int32(s.u8() & 1)
		}
		z := b + (2*b-1)*z0
		x := a.Mul(a.Sqr(a.Sub(a.Of(int64(z)), r)), dss)
		x = a.Sub(x, a.Mul(a.Of(int64(z0*z0)), s.inv2SqrSigma0))
		var ok bool
		if s.acc == nil {
			ok = s.berExp(x, ccs)
		} else {
			ok = s.accept(x, ccs)
		}
		if ok {
			if s.obs != nil {
				s.obs.Sample(mu, isigma, int64(c+z), iter)
			}
			return int64(c + z)
		}
	}
	s.stuck = true
	return int64(c)
}

// berExp returns true with probability ccs*exp(-x), for x >= 0 (BerExp).
//
// x is reduced as x = t*ln2 + r with 0 <= r < ln2, so that
// exp(-x) = 2^-t exp(-r); the backend's ExpmP63 gives 2^63 ccs exp(-r),
// which is doubled (minus one, so that it fits in 64 bits) and shifted
// right by t, capped at 63 (beyond that the probability is below 2^-64).
// Random bytes are then compared with that 64-bit value from the most
// significant byte down, and only as many are drawn as needed: the first
// differing byte decides (accept if the random byte is smaller), and eight
// equal bytes mean rejection.
func (s *sampler[F, A]) berExp(x, ccs F) bool {
	a := s.a
	t := int32(a.Trunc(a.Mul(x, s.invLog2)))
	r := a.Sub(x, a.Mul(a.Of(int64(t)), s.log2))
	var expm uint64
	switch {
	case s.fipsExpm != nil:
		expm = s.fipsExpm.ExpmP63FIPS206(r, ccs)
	case s.fips206:
		expm = fips206.ExpmP63(a, r, ccs)
	default:
		expm = a.ExpmP63(r, ccs)
	}
	return s.bernoulli(t, expm)
}

// bernoulli is berExp's trial once its arithmetic is done: t = trunc(x/ln2)
// and expm = 2^63 ccs exp(-r) for the remainder r.
func (s *sampler[F, A]) bernoulli(t int32, expm uint64) bool {
	// Saturate t at 63 without a branch; as in the reference the
	// comparison is unsigned, so a negative t (impossible for x >= 0)
	// would saturate too.
	sw := uint32(t)
	sw ^= (sw ^ 63) & -((63 - sw) >> 31)
	z := ((expm << 1) - 1) >> sw

	var w uint32
	i := 56
	for ; ; i -= 8 {
		w = s.u8() - uint32(z>>uint(i))&0xFF
		if w != 0 || i == 0 {
			break
		}
	}
	accept := w>>31 != 0
	if s.obs != nil {
		// The bytes drawn equal z's above the deciding byte, which is
		// z's byte plus w: recovered here rather than kept in the loop.
		drawn := z>>uint(i+8)<<uint(i+8) | uint64((w+uint32(z>>uint(i)))&0xFF)<<uint(i)
		s.obs.BerExp(expm, uint(sw), drawn, (64-i)/8, accept)
	}
	return accept
}
