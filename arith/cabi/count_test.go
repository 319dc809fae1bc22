package cabi_test

import (
	"context"
	"sort"
	"testing"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith/cabi"
)

// TestCountShadowedSignCalls counts the calls into the double plugin of
// the benchmark's shadowed campaign (BenchmarkShadowedSign512's
// configuration), with and without its vector functions and fprlab_run,
// and logs them per signature and per function (go test -v
// -run=CountShadowedSignCalls): the figures docs/findings.md reports. The
// batches and programs must save at least 39 calls in 40.
func TestCountShadowedSignCalls(t *testing.T) {
	vec := countCalls(t, "../../examples/double.c")
	scalar := countCalls(t, "testdata/scalaronly.c")
	if vec*40 > scalar {
		t.Errorf("%d calls per signature with the vector functions, %d without", vec, scalar)
	}
}

// countCalls logs and returns the calls per signature into the plugin
// built from src of BenchmarkShadowedSign512's campaign.
func countCalls(t *testing.T, src string) int {
	bk := lookup(t, "so:"+plugin(t, src))
	counts := map[string]int{}
	stop := cabi.CountCalls(counts)
	cfg := benchConfig()
	_, err := shadow.Run(context.Background(), bk, cfg)
	stop()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	var names []string
	for k, v := range counts {
		total += v
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return counts[names[i]] > counts[names[j]] })
	if total == 0 {
		t.Fatal("no calls counted")
	}
	t.Logf("%s: %d calls per shadowed signature (%d signatures)", src, total/cfg.Signatures, cfg.Signatures)
	for _, k := range names {
		t.Logf("  %-14s %8d per signature", k, counts[k]/cfg.Signatures)
	}
	return total / cfg.Signatures
}
