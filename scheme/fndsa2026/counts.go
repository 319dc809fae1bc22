package fndsa2026

import (
	"fmt"
	"slices"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/accel/fndsacount"
)

// The 2026 draft's counts for accel counts and accel cycles
// (accel.Counter): fndsacount.CountKAT2026 says how each counter is
// counted.
var _ accel.Counter = fnDSA2026{}

// katRecordsPerDegree is the number of rust-fn-dsa test_kat records of
// each degree (j = 0 to 9).
const katRecordsPerDegree = 10

func (fnDSA2026) KATSource() string        { return "rust-fn-dsa" }
func (fnDSA2026) KATRecordsPerDegree() int { return katRecordsPerDegree }

func (fnDSA2026) CountKAT(logn uint, j int) (*accel.FNDSACounts, error) {
	recs, err := katRecords(logn)
	if err != nil {
		return nil, err
	}
	for _, rec := range recs {
		if rec.J != j {
			continue
		}
		r, err := fndsacount.CountKAT2026(rec)
		if err != nil {
			return nil, err
		}
		if !r.PinMatch {
			return nil, fmt.Errorf("rust-fn-dsa KAT record %d of degree %d: the counted signature does not match the record's pin", j, 1<<logn)
		}
		return r, nil
	}
	return nil, fmt.Errorf("fn-dsa-2026: rust-fn-dsa's KAT has no record %d of degree %d", j, 1<<logn)
}

// CountRound3Keys refuses: the 2026 draft's hedged signing reads a
// 40-byte seed, which a round-3 NIST record (a 48-byte seed) does not
// give, and its keys are its own integer key generation's.
func (fnDSA2026) CountRound3Keys(logn uint, r int) (*accel.FNDSACounts, error) {
	return nil, fmt.Errorf("fn-dsa-2026 is counted over rust-fn-dsa's own KAT records with their keys (--fn-dsa-record), not with round-3 keys (--key-source falcon)")
}

func (fnDSA2026) VerifyOps(logn uint, keccak uint64) [5]uint64 {
	return accel.FNDSA2026VerifyOps(logn, keccak)
}

var (
	countsNotes2026 = []string{
		"keys: fndsa2026.KeyGen of the rust-fn-dsa test_kat record's seed (SHAKE256(logn || j as 32-bit little-endian), its first 32 bytes); integer key generation, not counted",
		"sign: fndsa2026 Sign over emu64 as rust-fn-dsa's test_kat signs: the next 40 bytes of that stream as the signing seed, context \"domain\", the message \"message\" raw (even j) or its SHA3-256 digest pre-hashed (odd j); the signature is verified and SHA3-256(sk || vk || sig) equals the record's pin",
		"fpr counters under the FPEMU model of accel counts; ApproxExp is the 2025 profile's integer Horner evaluation (no expm_p63), and the base sampler is integer",
		fmt.Sprintf("mq_montymul: rust-fn-dsa's mq_mmul from its call structure: signing makes none (the signing key is decoded once per key, recomputing G = g F / f: %d at 512, %d at 1024, not per signature); verify transforms s2 only (h is stored in NTT form): NTT + iNTT + 2 n", accel.MqFNDSA2026KeyDecode(9), accel.MqFNDSA2026KeyDecode(10)),
		"keccak_f1600: from the bytes each SHAKE256 absorbs and squeezes (rate 136): signing computes mu (the key digest the signing key holds, context, pre-hash identifier, data; 64 bytes), the hedged seed SHAKE256(hsk || mu || rnd), and per attempt the stream SHAKE256(seed || counter) that gives the nonce and then the sampler's bytes, and hash-to-point (nonce || mu, 16-bit little-endian draws); verify: the verifying key's digest, mu and hash-to-point",
		"modp_montymul: none in signing (NTRUSolve is key generation only)",
		"the accel models are round 3's: accel cycles (its baselines are measured round-3 cycles), accel latency and accel fpru take round-3 counts only",
	}
	cyclesNotes2026 = []string{
		"FN-DSA (2026 draft): the verify path only; the phase model (keygen, sign, verify against the table's measured software cycles) is round 3's and is not run",
		"per record: the signature of accel counts --scheme fn-dsa-2026 (a rust-fn-dsa test_kat record with its keys, context and message), verified as rust-fn-dsa verifies: keccak_f1600 of the verifying key's digest, mu and hash-to-point, (n/2) logn NTT butterflies (s2 only; h is stored in NTT form) and (n/2) logn iNTT butterflies, 2n pointwise products, n per coefficient",
		"the costs per operation are the table's: for horcrux, HORCRUX's round-3 software and units; the 2026 draft's verification is assumed to cost the same per operation",
		"the published verify figures are Falcon round 3's and are not compared",
	}
)

// CountsNotes are the notes of accel counts (round3Keys is refused by
// CountRound3Keys).
func (fnDSA2026) CountsNotes(bool) []string { return slices.Clone(countsNotes2026) }

func (fnDSA2026) CyclesNotes() []string { return slices.Clone(cyclesNotes2026) }
