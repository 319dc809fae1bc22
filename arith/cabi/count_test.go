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
// configuration) and logs them per signature and per function (go test
// -v -run=CountShadowedSignCalls): the figure BENCHMARKS.md reports.
func TestCountShadowedSignCalls(t *testing.T) {
	bk := lookup(t, "so:"+plugin(t, "../../examples/double.c"))
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
	t.Logf("%d calls per shadowed signature (%d signatures)", total/cfg.Signatures, cfg.Signatures)
	for _, k := range names {
		t.Logf("  %-14s %8d per signature", k, counts[k]/cfg.Signatures)
	}
}
