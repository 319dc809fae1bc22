package falcon

import (
	"bytes"
	"crypto/sha3"
	"math"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/internal/samplerprng"
)

// twoTrials is a test acceptance: the pipelined design's two Bernoulli
// trials written out here with math.Exp (package accel holds the model),
// counting its calls.
type twoTrials struct {
	calls *int
	words int
}

func (twoTrials) Name() string { return "test-two-trials" }
func (t twoTrials) Words() int { return t.words }
func (t twoTrials) thresholds(x, ccs float64) (uint64, uint64) {
	return uint64(math.Ldexp(math.Exp(-x), 64)), uint64(math.Ldexp(ccs, 64))
}

func (t twoTrials) Accept(x, ccs float64, words []uint64) bool {
	*t.calls++
	if x < 0 || !(ccs > 0 && ccs < 1) {
		panic("acceptance called outside its domain")
	}
	if x == 0 {
		return words[1] < uint64(math.Ldexp(ccs, 64))
	}
	t1, t2 := t.thresholds(x, ccs)
	return words[0] < t1 && words[1] < t2
}

// TestAcceptanceDistribution samples 200,000 values of SamplerZ with the
// test acceptance in place of BerExp: whatever the acceptance test, a
// sampler that accepts with probability ccs exp(-x) returns the discrete
// Gaussian D_{Z, mu, sigma}, whose probabilities are computed here from
// its definition. The chi-square statistic over the 15 central values
// (the rest pooled) must stay below 50 (15 degrees of freedom: a
// probability of about 1e-5 for a correct sampler; one run, fixed seed).
// The acceptance must also have been called once per iteration of the
// rejection loop, and never with BerExp's domain violated.
func TestAcceptanceDistribution(t *testing.T) {
	const mu, sigma, samples = 0.3, 1.5, 200000
	calls := 0
	var seed [SeedSize]byte
	copy(seed[:], "acceptance distribution")
	var p samplerprng.PRNG
	p.Init(&seed)
	var a native.Arith
	s := newSampler(a, &p, 9, nil)
	s.setAcceptance(twoTrials{calls: &calls, words: 2})
	counts := map[int64]int{}
	for range samples {
		counts[s.sample(mu, 1/sigma)]++
	}
	if s.stuck {
		t.Fatal("sampler stuck")
	}
	weight := func(z int64) float64 { d := float64(z) - mu; return math.Exp(-d * d / (2 * sigma * sigma)) }
	var total float64
	for z := int64(-40); z <= 40; z++ {
		total += weight(z)
	}
	chi2, pooledObs, pooledExp := 0.0, 0, 1.0
	for z := int64(-7); z <= 7; z++ {
		e := samples * weight(z) / total
		d := float64(counts[z]) - e
		chi2 += d * d / e
		pooledObs += counts[z]
		pooledExp -= weight(z) / total
	}
	if e := samples * pooledExp; e > 0 {
		d := float64(samples-pooledObs) - e
		chi2 += d * d / e
	}
	if chi2 > 50 {
		t.Errorf("chi-square %.1f over 15 degrees of freedom: the samples do not follow D_{Z,%g,%g} (%v)", chi2, mu, sigma, counts)
	}
	// Each accepted sample ends one iteration; a rejection costs one
	// more: the mean number of iterations is 1/P(accept) ~ 1.7 here.
	if calls < samples || calls > 3*samples {
		t.Errorf("%d acceptance calls for %d samples", calls, samples)
	}
}

// countingObserver counts the sampler's iterations from Sample events.
type countingObserver struct {
	iterations, berexp, accept int
}

func (c *countingObserver) Stage(Stage, int, int, ...[]float64) {}
func (c *countingObserver) Sample(mu, isigma float64, z int64, rejections int) {
	c.iterations += rejections + 1
}
func (c *countingObserver) BerExp(uint64, uint, uint64, int, bool) { c.berexp++ }
func (c *countingObserver) Attempt(*Attempt)                       {}
func (c *countingObserver) Acceptance(x, ccs float64, words []uint64, accept bool) {
	if len(words) != 2 {
		panic("acceptance event with the wrong number of words")
	}
	c.accept++
}

// shakeOf returns SHAKE256 of label as a random stream.
func shakeOf(label string) *sha3.SHAKE {
	h := sha3.NewSHAKE256()
	h.Write([]byte(label))
	return h
}

// TestWithAcceptanceSigning signs with the test acceptance installed: the
// signature verifies and differs from the one BerExp gives with the same
// randomness (the sampler's random stream changes), the acceptance and its
// observer event run once per sampler iteration, and BerExp never runs.
// Without the acceptance (nil) the instance signs as the plain backend.
func TestWithAcceptanceSigning(t *testing.T) {
	nb := mustBackend(t, "native")
	sk, pk, err := Keygen(nb, 9, shakeOf("acceptance key"))
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("acceptance")
	sign := func(b arith.Backend) []byte {
		t.Helper()
		sig, err := Sign(b, sk, msg, Compressed, shakeOf("acceptance sign"))
		if err != nil {
			t.Fatal(err)
		}
		if err := Verify(pk, msg, sig); err != nil {
			t.Fatalf("%v", err)
		}
		return sig
	}
	plain := sign(nb)

	calls := 0
	obs := &countingObserver{}
	ib := Instantiate(nb, native.Arith{}, Observer[float64](obs))
	wb, err := WithAcceptance(ib, twoTrials{calls: &calls, words: 2})
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(sign(wb), plain) {
		t.Error("the signature with the replacing acceptance equals BerExp's")
	}
	if calls == 0 || calls != obs.iterations || obs.accept != calls || obs.berexp != 0 {
		t.Errorf("%d acceptance calls, %d events, %d sampler iterations, %d BerExp events", calls, obs.accept, obs.iterations, obs.berexp)
	}

	// nil restores BerExp.
	rb, err := WithAcceptance(wb, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(sign(rb), plain) {
		t.Error("WithAcceptance(nil) does not sign as BerExp")
	}
}

// TestWithAcceptanceErrors checks the refusals: a backend that is not an
// Instance, and a design drawing 0 or more than MaxAcceptanceWords words.
func TestWithAcceptanceErrors(t *testing.T) {
	calls := 0
	nb := mustBackend(t, "native")
	if _, err := WithAcceptance(nb, twoTrials{calls: &calls, words: 2}); err == nil || !strings.Contains(err.Error(), "not instantiated") {
		t.Errorf("plain backend: %v", err)
	}
	ib := Instantiate(nb, native.Arith{}, nil)
	for _, w := range []int{0, MaxAcceptanceWords + 1} {
		if _, err := WithAcceptance(ib, twoTrials{calls: &calls, words: w}); err == nil || !strings.Contains(err.Error(), "words per decision") {
			t.Errorf("%d words: %v", w, err)
		}
	}
}
