package fndsa2025

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/scheme"
)

// FN-DSA's optional capabilities (package scheme): signing under a
// context and a pre-hash, go-fn-dsa's known-answer test, and (counts.go)
// the operation counts of the accelerator models.
var (
	_ scheme.ContextSigner = fnDSA{}
	_ scheme.KATReplayer   = fnDSA{}
)

func (fnDSA) MaxContext() int { return fndsa.MaxContext }

func (fnDSA) PreHash(name string) (string, int, error) {
	ph, err := fndsa.ParsePreHash(name)
	if err != nil {
		return "", 0, err
	}
	return ph.String(), ph.DigestSize(), nil
}

// weakKey says whether an encoded key's header names one of fndsa's
// research degrees (4 to 256), which its decoders take only when asked.
func weakKey(b []byte) bool { return len(b) > 0 && weak(uint(b[0]&0x0F)) }

func (fnDSA) SignContext(b arith.Backend, sk, ctx []byte, preHash string, msg []byte, rng io.Reader) ([]byte, uint, error) {
	ph, err := fndsa.ParsePreHash(preHash)
	if err != nil {
		return nil, 0, err
	}
	k, err := fndsa.DecodeSigningKey(sk, weakKey(sk))
	if err != nil {
		return nil, 0, err
	}
	sig, err := k.Sign(b, ctx, ph, msg, rng)
	return sig, k.LogN(), scheme.MarkEngine(err, fndsa.ErrSignAttempts)
}

// VerifyContext: fndsa's Verify checks the length and header of FN-DSA's
// one signature format before decoding, so every malformed signature is
// an invalid one, in FN-DSA's terms.
func (fnDSA) VerifyContext(pk, ctx []byte, preHash string, msg, sig []byte) (uint, error) {
	ph, err := fndsa.ParsePreHash(preHash)
	if err != nil {
		return 0, err
	}
	vk, err := fndsa.DecodeVerifyingKey(pk, weakKey(pk))
	if err != nil {
		return 0, err
	}
	err = vk.Verify(ctx, ph, msg, sig)
	if errors.Is(err, fndsa.ErrInvalidSignature) {
		err = scheme.MarkInvalid(err)
	}
	return vk.LogN(), err
}

func (fnDSA) KATName() string { return "go-fn-dsa's KAT" }

func (fnDSA) KATTitle() string {
	return "FN-DSA KAT of go-fn-dsa e24833f (FIPS 206 draft, not final): keys generated here, the same on every\n" +
		"backend; signatures over the backend; SHA3-256(sk||vk||sig) compared with go-fn-dsa's pins\n"
}

// katRecords returns go-fn-dsa's KAT records (fndsa.KAT: 90, ten per
// degree from 4 to 1024), those of degree 2^logn only when logn is not 0.
func katRecords(logn uint) ([]fndsa.KATRecord, error) {
	recs, err := fndsa.KAT()
	if err != nil || logn == 0 {
		return recs, err
	}
	if logn < fndsa.MinLogN || logn > fndsa.MaxLogN {
		return nil, fmt.Errorf("fn-dsa: go-fn-dsa's KAT has no records of degree %d", 1<<logn)
	}
	var kept []fndsa.KATRecord
	for _, r := range recs {
		if r.LogN == logn {
			kept = append(kept, r)
		}
	}
	return kept, nil
}

func (fnDSA) KATDegrees() (uint, uint) { return fndsa.MinLogN, fndsa.MaxLogN }

func (fnDSA) KATRecords(logn uint) (int, error) {
	recs, err := katRecords(logn)
	return len(recs), err
}

// ReplayKAT regenerates the records with keys generated here (integer
// arithmetic, the same for every backend) and signatures over b, and
// counts the records whose keys, pin SHA3-256(sk || vk || sig) and
// verification match go-fn-dsa's.
func (fnDSA) ReplayKAT(ctx context.Context, b arith.Backend, logn uint, n int, progress io.Writer) (scheme.KATResult, error) {
	recs, err := katRecords(logn)
	if err != nil {
		return scheme.KATResult{}, err
	}
	if n < 0 || n > len(recs) {
		return scheme.KATResult{}, fmt.Errorf("fn-dsa: %d records asked of go-fn-dsa's KAT, which has %d", n, len(recs))
	}
	recs = recs[:n]
	return scheme.ReplayKATRecords(ctx, "fn-dsa", b, n, func(i int) (uint, int) { return recs[i].LogN, recs[i].J },
		func(i int) (scheme.KATOutcome, error) {
			got, err := fndsa.RunKAT(b, recs[i])
			if err != nil {
				return scheme.KATOutcome{}, err
			}
			return scheme.KATOutcome{KeysMatch: got.KeysMatch, PinMatch: got.PinMatch, Verified: got.Verified}, nil
		}, progress)
}
