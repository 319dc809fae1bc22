package accel

import (
	"crypto/sha3"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// Integer work of the NIST flow that is not fpr arithmetic: Montgomery
// products modulo the 31-bit RNS primes of NTRUSolve (modp_montymul,
// Falcon-impl-20211101 keygen.c) and modulo q = 12289 (mq_montymul, the NTT
// of the public-key arithmetic, vrfy.c), and Keccak-f[1600] permutations
// (SHAKE256).
//
// modp_montymul is counted by package falcon's NTRUSolve, which makes the
// reference's sequence of these products, and reported per run through
// falcon.KeygenCounter. mq_montymul and keccak_f1600 are counted
// structurally -- from the sizes and the call structure of the reference
// (vrfy.c, nist.c, shake.c) and the outcome and byte counts of a real run
// -- because fprlab's NTT mod q is not Montgomery-based and its SHAKE256 is
// crypto/sha3.
//
// mq_montymul. The reference's mq_NTT makes one product per butterfly,
// (n/2) logn; mq_iNTT as many plus n for the final scaling by 1/n; a
// division mq_div_12289 is 20 products (an addition chain of 18 steps for
// y^(q-2), the conversion of y into Montgomery form and the final product
// by x); mq_poly_tomonty and mq_poly_montymul_ntt are n each. Per phase:
//
//	keygen: compute_public, once per candidate that passes the
//	        Gram-Schmidt bound (f, g to NTT, n divisions, iNTT):
//	        2 NTT + 20 n + iNTT; a candidate whose f has a zero NTT
//	        slot stops there, after 2 NTT + 20 d (d slots divided,
//	        reported by falcon.KeygenCounter)
//	sign:   complete_private (G = g F / f in crypto_sign's key decoding):
//	        3 NTT + tomonty + montymul + 20 n + iNTT
//	verify: to_ntt_monty of h, then verify_raw (NTT of s2, montymul,
//	        iNTT): 2 NTT + 2 n + iNTT
//
// Falcon-512: 17,664, 20,992 and 8,448, the reference's counts of KAT
// record 0.
//
// keccak_f1600. SHAKE256 at rate 136 bytes permutes once per full block
// absorbed and once per 136 bytes squeezed (the first squeeze included):
//
//	keygen: the keygen stream, SHAKE256 of a 48-byte seed, squeezed by
//	        key generation (8 bytes per random word)
//	sign:   hash-to-point of nonce || message (absorb 40 + mlen bytes,
//	        squeeze 2 bytes per 16-bit draw until n draws below 5q are
//	        accepted), and the signing stream, squeezed 56 bytes per
//	        sampler seed
//	verify: the same hash-to-point
//
// The sampler's own generator is ChaCha20 and hashes nothing.

// IntCounts are the integer counters of one phase, under the names of the
// reference's counts file (and keccak_f1600).
type IntCounts struct {
	ModpMontymul uint64 `json:"modp_montymul"`
	MqMontymul   uint64 `json:"mq_montymul"`
	KeccakF1600  uint64 `json:"keccak_f1600"`
}

// Plus returns the sum of c and d.
func (c IntCounts) Plus(d IntCounts) IntCounts {
	return IntCounts{
		ModpMontymul: c.ModpMontymul + d.ModpMontymul,
		MqMontymul:   c.MqMontymul + d.MqMontymul,
		KeccakF1600:  c.KeccakF1600 + d.KeccakF1600,
	}
}

// shakeRate is SHAKE256's rate in bytes.
const shakeRate = 136

// mqNTTProducts etc. are the reference's mq_montymul counts per routine.
func mqNTTProducts(logn uint) uint64  { return uint64(1<<logn) / 2 * uint64(logn) }
func mqINTTProducts(logn uint) uint64 { return mqNTTProducts(logn) + 1<<logn }

const mqDivProducts = 20

// mqComputePublic is the mq_montymul count of a compute_public at degree
// 2^logn that divided d slots before it stopped (d = n: it finished, with
// the iNTT).
func mqComputePublic(logn uint, d int) uint64 {
	c := 2*mqNTTProducts(logn) + mqDivProducts*uint64(d)
	if d == 1<<logn {
		c += mqINTTProducts(logn)
	}
	return c
}

// MqCompletePrivate and MqVerify are the mq_montymul counts of
// complete_private and verification (to_ntt_monty and verify_raw) at
// degree 2^logn.
func MqCompletePrivate(logn uint) uint64 {
	n := uint64(1) << logn
	return 3*mqNTTProducts(logn) + 2*n + mqDivProducts*n + mqINTTProducts(logn)
}

func MqVerify(logn uint) uint64 { return 2*mqNTTProducts(logn) + 2<<logn + mqINTTProducts(logn) }

// ShakePermutations is the number of Keccak-f[1600] calls of a SHAKE256
// run that absorbs in bytes and squeezes out bytes (out > 0).
func ShakePermutations(in, out int64) uint64 {
	return uint64(in/shakeRate + (out+shakeRate-1)/shakeRate)
}

// HashToPointDraws returns the number of 16-bit draws the reference's
// hash_to_point_vartime squeezes for nonce || msg at degree 2^logn, and the
// point, which the caller compares with falcon.HashToPoint to check the
// count's run.
func HashToPointDraws(nonce, msg []byte, logn uint) (int64, []uint16) {
	return hashToPointDraws(nonce, msg, logn, false)
}

// HashToPointDrawsLE is HashToPointDraws for the July 2026 FN-DSA draft,
// whose hash-to-point reads 16-bit little-endian words (msg is then its
// 64-byte mu).
func HashToPointDrawsLE(nonce, msg []byte, logn uint) (int64, []uint16) {
	return hashToPointDraws(nonce, msg, logn, true)
}

func hashToPointDraws(nonce, msg []byte, logn uint, littleEndian bool) (int64, []uint16) {
	h := sha3.NewSHAKE256()
	h.Write(nonce)
	h.Write(msg)
	n := 1 << logn
	pt := make([]uint16, 0, n)
	var draws int64
	var b [2]byte
	for len(pt) < n {
		h.Read(b[:])
		draws++
		w := uint32(b[0])<<8 | uint32(b[1])
		if littleEndian {
			w = uint32(b[1])<<8 | uint32(b[0])
		}
		if w < 5*falcon.Q {
			pt = append(pt, uint16(w%falcon.Q))
		}
	}
	return draws, pt
}

// keygenCandidates is a falcon.Observer over emu64 and a
// falcon.KeygenCounter: it counts the key-generation candidates passing the
// Gram-Schmidt bound (each one calls compute_public) and sums the integer
// work falcon reports: the Montgomery products of every NTRUSolve run and
// the mq_montymul of every compute_public, complete or stopped at a zero
// slot of f.
type keygenCandidates struct {
	passed        int
	modp, mq      uint64
	bnormMax      emu64.FPR
	arithForCheck emu64.Arith
}

func newKeygenCandidates() *keygenCandidates {
	var a emu64.Arith
	return &keygenCandidates{bnormMax: a.Const(arith.BnormMax)}
}

func (k *keygenCandidates) Stage(st falcon.Stage, level, iter int, values ...[]emu64.FPR) {
	// The decision gsNormOK takes, on the value it compared.
	if st == falcon.StageGSNorm && len(values) == 1 && len(values[0]) == 1 && k.arithForCheck.Lt(values[0][0], k.bnormMax) {
		k.passed++
	}
}

func (k *keygenCandidates) ComputePublic(logn uint, divided int) {
	k.mq += mqComputePublic(logn, divided)
}

func (k *keygenCandidates) NTRUSolve(logn uint, modp uint64, ok bool) { k.modp += modp }

func (k *keygenCandidates) Sample(mu, isigma emu64.FPR, z int64, rejections int)         {}
func (k *keygenCandidates) BerExp(expm uint64, shift uint, drawn uint64, n int, ok bool) {}
func (k *keygenCandidates) Attempt(*falcon.Attempt)                                      {}
