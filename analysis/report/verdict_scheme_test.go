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
