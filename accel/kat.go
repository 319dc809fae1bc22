package accel

import (
	"bytes"
	"fmt"

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
}

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
	if err := falcon.GenerateKATRecordSplit(kc.Backend(base), sc.Backend(base), logn, &rec); err != nil {
		return nil, err
	}
	k := &KATCounts{Record: rec, KeypairCalls: kc.Calls(), SignCalls: sc.Calls()}
	k.Keypair = k.KeypairCalls.FPEMU()
	k.Sign = k.SignCalls.FPEMU()

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
