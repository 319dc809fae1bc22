package report

import (
	"testing"

	"github.com/fprlab/fprlab/analysis/results"
)

// TestCompareVerdictScheme: the verdict row names the scheme and, for
// FN-DSA, the keys' source; an FN-DSA document written before the key
// source existed signed with round-3 keys.
func TestCompareVerdictScheme(t *testing.T) {
	yes := true
	doc := results.CompareDoc{File: "summary.json", Backends: []results.Compare{
		{Backend: "r3", Params: 512, Signatures: 1000, Meets246: &yes},
		{Backend: "fn", Params: 512, Signatures: 1000, Meets246: &yes, Scheme: "fn-dsa", KeySource: "fn-dsa"},
		{Backend: "fnr3", Params: 1024, Signatures: 2, Meets246: &yes, Scheme: "fn-dsa", KeySource: "falcon"},
		{Backend: "old", Params: 512, Signatures: 2, Meets246: &yes, Scheme: "fn-dsa"},
	}}
	v := compareVerdict(doc)
	want := []string{"1,000 signatures, Falcon-512", "1,000 signatures, FN-DSA-512 (FN-DSA keys)", "2 signatures, FN-DSA-1024 (round-3 keys)", "2 signatures, FN-DSA-512 (round-3 keys)"}
	if len(v.Table.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(v.Table.Rows), len(want))
	}
	for i, w := range want {
		if got := v.Table.Rows[i][2]; got != w {
			t.Errorf("row %s: %q, want %q", doc.Backends[i].Backend, got, w)
		}
	}
}

// TestCompareVerdictCertified: with compare --certify's certificates the
// row says "proven for every message" when every key is proven, else that
// the figure is a sample, with the share certified.
func TestCompareVerdictCertified(t *testing.T) {
	no := false
	doc := results.CompareDoc{File: "summary.json", Backends: []results.Compare{
		{Backend: "all", Params: 512, Signatures: 1000, Meets246: &no, Certified: &results.Certified{Keys: 2, Proven: 2, SumBoundLog2: -50.5}},
		{Backend: "some", Params: 512, Signatures: 1000, Meets246: &no, Certified: &results.Certified{Keys: 2, Proven: 1, SumBoundLog2: -40.25}},
	}}
	v := compareVerdict(doc)
	want := []string{
		"proven for every message (2 keys certified, bound 2^-50.50); 1,000 signatures, Falcon-512",
		"sampled on 1,000 signatures, Falcon-512 (certified for 1 of 2 keys; largest bound 2^-40.25)",
	}
	for i, w := range want {
		if got := v.Table.Rows[i][2]; got != w {
			t.Errorf("row %s: %q, want %q", doc.Backends[i].Backend, got, w)
		}
	}
}
