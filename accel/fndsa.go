package accel

// FN-DSA's counts (package fndsacount makes them; their types are here, so
// that package accel, and every analysis that prices a count, links no
// FN-DSA implementation) (the FIPS 206 draft as pornin's go-fn-dsa e24833f
// implements it; FIPS 206 is not final) for one signature: of a record of
// go-fn-dsa's own KAT, with its FN-DSA keys (fndsa.KeyGen), or made with
// the keys of a round-3 NIST KAT record (the two schemes share the key
// encodings), as these counts were before FN-DSA key generation existed.
//
// The fpr counters are counted over emu64 as round 3's are. The integer
// counters are counted structurally, as round 3's are (intcounts.go), from
// go-fn-dsa's call structure (sign.go, sign_core.go, vrfy.go, mq.go, the
// SHAKE256 PRNG of util.go) and the byte counts of the run:
//
// mq_montymul (go-fn-dsa's mq_mmul, a Montgomery product modulo q). Its
// NTT makes one product per butterfly, (n/2) logn, and so does its inverse
// (which halves at each level instead of scaling by 1/n at the end); a
// division is 20 products (y into Montgomery form, an addition chain of 18
// products for y^(q-2), the product by x); a pointwise product 2 (the
// product and the correction by R^2). Per phase:
//
//	sign:   the signing key is decoded before every signature, recomputing
//	        h = g/f and G = h F: NTT of g, f and F, n divisions, n
//	        pointwise products, inverse NTT of G and of h:
//	        3 NTT + 2 iNTT + 22 n (22,784 at n = 512)
//	verify: NTT of h and of s2, n pointwise products, inverse NTT:
//	        2 NTT + iNTT + 2 n (7,936 at n = 512)
//
// keccak_f1600 (SHAKE256, rate 136 bytes: one permutation per full block
// absorbed and one per 136 bytes squeezed, the first squeeze included):
//
//	sign:   the verifying key's digest (absorb the encoded key, 897 or
//	        1793 bytes, squeeze 64); per attempt the nonce stream
//	        SHAKE256(seed || counter) (squeeze 40 + 56 bytes),
//	        hash-to-point (absorb the 40-byte nonce, the 64-byte digest, 2
//	        bytes, the context, the pre-hash OID and the data; squeeze 2
//	        bytes per 16-bit draw until n draws below 5q), and the
//	        sampler's PRNG, SHAKE256 of the 56-byte seed read in 136-byte
//	        blocks: ceil(B/136) for the B bytes the attempt's sampler reads
//	        (10 per Bernoulli trial -- 9 for the base sampler, 1 for the
//	        sign bit -- plus the bytes of the trial's lazy comparison)
//	verify: the key's digest and hash-to-point with the signature's nonce

// FNDSAKeccak is the keccak_f1600 count of an FN-DSA signature by origin.
type FNDSAKeccak struct {
	KeyDigest uint64 `json:"key_digest"`
	// Mu and HedgedSeed are the July 2026 draft's: mu, SHAKE256 of the
	// key digest, the context and the message (signing and verifying),
	// and the hedged signing seed, SHAKE256(hsk || mu || rnd). In that
	// draft Sampler counts each attempt's whole stream, nonce included,
	// and Nonces is zero.
	Mu          uint64 `json:"mu,omitempty"`
	HedgedSeed  uint64 `json:"hedged_seed,omitempty"`
	Nonces      uint64 `json:"nonce_streams"`
	HashToPoint uint64 `json:"hash_to_point"`
	Sampler     uint64 `json:"sampler_prng"`
	// HashToPointDraws and SamplerBytes are the 16-bit draws of every
	// hash-to-point and the bytes the samplers read, over all attempts.
	HashToPointDraws int64 `json:"hash_to_point_draws"`
	SamplerBytes     int64 `json:"sampler_bytes"`
}

// Total is the sum of the permutations.
func (k FNDSAKeccak) Total() uint64 {
	return k.KeyDigest + k.Mu + k.HedgedSeed + k.Nonces + k.HashToPoint + k.Sampler
}

// FNDSACounts are the counts of one FN-DSA signature (and its
// verification): made with the keys of a round-3 KAT record
// (fndsacount.CountRecord), or a record of go-fn-dsa's own KAT with its
// FN-DSA keys (fndsacount.CountKAT).
type FNDSACounts struct {
	// KeySource is "falcon" for a round-3 record's keys, "fn-dsa" for
	// a go-fn-dsa record's.
	KeySource string
	// KAT is the round-3 record's flow, whose keys sign (round-3 keys
	// only).
	KAT *KATCounts
	// FNDSARecord is the go-fn-dsa KAT record signed (FN-DSA keys only);
	// KeysMatch says that its keys are go-fn-dsa's (SHA-256(sk || vk)),
	// PinMatch that the signature is too (SHA3-256(sk || vk || sig)).
	FNDSARecord         *OwnKATRecord
	KeysMatch, PinMatch bool
	// Signature is the FN-DSA signature counted (it verifies), made by
	// fndsa SignSeeded: with a round-3 record's seed, message, an empty
	// context and no pre-hash, or with a go-fn-dsa record's signing seed,
	// context and (raw or pre-hashed) message.
	Signature []byte
	Attempts  int
	// BerExpTrials is the number of Bernoulli trials of all attempts.
	BerExpTrials int64
	SignCalls    Calls
	Sign         Counts
	// SignInt and VerifyInt are the integer counters of signing and
	// verifying (verification has no fpr operation); SignKeccak is
	// signing's keccak_f1600 by origin, VerifyKeccak verification's.
	SignInt, VerifyInt       IntCounts
	SignKeccak, VerifyKeccak FNDSAKeccak
}

// MqFNDSASign and MqFNDSAVerify are go-fn-dsa's mq_mmul counts of signing
// (decoding the signing key) and verifying at degree 2^logn.
func MqFNDSASign(logn uint) uint64 {
	return 3*mqNTTProducts(logn) + 2*mqNTTProducts(logn) + (mqDivProducts+2)*uint64(1)<<logn
}

func MqFNDSAVerify(logn uint) uint64 { return 3*mqNTTProducts(logn) + 2<<logn }

// MqFNDSA2026Verify is rust-fn-dsa 0.4.0's mq_mmul count of a
// verification at degree 2^logn: the NTT of s2, n pointwise products
// with h (stored in NTT form) and the inverse NTT, one product per
// butterfly each way. Its signing makes none: the signing key is decoded
// once per key (recomputing G = g F / f: 3 NTT + iNTT + 22 n, as
// MqFNDSA2026KeyDecode counts), not per signature, and signing itself is
// floating point and SHAKE256.
func MqFNDSA2026Verify(logn uint) uint64 { return 2*mqNTTProducts(logn) + 2<<logn }

// MqFNDSA2026KeyDecode is the mq_mmul count of decoding a signing key of
// the July 2026 draft (rust-fn-dsa's decode_inner): the NTT of g, f and F,
// n divisions (20 products each), n pointwise products (2 each) and the
// inverse NTT of G.
func MqFNDSA2026KeyDecode(logn uint) uint64 {
	return 4*mqNTTProducts(logn) + (mqDivProducts+2)*uint64(1)<<logn
}

// OwnKATRecord names the record of a scheme's own KAT that a count signed:
// its index and the pin the KAT gives it.
type OwnKATRecord struct {
	J   int
	Pin [32]byte
}
