package accel

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// SamplerRecord is the rejection structure of the SamplerZ calls of real
// signing, as falcon's observer reports it: Pipeline.SimulatePairs
// consumes Attempts.
type SamplerRecord struct {
	// Attempts per sample in sampling order (z1, z0 of the first leaf,
	// then the next leaf's), the last one accepted.
	Attempts []int
	// Trials is the number of BerExp trials (one per attempt) and
	// BerExpBytes the random bytes their lazy comparisons drew.
	Trials, BerExpBytes uint64
}

// RandomBitsPerAttempt is the mean number of random bits one attempt of
// the reference's sampler drew in the recorded run: the base sampler's 72
// bits, the sign byte, and the bytes of the BerExp comparison.
func (r *SamplerRecord) RandomBitsPerAttempt() float64 {
	if r.Trials == 0 {
		return 0
	}
	return baseAndSignBits + 8*float64(r.BerExpBytes)/float64(r.Trials)
}

// samplerRecorder is a falcon.Observer that fills a SamplerRecord.
type samplerRecorder[F any] struct{ r *SamplerRecord }

func (s samplerRecorder[F]) Stage(falcon.Stage, int, int, ...[]F) {}
func (s samplerRecorder[F]) Attempt(*falcon.Attempt)              {}
func (s samplerRecorder[F]) Sample(mu, isigma F, z int64, rejections int) {
	s.r.Attempts = append(s.r.Attempts, rejections+1)
}
func (s samplerRecorder[F]) BerExp(expm uint64, shift uint, drawn uint64, nbytes int, accept bool) {
	s.r.Trials++
	s.r.BerExpBytes += uint64(nbytes)
}

// KATSamplerRecord signs the first records NIST KAT requests of degree
// 2^logn with signing arithmetic over the named backend (keys over emu64,
// as the reference's) and records every SamplerZ call (falcon.Observer):
// the accept/reject sequence of real signing. The backend must hold
// emu64.FPR or float64 values (emu64, native).
func KATSamplerRecord(backend string, logn uint, records int) (*SamplerRecord, error) {
	if records < 1 || records > falcon.MaxKATRequests {
		return nil, fmt.Errorf("accel: %d KAT records: want 1 to %d", records, falcon.MaxKATRequests)
	}
	if _, err := falcon.KATName(logn); err != nil {
		return nil, err
	}
	kb, err := arith.Lookup("emu64")
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	sb, err := arith.Lookup(backend)
	if err != nil {
		return nil, fmt.Errorf("accel: %w", err)
	}
	rec := &SamplerRecord{}
	var observed arith.Backend
	switch a := sb.Impl.(type) {
	case arith.Arith[emu64.FPR]:
		observed = falcon.Instantiate(sb, a, falcon.Observer[emu64.FPR](samplerRecorder[emu64.FPR]{rec}))
	case arith.Arith[float64]:
		observed = falcon.Instantiate(sb, a, falcon.Observer[float64](samplerRecorder[float64]{rec}))
	default:
		return nil, fmt.Errorf("accel: backend %q: sampler records are implemented for emu64.FPR and float64 values, not %T", backend, sb.Impl)
	}
	reqs := falcon.KATRequests(records)
	for i := range reqs {
		if err := falcon.GenerateKATRecordSplit(kb, observed, logn, &reqs[i]); err != nil {
			return nil, err
		}
	}
	return rec, nil
}
