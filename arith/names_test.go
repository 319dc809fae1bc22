package arith

import (
	"strings"
	"testing"
)

// TestCatalog: a backend with its bits, then a family named by the first
// word of its usage when that names it (else NAME:P), the usage's range
// appended unless the description has it, and each further form as a
// family of its own. The registry is swapped for the test's entries.
func TestCatalog(t *testing.T) {
	regMu.Lock()
	oldB, oldF := backends, families
	backends = map[string]Backend{"b64": {Name: "b64", Bits: 53, Description: "binary64"}}
	families = map[string]Family{
		"fam": {Name: "fam", Usage: "fam:P (2 <= P <= 9)", Description: "P bits", Forms: []FamilyForm{{Usage: "fam:P:eE", Description: "an E-bit exponent"}}},
		"alt": {Name: "alt", Usage: "alt:P (1 <= P)", Description: "already says 1 <= P"},
	}
	regMu.Unlock()
	defer func() { regMu.Lock(); backends, families = oldB, oldF; regMu.Unlock() }()
	got := Catalog()
	want := []CatalogEntry{
		{Name: "b64", Description: "binary64"},
		{Name: "alt:P", Description: "already says 1 <= P", Family: true},
		{Name: "fam:P", Description: "P bits; 2 <= P <= 9", Family: true},
		{Name: "fam:P:eE", Description: "an E-bit exponent", Family: true},
	}
	if len(got) != len(want) {
		t.Fatalf("%d entries, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		g := got[i]
		if g.Name != w.Name || g.Description != w.Description || g.Family != w.Family || (g.Bits == nil) != w.Family {
			t.Errorf("entry %d: %+v, want %+v", i, g, w)
		}
	}
	if *got[0].Bits != 53 {
		t.Errorf("b64 bits %d", *got[0].Bits)
	}
}

// TestParseOps: all, one name, a list with spaces; unknown and repeated
// names refused by name.
func TestParseOps(t *testing.T) {
	if got, err := ParseOps("all"); err != nil || len(got) != len(OpNames) {
		t.Errorf("all: %v, %v", got, err)
	}
	if got, err := ParseOps("sqrt, div"); err != nil || len(got) != 2 || got[0] != "sqrt" || got[1] != "div" {
		t.Errorf("sqrt, div: %v, %v", got, err)
	}
	if _, err := ParseOps("sqrt,cbrt"); err == nil || !strings.Contains(err.Error(), `unknown --op "cbrt"`) {
		t.Errorf("cbrt: %v", err)
	}
	if _, err := ParseOps("div,div"); err == nil || err.Error() != "--op div,div names div twice" {
		t.Errorf("div twice: %v", err)
	}
}
