package fndsacount

import (
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"github.com/fprlab/fprlab/accel"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
)

// TestCountFNDSARecord0 checks the integer counters of FN-DSA signatures
// with the keys of KAT record 0 against numbers derived by hand from the
// byte counts and the rate of SHAKE256 (136 bytes) and from the structure
// of go-fn-dsa's NTT. The record's signature takes one attempt: its nonce
// is the first 40 bytes of SHAKE256(seed || 0), checked with Python's
// hashlib, as was the number of 16-bit draws of hash-to-point (input
// nonce || SHAKE256(vk)[:64] || 00 00 || the 33-byte message).
//
// Falcon-512 (n = 512, logn 9):
//
//	key digest    absorb 897 bytes = 6 x 136 + 81, squeeze 64     6 + 1 = 7
//	nonce stream  absorb 48 + 4 bytes, squeeze 96                     1
//	hash-to-point absorb 40 + 64 + 2 + 33 = 139 = 136 + 3, squeeze
//	              547 draws x 2 = 1094 bytes, 8 x 136 = 1088 < 1094 1 + 9 = 10
//	sampler       19,708 bytes read (= 10 per trial + the comparisons'
//	              bytes, TestFIPS206SamplerBytes), 144 x 136 = 19,584  145
//	sign 7 + 1 + 10 + 145 = 163; verify 7 + 10 = 17
//	mq_mmul sign   3 NTT + 2 iNTT + 22 n = 5 x 256 x 9 + 22 x 512 = 22,784
//	mq_mmul verify 2 NTT + iNTT + 2 n = 3 x 2,304 + 1,024 = 7,936
//
// Falcon-1024: key digest 1793 = 13 x 136 + 25 bytes: 14; nonce 1;
// hash-to-point 1 + ceil(2 x 1104 / 136 = 16.2) = 18; sampler 38,163
// bytes: 281 (280 x 136 = 38,080); sign 314, verify 32; mq_mmul
// 5 x 512 x 10 + 22 x 1024 = 48,128 and 3 x 5,120 + 2,048 = 17,408.
func TestCountFNDSARecord0(t *testing.T) {
	for _, c := range []struct {
		logn                 uint
		digest, h2p, sampler uint64
		draws, bytes         int64
		sign, verify         accel.IntCounts
	}{
		{9, 7, 10, 145, 547, 19708, accel.IntCounts{MqMontymul: 22784, KeccakF1600: 163}, accel.IntCounts{MqMontymul: 7936, KeccakF1600: 17}},
		{10, 14, 18, 281, 1104, 38163, accel.IntCounts{MqMontymul: 48128, KeccakF1600: 314}, accel.IntCounts{MqMontymul: 17408, KeccakF1600: 32}},
	} {
		r, err := CountRecord(c.logn, 0)
		if err != nil {
			t.Fatal(err)
		}
		k := r.SignKeccak
		if r.Attempts != 1 || k.KeyDigest != c.digest || k.Nonces != 1 || k.HashToPoint != c.h2p || k.Sampler != c.sampler ||
			k.HashToPointDraws != c.draws || k.SamplerBytes != c.bytes {
			t.Errorf("logn %d: %d attempts, keccak %+v", c.logn, r.Attempts, k)
		}
		if r.SignInt != c.sign || r.VerifyInt != c.verify {
			t.Errorf("logn %d: sign %+v (want %+v), verify %+v (want %+v)", c.logn, r.SignInt, c.sign, r.VerifyInt, c.verify)
		}
		// Each trial reads 10 bytes and 1 to 8 for its comparison.
		if cmp := r.SignKeccak.SamplerBytes - 10*r.BerExpTrials; cmp < r.BerExpTrials || cmp > 8*r.BerExpTrials {
			t.Errorf("logn %d: %d bytes for %d trials", c.logn, r.SignKeccak.SamplerBytes, r.BerExpTrials)
		}
		if r.Sign.ExpmP63 != 0 || r.SignCalls.Trunc != 3*uint64(r.BerExpTrials) {
			t.Errorf("logn %d: %d expm_p63 and %d trunc for %d trials (want none and 3 per trial)", c.logn, r.Sign.ExpmP63, r.SignCalls.Trunc, r.BerExpTrials)
		}
	}
}

