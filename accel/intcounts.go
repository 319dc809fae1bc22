package accel

import (
	"crypto/sha3"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// Integer work of the NIST flow that is not fpr arithmetic: Montgomery
// products modulo q = 12289 (mq_montymul, the NTT of the public-key
// arithmetic) and Keccak-f[1600] permutations (SHAKE256), counted
// structurally -- from the sizes and the call structure of the reference
// (Falcon-impl-20211101 vrfy.c, nist.c, shake.c) and the byte counts of a
// real run -- rather than by counters inside package falcon, whose NTT is
// not Montgomery-based and whose SHAKE256 is crypto/sha3.
//
// mq_montymul. The reference's mq_NTT makes one product per butterfly,
// (n/2) logn; mq_iNTT as many plus n for the final scaling by 1/n; a
// division mq_div_12289 is 20 products (an addition chain of 18 steps for
// y^(q-2), the conversion of y into Montgomery form and the final product
// by x); mq_poly_tomonty and mq_poly_montymul_ntt are n each. Per phase:
//
//	keygen: compute_public, once per candidate that passes the
//	        Gram-Schmidt bound (f, g to NTT, n divisions, iNTT):
//	        2 NTT + 20 n + iNTT
//	sign:   complete_private (G = g F / f in crypto_sign's key decoding):
//	        3 NTT + tomonty + montymul + 20 n + iNTT
//	verify: to_ntt_monty of h, then verify_raw (NTT of s2, montymul,
//	        iNTT): 2 NTT + 2 n + iNTT
//
// Falcon-512: 17,664, 20,992 and 8,448, the reference's counts of KAT
// record 0. A candidate whose f is not invertible mod q would leave
// compute_public early, after a number of divisions this package cannot
// see (MqExact reports whether that case could have arisen).
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
	MqMontymul  uint64 `json:"mq_montymul"`
	KeccakF1600 uint64 `json:"keccak_f1600"`
}

// Plus returns the sum of c and d.
func (c IntCounts) Plus(d IntCounts) IntCounts {
	return IntCounts{MqMontymul: c.MqMontymul + d.MqMontymul, KeccakF1600: c.KeccakF1600 + d.KeccakF1600}
}

// shakeRate is SHAKE256's rate in bytes.
const shakeRate = 136

// mqNTTProducts etc. are the reference's mq_montymul counts per routine.
func mqNTTProducts(logn uint) uint64  { return uint64(1<<logn) / 2 * uint64(logn) }
func mqINTTProducts(logn uint) uint64 { return mqNTTProducts(logn) + 1<<logn }

const mqDivProducts = 20

// MqComputePublic, MqCompletePrivate and MqVerify are the mq_montymul
// counts of compute_public, complete_private and verification (to_ntt_monty
// and verify_raw) at degree 2^logn.
func MqComputePublic(logn uint) uint64 {
	return 2*mqNTTProducts(logn) + mqDivProducts<<logn + mqINTTProducts(logn)
}

func MqCompletePrivate(logn uint) uint64 {
	n := uint64(1) << logn
	return 3*mqNTTProducts(logn) + 2*n + mqDivProducts*n + mqINTTProducts(logn)
}

func MqVerify(logn uint) uint64 { return 2*mqNTTProducts(logn) + 2<<logn + mqINTTProducts(logn) }

// shakePermutations is the number of Keccak-f[1600] calls of a SHAKE256
// run that absorbs in bytes and squeezes out bytes (out > 0).
func shakePermutations(in, out int64) uint64 {
	return uint64(in/shakeRate + (out+shakeRate-1)/shakeRate)
}

// hashToPointDraws returns the number of 16-bit draws the reference's
// hash_to_point_vartime squeezes for nonce || msg at degree 2^logn, and the
// point, which the caller compares with falcon.HashToPoint to check the
// count's run.
func hashToPointDraws(nonce, msg []byte, logn uint) (int64, []uint16) {
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
		if w := uint32(b[0])<<8 | uint32(b[1]); w < 5*falcon.Q {
			pt = append(pt, uint16(w%falcon.Q))
		}
	}
	return draws, pt
}

// keygenCandidates is a falcon.Observer over emu64 that counts the
// key-generation candidates passing the Gram-Schmidt bound -- each one
// calls compute_public -- and whether a candidate other than the last was
// followed by no NTRUSolve reduction step (then compute_public may have
// failed partway, or NTRUSolve failed before its first reduction: the
// mq_montymul count of that call is uncertain).
type keygenCandidates struct {
	passed        int
	babaiSince    bool // a Babai step since the last passing candidate
	uncertain     int
	lastPassed    bool
	bnormMax      emu64.FPR
	arithForCheck emu64.Arith
}

func newKeygenCandidates() *keygenCandidates {
	var a emu64.Arith
	return &keygenCandidates{bnormMax: a.Const(arith.BnormMax)}
}

func (k *keygenCandidates) Stage(st falcon.Stage, level, iter int, values ...[]emu64.FPR) {
	switch st {
	case falcon.StageCandidate:
		if k.lastPassed && !k.babaiSince {
			k.uncertain++
		}
		k.lastPassed = false
	case falcon.StageGSNorm:
		// The decision gsNormOK takes, on the value it compared.
		if len(values) == 1 && len(values[0]) == 1 && k.arithForCheck.Lt(values[0][0], k.bnormMax) {
			k.passed++
			k.lastPassed = true
			k.babaiSince = false
		}
	case falcon.StageBabai:
		k.babaiSince = true
	}
}

func (k *keygenCandidates) Sample(mu, isigma emu64.FPR, z int64, rejections int)         {}
func (k *keygenCandidates) BerExp(expm uint64, shift uint, drawn uint64, n int, ok bool) {}
func (k *keygenCandidates) Attempt(*falcon.Attempt)                                      {}
