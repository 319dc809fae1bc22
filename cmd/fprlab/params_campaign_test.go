package main

import (
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
)

// TestCampaignParamsMessage: compare and tune refuse other degrees with the
// reason that holds for both schemes (the parameter sets), not the NIST KAT
// files, which FN-DSA campaigns do not read.
func TestCampaignParamsMessage(t *testing.T) {
	for i, args := range [][]string{
		{"compare", "--scheme", "fn-dsa", "--backend", "native", "--params", "256", "--signatures", "1"},
		{"compare", "--backend", "native", "--params", "2048", "--signatures", "1"},
		{"tune", "--scheme", "fn-dsa", "--params", "256"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != cli.ExitUsage || !strings.Contains(stderr, "want 512 or 1024 (the parameter sets") || strings.Contains(stderr, "NIST KAT") {
			t.Errorf("case %d %v: exit %d, %q", i, args, code, stderr)
		}
	}
}

// TestCompareKeygenTooNarrow: a backend too narrow for round 3's key
// generation is refused with the ways to measure its signing all the same.
func TestCompareKeygenTooNarrow(t *testing.T) {
	if testing.Short() {
		t.Skip("4096 failing key candidates take about 20 s")
	}
	code, _, stderr := runCLI(t, "compare", "--backend", "vprec:11", "--params", "512", "--signatures", "1")
	if code == 0 || !strings.Contains(stderr, "candidates kept failing") || !strings.Contains(stderr, "sweep --format") || !strings.Contains(stderr, "--scheme fn-dsa") {
		t.Fatalf("exit %d, %q", code, stderr)
	}
}