// TestFNDSAStageAttribution: the operations of an FN-DSA signature counted
// per plan stage add up, operation by operation, to the signature's calls
// as accel counts counts them (over emu64, the same signature: the
// binary64 backends sign FN-DSA alike); the expm stage holds none of them
// (FN-DSA's ApproxExp is integer), and its two truncations per Bernoulli
// trial are the sampler stage's, beside round 3's one.
func TestFNDSAStageAttribution(t *testing.T) {
	r, err := CountRecord(9, 0)
	if err != nil {
		t.Fatal(err)
	}
	sk, err := falcon.DecodePrivateKey(r.KAT.Record.SK)
	if err != nil {
		t.Fatal(err)
	}
	key, err := fndsa.NewSigningKey(sk, false)
	if err != nil {
		t.Fatal(err)
	}
	var sig []byte
	ops, err := accel.CountStages(1, func(b arith.Backend) error {
		sig, err = key.SignSeeded(b, nil, fndsa.None, r.KAT.Record.Msg, r.KAT.Record.Seed)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if string(sig) != string(r.Signature) {
		t.Fatal("the staged count signed another signature")
	}
	want := map[arith.Op]uint64{
		arith.OpOf: r.SignCalls.Of, arith.OpScaled: r.SignCalls.Scaled, arith.OpFromFloat64: r.SignCalls.FromFloat64, arith.OpConst: r.SignCalls.Const,
		arith.OpGM: r.SignCalls.GM, arith.OpAdd: r.SignCalls.Add, arith.OpSub: r.SignCalls.Sub, arith.OpNeg: r.SignCalls.Neg, arith.OpHalf: r.SignCalls.Half,
		arith.OpDouble: r.SignCalls.Double, arith.OpMul: r.SignCalls.Mul, arith.OpSqr: r.SignCalls.Sqr, arith.OpInv: r.SignCalls.Inv, arith.OpDiv: r.SignCalls.Div,
		arith.OpSqrt: r.SignCalls.Sqrt, arith.OpRint: r.SignCalls.Rint, arith.OpFloor: r.SignCalls.Floor, arith.OpTrunc: r.SignCalls.Trunc,
		arith.OpLt: r.SignCalls.Lt, arith.OpExpmP63: r.SignCalls.ExpmP63,
	}
	total := uint64(0)
	for o, w := range want {
		sum := 0.0
		for s := range ops {
			sum += ops[s][o]
		}
		if sum != float64(w) {
			t.Errorf("%s: the stages sum to %g, accel counts %d", o, sum, w)
		}
		total += w
	}
	if total == 0 {
		t.Fatal("nothing counted")
	}
	for o, v := range ops[arith.PlanExpm] {
		if v != 0 {
			t.Errorf("FN-DSA's expm stage: %g %s", v, arith.Op(o))
		}
	}
	if got := ops[arith.PlanSampler][arith.OpTrunc]; got != 3*float64(r.BerExpTrials) {
		t.Errorf("sampler stage: %g truncations for %d trials, want 3 per trial", got, r.BerExpTrials)
	}
	// Round 3's signature of the same record computes expm_p63 in the
	// expm stage, once per trial.
	r3, err := accel.CountStages(1, func(b arith.Backend) error {
		_, err := falcon.SignHashedDyn(b, sk, falcon.HashToPoint(r.Signature[1:41], r.KAT.Record.Msg, 9), sha3.NewSHAKE256())
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if r3[arith.PlanExpm][arith.OpExpmP63] == 0 || r3[arith.PlanSampler][arith.OpExpmP63] != 0 {
		t.Errorf("round 3: expm_p63 in expm %g, in sampler %g", r3[arith.PlanExpm][arith.OpExpmP63], r3[arith.PlanSampler][arith.OpExpmP63])
	}
}

// TestCountFNDSAKAT checks the counts of go-fn-dsa's own KAT records with
// their FN-DSA keys. The signature counted is go-fn-dsa's: fndsa.RunKAT
// over emu64 (no counting backend) makes the same bytes, and
// SHA3-256(sk || vk || sig), computed here, is the record's pin. The
// integer counters are checked against numbers derived by hand, the
// SHAKE256 draws with Python's hashlib from the keys of `fprlab keygen
// --scheme fn-dsa --seed SHAKE256(00 || logn || LE32(j))[:32]` (whose
// SHA-256(sk || vk) is the record's key digest): each signature takes one
// attempt, whose nonce, the first 40 bytes of SHAKE256(01 || logn ||
// LE32(j) || LE32(0)), the signature carries.
//
// FN-DSA-512 record 1 (odd: SHA3-256("message") pre-hashed, context
// "domain"):
//
//	key digest    absorb 897 bytes = 6 x 136 + 81, squeeze 64     6 + 1 = 7
//	nonce stream  absorb 6 + 4 bytes, squeeze 96                      1
//	hash-to-point absorb 40 + 64 + 2 + 6 + 11 (OID) + 32 = 155
//	              = 136 + 19, squeeze 541 draws x 2 = 1082 bytes,
//	              ceil(1082 / 136) = 8                               1 + 8 = 9
//	sampler       ceil(B / 136) for the B bytes read (not derived here)
//	sign 7 + 1 + 9 + sampler; verify 7 + 9 = 16
//	mq_mmul sign 5 x 256 x 9 + 22 x 512 = 22,784, verify 3 x 2,304 + 1,024 = 7,936
//
// FN-DSA-1024 record 0 (even: "message" raw, context "domain"): key digest
// 1793 = 13 x 136 + 25 bytes: 14; nonce 1; hash-to-point absorb 40 + 64 +
// 2 + 6 + 7 = 119, squeeze 1081 draws x 2 = 2162 bytes, ceil(2162 / 136) =
// 16: 16; verify 14 + 16 = 30; mq_mmul 5 x 512 x 10 + 22 x 1024 = 48,128
// and 3 x 5,120 + 2,048 = 17,408.
func TestCountKAT(t *testing.T) {
	emu, err := arith.Lookup("emu64")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		logn              uint
		j                 int
		digest, h2p       uint64
		draws             int64
		nonce             string
		mqSign, mqVerify  uint64
		keccakVerifyTotal uint64
	}{
		{9, 1, 7, 9, 541, "4a087e541731389e8053a3165e9ebbc86079730ce964b809c9c7e4804e18cd4c1c1faedde035002d", 22784, 7936, 16},
		{10, 0, 14, 16, 1081, "60a083cad4366c36b03298d12a5e437b25f83ee36492a620b33dcffc4049a35fdd116f2fff0fc44c", 48128, 17408, 30},
	} {
		rec, ok, err := fndsa.KATRecordOf(c.logn, c.j)
		if err != nil || !ok {
			t.Fatalf("no go-fn-dsa KAT record %d of degree %d", c.j, 1<<c.logn)
		}
		r, err := CountKAT(rec)
		if err != nil {
			t.Fatal(err)
		}
		want, err := fndsa.RunKAT(emu, rec)
		if err != nil {
			t.Fatal(err)
		}
		pin := sha3.New256()
		pin.Write(want.SigningKey)
		pin.Write(want.VerifyingKey)
		pin.Write(r.Signature)
		if !bytes.Equal(r.Signature, want.Signature) || !bytes.Equal(pin.Sum(nil), rec.Pin[:]) || !r.PinMatch || !r.KeysMatch {
			t.Errorf("logn %d j %d: the counted signature is not go-fn-dsa's (same as RunKAT's %v, pin %v, PinMatch %v, KeysMatch %v)",
				c.logn, c.j, bytes.Equal(r.Signature, want.Signature), bytes.Equal(pin.Sum(nil), rec.Pin[:]), r.PinMatch, r.KeysMatch)
		}
		if r.KeySource != "fn-dsa" || r.KAT != nil || r.FNDSARecord == nil || r.FNDSARecord.J != c.j {
			t.Errorf("logn %d j %d: key source %q, round-3 record %v, go-fn-dsa record %+v", c.logn, c.j, r.KeySource, r.KAT != nil, r.FNDSARecord)
		}
		if got := hex.EncodeToString(r.Signature[1:41]); r.Attempts != 1 || got != c.nonce {
			t.Errorf("logn %d j %d: %d attempts, nonce %s; want 1 attempt with nonce %s", c.logn, c.j, r.Attempts, got, c.nonce)
		}
		k := r.SignKeccak
		if k.KeyDigest != c.digest || k.Nonces != 1 || k.HashToPoint != c.h2p || k.HashToPointDraws != c.draws {
			t.Errorf("logn %d j %d: sign keccak %+v", c.logn, c.j, k)
		}
		if k.Sampler != uint64((k.SamplerBytes+135)/136) || k.SamplerBytes-10*r.BerExpTrials < r.BerExpTrials || k.SamplerBytes-10*r.BerExpTrials > 8*r.BerExpTrials {
			t.Errorf("logn %d j %d: sampler %d permutations for %d bytes, %d trials", c.logn, c.j, k.Sampler, k.SamplerBytes, r.BerExpTrials)
		}
		if r.SignInt.MqMontymul != c.mqSign || r.SignInt.KeccakF1600 != c.digest+1+c.h2p+k.Sampler || r.SignInt.ModpMontymul != 0 {
			t.Errorf("logn %d j %d: sign %+v", c.logn, c.j, r.SignInt)
		}
		v := r.VerifyKeccak
		if v.KeyDigest != c.digest || v.HashToPoint != c.h2p || v.HashToPointDraws != c.draws ||
			r.VerifyInt.MqMontymul != c.mqVerify || r.VerifyInt.KeccakF1600 != c.keccakVerifyTotal {
			t.Errorf("logn %d j %d: verify %+v, keccak %+v", c.logn, c.j, r.VerifyInt, v)
		}
		if r.Sign.ExpmP63 != 0 || r.SignCalls.Trunc != 3*uint64(r.BerExpTrials) {
			t.Errorf("logn %d j %d: %d expm_p63 and %d trunc for %d trials", c.logn, c.j, r.Sign.ExpmP63, r.SignCalls.Trunc, r.BerExpTrials)
		}
	}
	// Only the standard degrees are counted.
	small, ok, err := fndsa.KATRecordOf(8, 0)
	if err != nil || !ok {
		t.Fatalf("no go-fn-dsa KAT record 0 of degree 256: %v", err)
	}
	if _, err := CountKAT(small); err == nil {
		t.Error("go-fn-dsa KAT record of degree 256 counted")
	}
}
