package main

import (
	"encoding/json"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

// TestRegisteredExponentRanges pins each backend's exponent range against
// the formats the backends are built from (IEEE 754-2019 table 3.5:
// binary64 has 11 exponent bits, binary32 8): native and emu64 are
// binary64, dd holds binary64 limbs, triword binary32 limbs, the oracle
// and vprec:P have no exponent range, vprec:P:eE has E bits, and a plan
// has its widest stage's range.
func TestRegisteredExponentRanges(t *testing.T) {
	for name, want := range map[string]int{
		"native": 11, "emu64": 11, "dd": 11,
		"triword": 8, "triword-acc": 8, "triword-b64const": 8, "triword-acc-b64const": 8,
		"oracle": 0, "oracle:64": 0, "vprec:40": 0, "vprecbig:40": 0,
		"vprec:40:e8": 8, "vprec:53:e11:rz": 11, "vprecbig:30:e5": 5,
		"plan:ldl=vprec:40:e8+all=binary64":  11,
		"plan:ldl=vprec:40:e14+all=binary64": 14,
		"plan:ldl=vprec:40+all=binary64":     0,
		"plan:all=vprec:30:e6":               6,
	} {
		b, err := arith.Lookup(name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if b.ExpBits != want {
			t.Errorf("%s: ExpBits %d, want %d", name, b.ExpBits, want)
		}
	}
}

// TestCompareDocumentRecordsFormat checks that a compare document carries
// each backend's significand bits and exponent range as registered.
func TestCompareDocumentRecordsFormat(t *testing.T) {
	code, out, errOut := runCLI(t, "compare", "--backend", "native,triword", "--params", "512", "--signatures", "1", "--json")
	if code != 0 {
		t.Fatalf("compare: exit %d: %s", code, errOut)
	}
	var sums []struct {
		Backend string `json:"backend"`
		Bits    *int   `json:"bits"`
		ExpBits *int   `json:"exp_bits"`
	}
	if err := json.Unmarshal([]byte(out), &sums); err != nil || len(sums) != 2 {
		t.Fatalf("%v: %.200s", err, out)
	}
	for _, r := range sums {
		b, err := arith.Lookup(r.Backend)
		if err != nil {
			t.Fatal(err)
		}
		if r.Bits == nil || *r.Bits != b.Bits || r.ExpBits == nil || *r.ExpBits != b.ExpBits {
			t.Errorf("%s: document bits %v, exp_bits %v; registered %d, %d", r.Backend, r.Bits, r.ExpBits, b.Bits, b.ExpBits)
		}
	}
}
