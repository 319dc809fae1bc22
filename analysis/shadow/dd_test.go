package shadow

import (
	"math"
	"math/big"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/ddouble"
	"github.com/fprlab/fprlab/falcon"
)

// dd can also serve as the exact side of a shadowed run.
var _ Exact[ddouble.DD] = ddouble.Arith{}

// TestDoubleWordShadowedByOracle measures the double-word backend "dd" as
// a shadow candidate: Falcon-512 signing of the first NIST KAT records
// (keys from emu64, as the reference's) over dd, itself shadowed by the
// 256-bit oracle. dd's own delta_c and delta_sigma at every sampler call
// are what its use as the exact side would add to a measurement; they
// must stay far below binary64's (about 2^-40) -- here below 2^-85 -- and
// no decision may flip. -short signs one record.
func TestDoubleWordShadowedByOracle(t *testing.T) {
	b := lookup(t, "dd")
	cfg := Config{LogN: 9, KATFrom: 0, KATTo: 10, OracleBits: 256, Sigma: SigmaReference}
	if testing.Short() {
		cfg.KATTo = 1
	}
	ex, err := NewBigExact(cfg.OracleBits)
	if err != nil {
		t.Fatal(err)
	}
	r := &pairRunner[ddouble.DD, ddouble.Arith]{b: b, a: ddouble.Arith{}, ex: ex, consts: map[arith.Constant]*big.Float{}}
	var recs []*Record
	for _, req := range falcon.KATRequests(cfg.KATTo) {
		_, sig, err := r.kat(cfg.LogN, req, false)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, sig)
	}
	s := Summarize("dd", cfg, recs)
	if s.SamplerCalls == 0 || s.PerLeaf.Sum.Max == nil {
		t.Fatalf("no sampler calls measured: %+v", s.PerLeaf)
	}
	q := func(p *float64) float64 {
		if p == nil {
			return math.Inf(-1)
		}
		return *p
	}
	t.Logf("%d signatures, %d sampler calls: delta_c max 2^%.2f median 2^%.2f; delta_sigma max 2^%.2f median 2^%.2f; "+
		"sum max 2^%.2f; expm_p63 max 2^%.2f; flips %d",
		s.Signatures, s.SamplerCalls, q(s.PerLeaf.DeltaC.Max), q(s.PerLeaf.DeltaC.Median),
		q(s.PerLeaf.DeltaSigma.Max), q(s.PerLeaf.DeltaSigma.Median), q(s.PerLeaf.Sum.Max), q(s.ExpmP63.Max), s.Flips.Total)
	if m := q(s.PerLeaf.Sum.Max); m > -85 {
		t.Errorf("dd's worst delta_c + delta_sigma 2^%.2f, want below 2^-85", m)
	}
	if s.Flips.Total != 0 {
		t.Errorf("%d decisions of dd differ from the oracle's: %+v", s.Flips.Total, s.Flips.First)
	}
}
