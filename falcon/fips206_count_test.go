package falcon

import (
	"crypto/sha3"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/internal/fips206"
	"github.com/fprlab/fprlab/internal/shakeprng"
)

// countingSource counts the bytes the sampler reads from its PRNG.
type countingSource struct {
	p     *shakeprng.PRNG
	bytes int64
}

func (c *countingSource) U64() uint64 { c.bytes += 8; return c.p.U64() }
func (c *countingSource) U8() uint32  { c.bytes++; return c.p.U8() }

// trialBytes is an observer that adds 10 bytes per Bernoulli trial (the
// base sampler's 9, the sign bit's 1) and the bytes of the trial's lazy
// comparison: package accel counts FN-DSA's sampler PRNG this way.
type trialBytes struct {
	bytes, trials int64
}

func (o *trialBytes) Stage(Stage, int, int, ...[]float64) {}
func (o *trialBytes) Sample(float64, float64, int64, int) {}
func (o *trialBytes) Attempt(*Attempt)                    {}

func (o *trialBytes) BerExp(_ uint64, _ uint, _ uint64, nbytes int, _ bool) {
	o.bytes += 10 + int64(nbytes)
	o.trials++
}

// TestFIPS206SamplerBytes: the bytes an FN-DSA attempt's sampler reads from
// its SHAKE256 PRNG, counted at the source, are 10 per Bernoulli trial plus
// the bytes each trial's comparison drew, as its observer sees them.
func TestFIPS206SamplerBytes(t *testing.T) {
	b := arith.Backend{Name: "native", Bits: 53, ExpBits: 11, Impl: native.Arith{}}
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("fips206 sampler bytes"))
	sk, _, err := Keygen(b, 9, rng)
	if err != nil {
		t.Fatal(err)
	}
	full, hNTT, err := completeKeyNTT(sk)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		obs := &trialBytes{}
		e := &engineOf[float64, native.Arith]{b: b, obs: obs}
		seed := make([]byte, fips206.SeedSize)
		rng.Read(seed)
		msg := []byte{byte(i)}
		hm := HashToPoint(seed[:NonceSize], msg, 9)
		src := &countingSource{p: shakeprng.New(seed)}
		if _, err := e.runAttemptDyn(full, hNTT, hm, src, fnDSA2025Profile); err != nil {
			t.Fatal(err)
		}
		if obs.trials < 1024 || src.bytes != obs.bytes {
			t.Errorf("attempt %d: the sampler read %d bytes, the observer's count is %d over %d trials", i, src.bytes, obs.bytes, obs.trials)
		}
	}
}
