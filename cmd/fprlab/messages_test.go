package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
)

// TestRootHelpShadow: the root help says what the sampler's errors are
// measured against (the shadow, double-double by default), not that
// everything is measured against the oracle.
func TestRootHelpShadow(t *testing.T) {
	_, out, _ := runCLI(t, "--help")
	if !strings.Contains(out, "double-double by default") || strings.Contains(out, "against the oracle: KAT conformance, operation errors and sampler") {
		t.Errorf("root help:\n%s", out)
	}
}

// TestPlotPrecisionCompareDir: plot precision of compare documents
// without swept formats says so, not that sweep documents lack them.
func TestPlotPrecisionCompareDir(t *testing.T) {
	dir := conditionsDir(t, nil)
	code, _, errOut := runCLI(t, "plot", "precision", "--in", dir, "--out", dir+"/p.svg")
	if code != cli.ExitUsage || !strings.Contains(errOut, "in the sweep or compare documents") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestSignSchemeHelpAndJSON: sign's help describes FN-DSA too and lists
// "scheme" among its --json keys, which --json prints for both schemes.
func TestSignSchemeHelpAndJSON(t *testing.T) {
	_, help, _ := runCLI(t, "sign", "--help")
	if !strings.Contains(help, "--scheme fn-dsa, sign as FN-DSA") || !strings.Contains(help, `"seeded", "scheme"}`) {
		t.Errorf("sign --help:\n%s", help)
	}
	v := fndsaCLIVectors(t)[0]
	dir := t.TempDir()
	sk, msg := filepath.Join(dir, "sk"), filepath.Join(dir, "msg")
	if err := os.WriteFile(sk, []byte(v.SKey), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(msg, []byte("m"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "sign", "--scheme", "fn-dsa", "--sk", sk, "--msg", msg, "--out", filepath.Join(dir, "sig"), "--json")
	var j struct {
		Scheme string `json:"scheme"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &j) != nil || j.Scheme != "fn-dsa" {
		t.Errorf("sign --scheme fn-dsa --json: exit %d, %q, %s", code, out, errOut)
	}
}
