package fndsacount

import (
	"encoding/hex"
	"testing"

	"github.com/fprlab/fprlab/fndsa2026"
)

// TestCountKAT2026 checks the counts of rust-fn-dsa 0.4.0's test_kat
// records (the July 2026 draft) against numbers derived by hand from the
// byte counts and the rate of SHAKE256 (136 bytes), and from the
// structure of rust-fn-dsa's NTT. The signature counted is theirs (its
// SHA3-256(sk || vk || sig) is the record's pin) and takes one attempt.
// Its nonce, and the number of 16-bit little-endian draws of
// hash-to-point, were computed with Python's hashlib from the record's
// keys and signing seed: hvk = SHAKE256(vk)[:64], mu = SHAKE256(hvk ||
// pre-hashed || len(ctx) || ctx || OID || data)[:64], hsk = SHAKE256(the
// signing key's f and g encoding)[:40], the hedged seed SHAKE256(hsk || mu
// || rnd)[:40], the nonce SHAKE256(hedged seed || 00)[:40], the draws
// those of SHAKE256(nonce || mu) until n are below 5q.
//
// FN-DSA-512 record 1 (SHA3-256("message") pre-hashed, context "domain"):
//
//	mu            absorb 64 + 2 + 6 + 11 (OID) + 32 = 115, squeeze 64   1
//	hedged seed   absorb 40 + 64 + 40 = 144 = 136 + 8, squeeze 40     1 + 1 = 2
//	attempt       absorb 41, squeeze 40 + B sampler bytes            ceil((40 + B) / 136)
//	hash-to-point absorb 40 + 64, squeeze 556 draws x 2 = 1112 bytes   ceil(1112 / 136) = 9
//	verify: key digest 897 = 6 x 136 + 81 bytes, 6 + 1 = 7; mu 1; hash-to-point 9: 17
//	mq_mmul: sign 0; verify 2 x 256 x 9 + 2 x 512 = 5,632
//
// FN-DSA-1024 record 0 ("message" raw): mu absorb 79: 1; hedged seed 2;
// hash-to-point 1079 draws, 2158 bytes: ceil(2158 / 136) = 16; verify key
// digest 1793 = 13 x 136 + 25: 14, + 1 + 16 = 31; mq_mmul verify 2 x 512 x
// 10 + 2 x 1024 = 12,288.
func TestCountKAT2026(t *testing.T) {
	recs, err := fndsa2026.KAT()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		logn         uint
		j            int
		h2p          uint64
		draws        int64
		nonce        string
		digest       uint64
		mqVerify     uint64
		keccakVerify uint64
	}{
		{9, 1, 9, 556, "df611eaceb0af15b6adc7a00e10d4bd8057b4bc4694154c7554580dd0f30fa18ab773198b4df6069", 7, 5632, 17},
		{10, 0, 16, 1079, "dfdd4da93c5607ea3c795eb5b813e1f6708fc51044da1ed9c184d40d820337f171a2a6aeef244a94", 14, 12288, 31},
	} {
		var rec *fndsa2026.KATRecord
		for i := range recs {
			if recs[i].LogN == c.logn && recs[i].J == c.j {
				rec = &recs[i]
			}
		}
		if rec == nil {
			t.Fatalf("no rust-fn-dsa KAT record %d of degree %d", c.j, 1<<c.logn)
		}
		r, err := CountKAT2026(*rec)
		if err != nil {
			t.Fatal(err)
		}
		if !r.PinMatch || !r.KeysMatch || r.KeySource != "fn-dsa-2026" || r.FNDSARecord == nil || r.FNDSARecord.J != c.j || r.KAT != nil {
			t.Errorf("logn %d j %d: pin %v keys %v source %q record %+v", c.logn, c.j, r.PinMatch, r.KeysMatch, r.KeySource, r.FNDSARecord)
		}
		if got := hex.EncodeToString(r.Signature[1:41]); r.Attempts != 1 || got != c.nonce {
			t.Errorf("logn %d j %d: %d attempts, nonce %s; want 1 attempt with nonce %s", c.logn, c.j, r.Attempts, got, c.nonce)
		}
		k := r.SignKeccak
		if k.Mu != 1 || k.HedgedSeed != 2 || k.KeyDigest != 0 || k.Nonces != 0 || k.HashToPoint != c.h2p || k.HashToPointDraws != c.draws {
			t.Errorf("logn %d j %d: sign keccak %+v", c.logn, c.j, k)
		}
		if k.Sampler != uint64((40+k.SamplerBytes+135)/136) || k.SamplerBytes-10*r.BerExpTrials < r.BerExpTrials || k.SamplerBytes-10*r.BerExpTrials > 8*r.BerExpTrials {
			t.Errorf("logn %d j %d: attempt stream %d permutations for %d sampler bytes, %d trials", c.logn, c.j, k.Sampler, k.SamplerBytes, r.BerExpTrials)
		}
		if r.SignInt.MqMontymul != 0 || r.SignInt.ModpMontymul != 0 || r.SignInt.KeccakF1600 != 1+2+k.Sampler+c.h2p {
			t.Errorf("logn %d j %d: sign %+v", c.logn, c.j, r.SignInt)
		}
		v := r.VerifyKeccak
		if v.KeyDigest != c.digest || v.Mu != 1 || v.HashToPoint != c.h2p || v.HashToPointDraws != c.draws ||
			r.VerifyInt.MqMontymul != c.mqVerify || r.VerifyInt.KeccakF1600 != c.keccakVerify {
			t.Errorf("logn %d j %d: verify %+v, keccak %+v", c.logn, c.j, r.VerifyInt, v)
		}
		if r.Sign.ExpmP63 != 0 || r.SignCalls.Trunc != 3*uint64(r.BerExpTrials) {
			t.Errorf("logn %d j %d: %d expm_p63 and %d trunc for %d trials", c.logn, c.j, r.Sign.ExpmP63, r.SignCalls.Trunc, r.BerExpTrials)
		}
	}
	// Only the standard degrees are counted.
	for _, rec := range recs {
		if rec.LogN == 8 {
			if _, err := CountKAT2026(rec); err == nil {
				t.Error("rust-fn-dsa KAT record of degree 256 counted")
			}
			break
		}
	}
}
