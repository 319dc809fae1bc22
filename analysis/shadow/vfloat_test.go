package shadow

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestVFloatShadowAsReference: shadowed signing over the fast vprec
// implementation (package arith/vfloat) records exactly the statistics of
// the big.Float reference ("vprecbig" names): every record's histograms,
// maxima, decisions and flips, with the dd shadow, and with the oracle
// shadow for a format wider than binary64 (whose values the shadow imports
// through Big).
func TestVFloatShadowAsReference(t *testing.T) {
	cases := []struct {
		name   string
		shadow Kind
		sigs   int
	}{
		{"vprec:24", ShadowDD, 4}, {"vprec:53", ShadowDD, 2}, {"vprec:64", ShadowDD, 2},
		{"vprec:44:e11:rz", ShadowDD, 2}, {"vprec:80", ShadowOracle, 1},
	}
	if testing.Short() {
		cases = cases[:3]
	}
	for _, c := range cases {
		cfg := Config{LogN: 9, Signatures: c.sigs, Keys: 1, Seed: "vfloat", OracleBits: 256, Sigma: SigmaFormula, Shadow: c.shadow, KeygenBackend: "emu64", Workers: 1}
		recs := run(t, lookup(t, c.name), cfg)
		if len(recs) != c.sigs || recs[0].Calls == 0 {
			t.Fatalf("%s: %d records (want %d) with %d sampler calls", c.name, len(recs), c.sigs, recs[0].Calls)
		}
		got := recordsJSON(t, recs)
		want := recordsJSON(t, run(t, lookup(t, "vprecbig"+strings.TrimPrefix(c.name, "vprec")), cfg))
		if !bytes.Equal(got, want) {
			t.Errorf("%s (%s shadow): records differ from the reference's\n got %.400s\nwant %.400s", c.name, c.shadow, got, want)
		}
	}
}

// recordsJSON encodes records without their timings.
func recordsJSON(t *testing.T, recs []*Record) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, r := range recs {
		c := *r
		c.Seconds = 0
		b, err := json.Marshal(&c)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}
