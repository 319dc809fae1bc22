package shadow

import (
	"math"
	"math/big"
	"testing"
	"time"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon"
)

// dd can also serve as the exact side of a shadowed run.
var _ Exact[ddouble.DD] = ddouble.Arith{}

// TestDoubleWordShadowedByOracle measures the double-word backend "dd" as
// a shadow candidate: Falcon-512 and Falcon-1024 signing of the first NIST
// KAT records (keys from emu64, as the reference's) over dd, itself
// shadowed by the 256-bit oracle. dd's own delta_c and delta_sigma at
// every sampler call are what its use as the exact side would add to a
// measurement; they must stay far below binary64's (about 2^-40) -- here
// below 2^-85 -- and no decision may flip. -short signs one Falcon-512
// record.
func TestDoubleWordShadowedByOracle(t *testing.T) {
	b := lookup(t, "dd")
	ex, err := NewBigExact(256)
	if err != nil {
		t.Fatal(err)
	}
	r := &pairRunner[ddouble.DD, *big.Float, ddouble.Arith, BigExact]{b: b, a: ddouble.Arith{}, ex: ex, consts: map[arith.Constant]*big.Float{},
		inst: instantiatePair[ddouble.DD, *big.Float, ddouble.Arith, BigExact]}
	for _, c := range []struct {
		logn       uint
		short, all int // records signed with and without -short
	}{{9, 1, 10}, {10, 0, 3}} {
		cfg := Config{LogN: c.logn, KATFrom: 0, KATTo: c.all, OracleBits: 256, Sigma: SigmaReference}
		if testing.Short() {
			cfg.KATTo = c.short
		}
		if cfg.KATTo == 0 {
			continue
		}
		var recs []*Record
		for _, req := range falcon.KATRequests(cfg.KATTo) {
			_, sig, err := r.kat(cfg.LogN, req, false, "emu64")
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, sig)
		}
		s := Summarize("dd", cfg, recs)
		if s.SamplerCalls == 0 || s.PerLeaf.Sum.Max == nil {
			t.Fatalf("n = %d: no sampler calls measured: %+v", 1<<c.logn, s.PerLeaf)
		}
		t.Logf("n = %d, %d signatures, %d sampler calls: delta_c max 2^%.2f median 2^%.2f; delta_sigma max 2^%.2f median 2^%.2f; "+
			"sum max 2^%.2f; expm_p63 max 2^%.2f; flips %d", 1<<c.logn,
			s.Signatures, s.SamplerCalls, log2Of(s.PerLeaf.DeltaC.Max), log2Of(s.PerLeaf.DeltaC.Median),
			log2Of(s.PerLeaf.DeltaSigma.Max), log2Of(s.PerLeaf.DeltaSigma.Median), log2Of(s.PerLeaf.Sum.Max), log2Of(s.ExpmP63.Max), s.Flips.Total)
		if m := log2Of(s.PerLeaf.Sum.Max); m > -85 {
			t.Errorf("n = %d: dd's worst delta_c + delta_sigma 2^%.2f, want below 2^-85", 1<<c.logn, m)
		}
		if s.Flips.Total != 0 {
			t.Errorf("n = %d: %d decisions of dd differ from the oracle's: %+v", 1<<c.logn, s.Flips.Total, s.Flips.First)
		}
	}
}

