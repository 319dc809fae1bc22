package shadow

import (
	"bytes"
	"context"
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/falcon/katref"
)

// Point is one format of a precision sweep (`fprlab sweep --json`): the
// format's compare summary with the format's description and its NIST KAT
// conformance.
type Point struct {
	*Summary
	Format   string         `json:"format"`
	Bits     int            `json:"bits"`
	ExpBits  int            `json:"exp_bits,omitempty"`
	Rounding string         `json:"rounding"`
	KAT      *KATConformity `json:"kat,omitempty"`
}

// KATConformity counts how many of the first NIST KAT records a format
// reproduces (key generation and signing both over the format).
type KATConformity struct {
	Records       int    `json:"records"`
	KeygenBackend string `json:"keygen_backend"`
	MatchPK       int    `json:"match_pk"`
	MatchSK       int    `json:"match_sk"`
	MatchSM       int    `json:"match_sm"`
	Passed        int    `json:"passed"` // pk, sk and sm all equal
	// KeygenFailed counts records whose key generation could not complete
	// over the format (thousands of rejected candidates, or an exponent
	// range too small for NTRUSolve); they count as not passed, as do
	// records whose signing failed (no short attempt).
	KeygenFailed int    `json:"keygen_failed"`
	FirstFailure string `json:"first_failure,omitempty"`
}

// KATKeygenLimit is the number of consecutive failed key candidates after
// which a sweep's KAT conformance counts a record's key generation as
// failed (binary64 arithmetic needs a handful at most: the longest runs
// measured over it are about 25 candidates, at n = 8).
const KATKeygenLimit = 64

// KATConformance regenerates the first n NIST KAT records of degree 2^logn
// over b and compares them with the published file.
func KATConformance(ctx context.Context, b arith.Backend, logn uint, n int) (*KATConformity, error) {
	rsp, err := katref.Response(logn)
	if err != nil {
		return nil, err
	}
	_, ref, err := falcon.ParseKAT(rsp)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > len(ref) {
		return nil, fmt.Errorf("KAT records %d out of range 0..%d", n, len(ref))
	}
	// A backend that cannot run NTRUSolve at all (triword's exponent
	// range) signs with the reference's keys from emu64, as `fprlab kat`
	// does; its conformance is then that of its signatures.
	k := &KATConformity{Records: n, KeygenBackend: b.Name}
	kb := b
	if falcon.KeygenSupported(b) != nil {
		em, err := arith.Lookup("emu64")
		if err != nil {
			return nil, err
		}
		kb, k.KeygenBackend = em, em.Name
	}
	for i, req := range falcon.KATRequests(n) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		err := falcon.GenerateKAT(logn, &req, falcon.KATOptions{Keygen: kb, Sign: b, MaxKeygenFailures: KATKeygenLimit})
		if err != nil && k.FirstFailure == "" {
			k.FirstFailure = fmt.Sprintf("record %d: %v", i, err)
		}
		if err != nil && req.PK == nil {
			k.KeygenFailed++
			continue
		}
		if err != nil {
			req.SM = nil // signing failed: the record cannot pass
		}
		pk, sk, sm := bytes.Equal(req.PK, ref[i].PK), bytes.Equal(req.SK, ref[i].SK), bytes.Equal(req.SM, ref[i].SM)
		k.MatchPK += b2n(pk)
		k.MatchSK += b2n(sk)
		k.MatchSM += b2n(sm)
		k.Passed += b2n(pk && sk && sm)
	}
	return k, nil
}

func b2n(b bool) int {
	if b {
		return 1
	}
	return 0
}
