package shadow

import (
	"strings"
	"testing"
)

// TestFNDSACampaign: an FN-DSA campaign signs (and verifies) through
// package fndsa under the shadow, its summary says so, and its records
// differ from round 3's on the same keys and seeds (the scheme switch
// reaches the signer).
func TestFNDSACampaign(t *testing.T) {
	b := lookup(t, "native")
	cfg := Config{LogN: 9, Signatures: 2, Keys: 1, Seed: "fn-dsa", Shadow: ShadowDD, Sigma: SigmaReference, Scheme: SchemeFNDSA}
	fn := run(t, b, cfg)
	cfg.Scheme = SchemeFalcon
	r3 := run(t, b, cfg)
	cfg.Scheme = SchemeFNDSA
	a := NewAggregate()
	var sigs int
	for i, r := range fn {
		a.Add(r)
		if r.Kind != "signature" {
			continue
		}
		sigs++
		if r.Calls < 1024 || r.MaxDeltaC == nil {
			t.Fatalf("record %d: %d sampler calls, max delta_c %v", i, r.Calls, r.MaxDeltaC)
		}
		if o := r3[i]; r.Calls == o.Calls && r.Rejections == o.Rejections && o.MaxDeltaC != nil && *r.MaxDeltaC == *o.MaxDeltaC {
			t.Fatalf("record %d: FN-DSA and round 3 records agree (%d calls, max delta_c 2^%v)", i, r.Calls, *r.MaxDeltaC)
		}
	}
	if sigs != 2 {
		t.Fatalf("%d signature records, want 2", sigs)
	}
	if s := a.Summary(b.Name, cfg); s.Scheme != "fn-dsa" || s.Signatures != 2 {
		t.Fatalf("summary scheme %q, %d signatures", s.Scheme, s.Signatures)
	}
}

// TestFNDSAConfig: FN-DSA campaigns refuse KAT mode, weak degrees and
// unknown schemes.
func TestFNDSAConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{LogN: 9, KATFrom: 0, KATTo: 2, Scheme: SchemeFNDSA}, "no KAT"},
		{Config{LogN: 8, Signatures: 1, Keys: 1, Scheme: SchemeFNDSA}, "512 and 1024"},
		{Config{LogN: 9, Signatures: 1, Keys: 1, Scheme: "fn-dsa-44"}, "want"},
		{Config{LogN: 9, Signatures: 1, Keys: 1, Scheme: SchemeFNDSA, Sigma: SigmaFormula}, "not supported"},
	} {
		if tc.cfg.Sigma == "" {
			tc.cfg.Sigma = SigmaReference
		}
		tc.cfg.OracleBits, tc.cfg.Shadow = 256, ShadowDD
		if err := tc.cfg.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want an error with %q", tc.cfg, err, tc.want)
		}
	}
}
