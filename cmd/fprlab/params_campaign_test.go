package main

import (
	"strings"
	"testing"
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
		if code != exitUsage || !strings.Contains(stderr, "want 512 or 1024 (the parameter sets") || strings.Contains(stderr, "NIST KAT") {
			t.Errorf("case %d %v: exit %d, %q", i, args, code, stderr)
		}
	}
}
