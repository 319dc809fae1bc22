package accel

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// KATCounts are the operation counts of one record of the NIST KAT flow,
// per phase of the round-3 NIST API, as the reference's instrumented FPEMU
// build reports them.
type KATCounts struct {
	// Record is the generated record (seed, message, pk, sk, sm).
	Record falcon.KATRecord

	// Keypair is crypto_sign_keypair: key generation and key encoding.
	// Sign is crypto_sign: private-key decoding (which recomputes G in
	// integers), nonce, hashing and signing. Open is crypto_sign_open:
	// decoding and verification, which in fprlab as in the reference is
	// integer arithmetic only (falcon.OpenSM takes no backend), so Open
	// is always zero.
	Keypair, Sign, Open Counts

	// KeypairCalls and SignCalls are the raw Arith method calls behind
	// Keypair and Sign.
	KeypairCalls, SignCalls Calls

	// KeypairInt, SignInt and OpenInt are the integer counters of the
	// phases (intcounts.go).
	KeypairInt, SignInt, OpenInt IntCounts
	// Candidates is the number of key-generation candidates that passed
	// the Gram-Schmidt bound (each calls compute_public), SignAttempts
	// the number of signing attempts.
	Candidates, SignAttempts int
}

// TotalInt returns the integer counters summed over the phases.
func (k *KATCounts) TotalInt() IntCounts { return k.KeypairInt.Plus(k.SignInt).Plus(k.OpenInt) }

// Total returns the counters summed over the three phases (zero for a nil
// k).
func (k *KATCounts) Total() Counts {
	if k == nil {
		return Counts{}
	}
	return k.Keypair.Plus(k.Sign).Plus(k.Open)
}

// CountKATRecord runs the NIST KAT flow of record count (0 <= count <
// falcon.MaxKATRequests; another count is an error) for degree 2^logn (512
// or 1024) over the emu64 backend -- the arithmetic of the reference's
// FPEMU build -- with key generation and signing counted by separate
// wrappers, then opens the signed message to check it. The request (seed
// and message) is the count-th record of the NIST request file, so for
// count < 100 the generated record is the published one.
func CountKATRecord(logn uint, count int) (*KATCounts, error) {
	if _, err := falcon.KATName(logn); err != nil {
		return nil, err
	}
	rec, err := falcon.KATRequest(count)
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	base, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	kc := NewCounting[emu64.FPR](emu64.Arith{})
	sc := NewCounting[emu64.FPR](emu64.Arith{})
	cand := newKeygenCandidates()
	kb := falcon.Instantiate(kc.Backend(base), kc, falcon.Observer[emu64.FPR](cand))
	streams := &falcon.KATStreams{}
	if err := falcon.GenerateKAT(logn, &rec, falcon.KATOptions{Keygen: kb, Sign: sc.Backend(base), Streams: streams}); err != nil {
		return nil, err
	}
	k := &KATCounts{Record: rec, KeypairCalls: kc.Calls(), SignCalls: sc.Calls()}
	k.Keypair = k.KeypairCalls.FPEMU()
	k.Sign = k.SignCalls.FPEMU()

	// Integer counters. The nonce is bytes 2..41 of the signed message.
	if len(rec.SM) < 2+falcon.NonceSize {
		return nil, fmt.Errorf("accel: KAT record %d: signed message of %d bytes", count, len(rec.SM))
	}
	nonce := rec.SM[2 : 2+falcon.NonceSize]
	draws, pt := HashToPointDraws(nonce, rec.Msg, logn)
	if !slices.Equal(pt, falcon.HashToPoint(nonce, rec.Msg, logn)) {
		return nil, fmt.Errorf("accel: KAT record %d: the hash-to-point model disagrees with falcon.HashToPoint", count)
	}
	hash := ShakePermutations(int64(len(nonce)+len(rec.Msg)), 2*draws)
	const seedBytes = 48 // each SHAKE256 stream of nist.c is seeded with 48 DRBG bytes
	k.Candidates = cand.passed
	k.SignAttempts = int(streams.SignBytes / falcon.SeedSize)
	k.KeypairInt = IntCounts{
		ModpMontymul: cand.modp,
		MqMontymul:   cand.mq,
		KeccakF1600:  ShakePermutations(seedBytes, streams.KeygenBytes),
	}
	k.SignInt = IntCounts{
		MqMontymul:  MqCompletePrivate(logn),
		KeccakF1600: hash + ShakePermutations(seedBytes, streams.SignBytes),
	}
	k.OpenInt = IntCounts{MqMontymul: MqVerify(logn), KeccakF1600: hash}

	pk, err := falcon.DecodePublicKey(rec.PK)
	if err != nil {
		return nil, fmt.Errorf("accel: KAT record %d: generated public key: %w", count, err)
	}
	msg, err := falcon.OpenSM(pk, rec.SM)
	if err != nil {
		return nil, fmt.Errorf("accel: KAT record %d: the generated signed message does not verify: %w", count, err)
	}
	if !bytes.Equal(msg, rec.Msg) {
		return nil, fmt.Errorf("accel: KAT record %d: the signed message opens to a different message", count)
	}
	return k, nil
}