// TestDoubleWordAsExactSide shadows native Falcon-512 signing of the first
// NIST KAT records twice, with the 256-bit oracle and with dd as the exact
// side, and checks that both measure the same thing: per record the same
// worst delta_c, delta_sigma and sum (to 10^-9 bit: dd's own error, below
// 2^-90, is some 50 bits under native's), the same medians and the same
// decision flips. It logs the time of both shadows. -short runs one record.
func TestDoubleWordAsExactSide(t *testing.T) {
	nb, kb := lookup(t, "native"), lookup(t, "emu64")
	cfg := Config{LogN: 9, KATFrom: 0, KATTo: 6, OracleBits: 256, Sigma: SigmaReference}
	if testing.Short() {
		cfg.KATTo = 1
	}
	ex, err := NewBigExact(cfg.OracleBits)
	if err != nil {
		t.Fatal(err)
	}
	br := &pairRunner[float64, *big.Float, native.Arith, BigExact]{b: nb, a: native.Arith{}, ex: ex, consts: map[arith.Constant]*big.Float{},
		inst: instantiatePair[float64, *big.Float, native.Arith, BigExact]}
	var tBig, tDD time.Duration
	worstDiff := 0.0 // largest difference of the maxima, in bits
	for _, req := range falcon.KATRequests(cfg.KATTo) {
		t0 := time.Now()
		_, want, err := br.kat(cfg.LogN, req, false, "emu64")
		if err != nil {
			t.Fatal(err)
		}
		tBig += time.Since(t0)

		t0 = time.Now()
		p := &PairArith[float64, ddouble.DD, native.Arith, ddouble.Arith]{b: native.Arith{}, x: ddouble.Arith{},
			d: newDecisions(), bIsFloat64: true, consts: map[arith.Constant]ddouble.DD{}}
		o := newObserver(p, "signature", req.Count, req.Count)
		if err := falcon.GenerateKAT(cfg.LogN, &req, falcon.KATOptions{Keygen: kb, Sign: falcon.Instantiate[Pair[float64, ddouble.DD]](nb, p, o)}); err != nil {
			t.Fatal(err)
		}
		got := o.finish()
		tDD += time.Since(t0)

		if got.Calls != want.Calls || got.Attempts != want.Attempts {
			t.Fatalf("record %d: %d calls in %d attempts, oracle-shadowed %d in %d", req.Count, got.Calls, got.Attempts, want.Calls, want.Attempts)
		}
		for _, c := range []struct {
			name      string
			got, want *float64
		}{
			{"max delta_c", got.MaxDeltaC, want.MaxDeltaC},
			{"max delta_sigma", got.MaxDeltaSigma, want.MaxDeltaSigma},
			{"max sum", got.MaxSum, want.MaxSum},
		} {
			if c.got == nil || c.want == nil || math.Abs(*c.got-*c.want) > 1e-9 {
				t.Errorf("record %d %s: dd-shadowed %v, oracle-shadowed %v", req.Count, c.name, log2Of(c.got), log2Of(c.want))
				continue
			}
			worstDiff = max(worstDiff, math.Abs(*c.got-*c.want))
		}
		for _, h := range []struct {
			name      string
			got, want *Hist
		}{{"delta_c", got.DeltaC, want.DeltaC}, {"delta_sigma", got.DeltaSigma, want.DeltaSigma}, {"sum", got.Sum, want.Sum}} {
			if h.got.Median() != h.want.Median() || h.got.Count() != h.want.Count() {
				t.Errorf("record %d %s: median 2^%v of %d, oracle-shadowed 2^%v of %d", req.Count, h.name, h.got.Median(), h.got.Count(), h.want.Median(), h.want.Count())
			}
		}
		for kind, n := range want.Flips {
			if got.Flips[kind] != n {
				t.Errorf("record %d: %d %s flips, oracle-shadowed %d", req.Count, got.Flips[kind], kind, n)
			}
		}
		t.Logf("record %d: max delta_c 2^%.4f (oracle 2^%.4f), max delta_sigma 2^%.4f (oracle 2^%.4f)",
			req.Count, log2Of(got.MaxDeltaC), log2Of(want.MaxDeltaC), log2Of(got.MaxDeltaSigma), log2Of(want.MaxDeltaSigma))
	}
	t.Logf("%d records: maxima agree to %.2g bit; oracle-shadowed %v, dd-shadowed %v (%.1fx, both with emu64 key generation)",
		cfg.KATTo, worstDiff, tBig.Round(time.Millisecond), tDD.Round(time.Millisecond), tBig.Seconds()/tDD.Seconds())
}

// log2Of reads an optional log2 value, -Inf for none (an exact value).
func log2Of(p *float64) float64 {
	if p == nil {
		return math.Inf(-1)
	}
	return *p
}
