package falcon

import (
	"math"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/arith/triword"
)

// sampleLog records the sampler calls of a run, as an Observer.
type sampleLog[F any] struct {
	mu      []F
	z       []int64
	berExps int
}

func (l *sampleLog[F]) Stage(Stage, int, int, ...[]F) {}
func (l *sampleLog[F]) Sample(mu, _ F, z int64, _ int) {
	l.mu = append(l.mu, mu)
	l.z = append(l.z, z)
}
func (l *sampleLog[F]) BerExp(uint64, uint, uint64, int, bool) { l.berExps++ }
func (l *sampleLog[F]) Attempt(*Attempt)                       {}

// TestEdgeSamples: with edge samples at deviation dev every sampler call
// of an attempt returns floor(mu) - dev or floor(mu) + 1 + dev (both
// signs occur), no Bernoulli trial runs, and the attempt's integers
// (s1, s2) are those of the samples; with dev = 0 the deviations are the
// smallest the support has. The option is refused outside an Instance and
// for a deviation outside the base sampler's support.
func TestEdgeSamples(t *testing.T) {
	sk := katKeys(t)[9]
	hm := make([]uint16, 512)
	for i := range hm {
		hm[i] = uint16((i * 7919) % Q)
	}
	seed := make([]byte, SeedSize)
	for _, dev := range []int{0, 7, MaxBaseSample} {
		log := &sampleLog[float64]{}
		b, err := WithEdgeSamples(Instantiate(mustBackend(t, "native"), native.Arith{}, Observer[float64](log)), dev)
		if err != nil {
			t.Fatal(err)
		}
		at, err := SignAttemptDyn(b, sk, hm, seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(log.z) != 2*len(hm) || log.berExps != 0 {
			t.Fatalf("dev %d: %d sampler calls, %d Bernoulli trials; want %d and 0", dev, len(log.z), log.berExps, 2*len(hm))
		}
		var neg, pos int
		for i, z := range log.z {
			switch c := int64(math.Floor(log.mu[i])); z {
			case c - int64(dev):
				neg++
			case c + 1 + int64(dev):
				pos++
			default:
				t.Fatalf("dev %d: call %d: z = %d for mu = %v", dev, i, z, log.mu[i])
			}
		}
		if neg == 0 || pos == 0 {
			t.Fatalf("dev %d: %d calls below, %d above: want both", dev, neg, pos)
		}
		if at == nil {
			t.Fatalf("dev %d: no attempt", dev)
		}
	}

	// The triword copy (monogen) takes the option too.
	log := &sampleLog[triword.TW]{}
	b, err := WithEdgeSamples(Instantiate(mustBackend(t, "triword"), triword.Arith{}, Observer[triword.TW](log)), 5)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := SignAttemptDyn(b, sk, hm, seed); err != nil {
		t.Fatal(err)
	}
	var ta triword.Arith
	for i, z := range log.z {
		if c := int64(ta.Floor(log.mu[i])); z != c-5 && z != c+6 {
			t.Fatalf("triword: call %d: z = %d, floor(mu) = %d", i, z, c)
		}
	}

	if _, err := WithEdgeSamples(mustBackend(t, "native"), 3); err == nil || !strings.Contains(err.Error(), "not instantiated") {
		t.Errorf("a backend that is no Instance: %v", err)
	}
	for _, dev := range []int{-1, MaxBaseSample + 1} {
		inst := Instantiate(mustBackend(t, "native"), native.Arith{}, nil)
		if _, err := WithEdgeSamples(inst, dev); err == nil || !strings.Contains(err.Error(), "support 0 to 18") {
			t.Errorf("deviation %d: %v", dev, err)
		}
	}
}
