package fndsa2025

import (
	"fmt"
	"slices"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/accel/fndsacount"
	"github.com/fprlab/fprlab/fndsa"
)

// FN-DSA's counts for accel counts and accel cycles (accel.Counter):
// fndsacount.CountKAT and fndsacount.CountRecord say how each counter is
// counted.
var _ accel.Counter = fnDSA{}

// katRecordsPerDegree is the number of go-fn-dsa KAT records of each
// degree (j = 0 to 9).
const katRecordsPerDegree = 10

func (fnDSA) KATSource() string        { return "go-fn-dsa" }
func (fnDSA) KATRecordsPerDegree() int { return katRecordsPerDegree }

func (fnDSA) CountKAT(logn uint, j int) (*accel.FNDSACounts, error) {
	rec, ok, err := fndsa.KATRecordOf(logn, j)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("fn-dsa: go-fn-dsa's KAT has no record %d of degree %d", j, 1<<logn)
	}
	r, err := fndsacount.CountKAT(rec)
	if err != nil {
		return nil, err
	}
	if !r.KeysMatch || !r.PinMatch {
		return nil, fmt.Errorf("go-fn-dsa KAT record %d of degree %d: keys match %v, signature matches the pin %v", j, 1<<logn, r.KeysMatch, r.PinMatch)
	}
	return r, nil
}

func (fnDSA) CountRound3Keys(logn uint, r int) (*accel.FNDSACounts, error) {
	c, err := fndsacount.CountRecord(logn, r)
	if err != nil {
		return nil, err
	}
	if err := accel.CheckPublished(logn, &c.KAT.Record); err != nil {
		return nil, err
	}
	return c, nil
}

func (fnDSA) VerifyOps(logn uint, keccak uint64) [5]uint64 { return accel.FNDSAVerifyOps(logn, keccak) }

// The notes of accel counts --scheme fn-dsa: those of each key source's
// input, then those of the counters.
var (
	countsKeyNotes = []string{
		"keys: fndsa.KeyGen of the go-fn-dsa KAT record's seed SHAKE256(0x00 || logn || j as 32-bit little-endian)[:32], go-fn-dsa's keys (SHA-256(sk || vk) checked against the record); integer key generation, not counted",
		"sign: fndsa SignSeeded over emu64 as go-fn-dsa's TestFNDSA_KAT signs: the record's 6-byte signing seed 0x01 || logn || j, context \"domain\", the message \"message\" raw (even j) or its SHA3-256 digest pre-hashed (odd j); the signature is verified and SHA3-256(sk || vk || sig) equals the record's pin",
	}
	countsRound3Notes = []string{
		"keys: crypto_sign_keypair of the NIST KAT record over emu64 (round 3; FN-DSA keys use the same encodings); keygen counters as accel counts",
		"sign: fndsa SignSeeded over emu64 with the record's 48-byte seed as the signing seed, an empty context and no pre-hash, of the record's message; the signature is verified",
	}
	countsNotes = []string{
		"fpr counters under the FPEMU model of accel counts; FN-DSA's ApproxExp is integer Horner evaluation, so its fpr share is one scaled, two mul, two trunc and an lt per call, no expm_p63",
		"mq_montymul: go-fn-dsa's mq_mmul from its call structure: sign decodes the signing key before every signature (h = g/f and G = h F: 3 NTT + 2 iNTT + 22 n), verify 2 NTT + iNTT + 2 n; one product per butterfly, 20 per division, 2 per pointwise product",
		"keccak_f1600: from the bytes each SHAKE256 absorbs and squeezes (rate 136): the verifying key's digest, per attempt the nonce stream SHAKE256(seed || counter), hash-to-point and the sampler's SHAKE256 PRNG (136-byte blocks of the bytes it read); verify: the digest and hash-to-point",
		"modp_montymul: none in FN-DSA signing (NTRUSolve is key generation only)",
		"the accel models are round 3's: accel cycles (its baselines are measured round-3 cycles), accel latency and accel fpru take round-3 counts only; an FN-DSA verify path on the same units would price these counts with 2 n pointwise products instead of 3 n",
	}
	cyclesNotes = []string{
		"FN-DSA: the verify path only; the phase model (keygen, sign, verify against the table's measured software cycles) is round 3's and is not run",
		"per record: the FN-DSA signature of accel counts --scheme fn-dsa (a go-fn-dsa KAT record with its FN-DSA keys, context and message, or with --key-source falcon a NIST record's round-3 keys, seed and message), verified as go-fn-dsa verifies: keccak_f1600 of the verifying key's digest and of hash-to-point, 2 (n/2) logn NTT and (n/2) logn iNTT butterflies, 2n pointwise products, n per coefficient",
		"the costs per operation are the table's: for horcrux, HORCRUX's round-3 software and units (butterfly and per-coefficient costs fitted to its round-3 verify baselines); FN-DSA's verification is assumed to cost the same per operation",
		"the published verify figures and Karl et al.'s energy saving are Falcon round 3's and are not compared",
	}
)

func (fnDSA) CountsNotes(round3Keys bool) []string {
	if round3Keys {
		return append(slices.Clone(countsRound3Notes), countsNotes...)
	}
	return append(slices.Clone(countsKeyNotes), countsNotes...)
}

func (fnDSA) CyclesNotes() []string { return slices.Clone(cyclesNotes) }
