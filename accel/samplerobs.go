package accel

import (
	"fmt"

	"github.com/fprlab/fprlab/arith"
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

// recorders holds the sampler recorders of the registered value types: the
// backend with its arithmetic instantiated under a samplerRecorder.
var recorders arith.Instances[func(b arith.Backend, r *SamplerRecord) arith.Backend]

// RegisterValueType instantiates the sampler recorder for backends whose
// Impl is an A with values F (A = arith.Arith[F] for every such backend).
// It is called by package valuetype, the one place that registers a value
// type with every consumer.
func RegisterValueType[F any, A arith.Arith[F]]() {
	arith.Add(&recorders, func(a A) func(arith.Backend, *SamplerRecord) arith.Backend {
		return func(b arith.Backend, r *SamplerRecord) arith.Backend {
			return falcon.Instantiate(b, a, falcon.Observer[F](samplerRecorder[F]{r}))
		}
	})
}

// KATSamplerRecord signs the first records NIST KAT requests of degree
// 2^logn with signing arithmetic over the named backend (keys over emu64,
// as the reference's) and records every SamplerZ call (falcon.Observer):
// the accept/reject sequence of real signing. The backend's value type
// must be registered (package valuetype).
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
	mk, ok := recorders.For(sb.Impl)
	if !ok {
		return nil, fmt.Errorf("accel: backend %q has value type %T, which the sampler recorder is not instantiated for (register it with package valuetype)", backend, sb.Impl)
	}
	observed := mk(sb, rec)
	reqs := falcon.KATRequests(records)
	for i := range reqs {
		if err := falcon.GenerateKAT(logn, &reqs[i], falcon.KATOptions{Keygen: kb, Sign: observed}); err != nil {
			return nil, err
		}
	}
	return rec, nil
}
