package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestBackendsListsFormForms: 'backends --json' names every form of the
// vprec family (exponent width, rounding toward zero, stochastic
// rounding) and the plan's plugin stages with their meaning.
func TestBackendsListsFormForms(t *testing.T) {
	code, out, errOut := runCLI(t, "backends", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rows []arith.CatalogEntry
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatal(err)
	}
	desc := map[string]string{}
	for _, r := range rows {
		desc[r.Name] = r.Description
	}
	for name, want := range map[string]string{
		"vprec:P":                         "unbounded exponent",
		"vprec:P:eE":                      "2 <= E <= 24",
		"vprec:P:eE:rz":                   "toward zero",
		"vprec:P:eE:sr=SEED":              "stochastic rounding",
		"plan:STAGE=so:PATH[@CONFIG]+...": "%2B, %2C, %25",
	} {
		if !strings.Contains(desc[name], want) {
			t.Errorf("%s: description %q lacks %q", name, desc[name], want)
		}
	}
}
