package fndsa

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"hash"
	"math"
	"os"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon"
)

// A signature's bytes depend on the sampled integers only, which tolerate
// small floating-point differences; the traces of testdata/gofndsa/
// trace.json pin the floating-point values themselves. go-fn-dsa, with
// two hooks added to its sampler (trace.patch), hashed every SamplerZ call
// of a signature -- its centre mu and 1/sigma as binary64 bits and the
// integer returned -- and every ApproxExp value, over all attempts; its
// native and emulated builds give the same digests. The same signature
// made here, observed through falcon.Instantiate, must hash the same.

type goTrace struct {
	Signature  int    `json:"signature"`
	Samples    int    `json:"samples"`
	Expms      int    `json:"expms"`
	SampleHash string `json:"sha256_samples"`
	ExpmHash   string `json:"sha256_expms"`
	Sig        string `json:"sig"`
}

// traceObserver hashes what the sampler reports, as the driver's hooks do.
type traceObserver[F any, A arith.Arith[F]] struct {
	a              A
	samples, expms hash.Hash
	ns, ne         int
}

func newTraceObserver[F any, A arith.Arith[F]](a A) *traceObserver[F, A] {
	return &traceObserver[F, A]{a: a, samples: sha256.New(), expms: sha256.New()}
}

func (o *traceObserver[F, A]) Stage(falcon.Stage, int, int, ...[]F) {}
func (o *traceObserver[F, A]) Attempt(*falcon.Attempt)              {}
func (o *traceObserver[F, A]) Sample(mu, isigma F, z int64, _ int) {
	var b [20]byte
	binary.LittleEndian.PutUint64(b[0:], math.Float64bits(o.a.Float64(mu)))
	binary.LittleEndian.PutUint64(b[8:], math.Float64bits(o.a.Float64(isigma)))
	binary.LittleEndian.PutUint32(b[16:], uint32(int32(z)))
	o.samples.Write(b[:])
	o.ns++
}
func (o *traceObserver[F, A]) BerExp(expm uint64, _ uint, _ uint64, _ int, _ bool) {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], expm)
	o.expms.Write(b[:])
	o.ne++
}

func (o *traceObserver[F, A]) check(t *testing.T, name string, r goTrace) {
	t.Helper()
	if o.ns != r.Samples || o.ne != r.Expms {
		t.Fatalf("%s signature %d: %d samples and %d ApproxExp values, go-fn-dsa %d and %d", name, r.Signature, o.ns, o.ne, r.Samples, r.Expms)
	}
	if got := hex.EncodeToString(o.samples.Sum(nil)); got != r.SampleHash {
		t.Fatalf("%s signature %d: SamplerZ inputs hash %s, go-fn-dsa %s", name, r.Signature, got, r.SampleHash)
	}
	if got := hex.EncodeToString(o.expms.Sum(nil)); got != r.ExpmHash {
		t.Fatalf("%s signature %d: ApproxExp values hash %s, go-fn-dsa %s", name, r.Signature, got, r.ExpmHash)
	}
}

// TestGoFNDSATrace checks the traces on the generic code over native and
// emu64 arithmetic (the generated copies are checked by the signatures).
func TestGoFNDSATrace(t *testing.T) {
	data, err := os.ReadFile("testdata/gofndsa/trace.json")
	if err != nil {
		t.Fatal(err)
	}
	var traces []goTrace
	if err := json.Unmarshal(data, &traces); err != nil {
		t.Fatal(err)
	}
	if len(traces) != 10 {
		t.Fatalf("%d traces, want 10", len(traces))
	}
	v := vectors(t)
	for _, r := range traces {
		s := v.Sigs[r.Signature]
		k, err := DecodeSigningKey(unhex(t, v.Keys[s.Key].SKey), false)
		if err != nil {
			t.Fatal(err)
		}
		sign := func(b arith.Backend) {
			sig, err := k.Sign(b, unhex(t, s.Ctx), preHash(t, s.Hash), unhex(t, s.Data), bytes.NewReader(unhex(t, s.SignSeed)))
			if err != nil {
				t.Fatal(err)
			}
			if hex.EncodeToString(sig) != r.Sig {
				t.Fatalf("signature %d differs from go-fn-dsa's", r.Signature)
			}
		}
		on := newTraceObserver[float64](native.Arith{})
		sign(falcon.Instantiate(backend(t, "native"), native.Arith{}, on))
		on.check(t, "native", r)
		oe := newTraceObserver[emu64.FPR](emu64.Arith{})
		sign(falcon.Instantiate(backend(t, "emu64"), emu64.Arith{}, oe))
		oe.check(t, "emu64", r)
	}
}
