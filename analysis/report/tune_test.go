package report

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/results"
)

// An FN-DSA tune document: the verdict names FN-DSA, shows the stage the
// search left alone as not tuned instead of a width, and says why.
func TestTuneVerdictFNDSA(t *testing.T) {
	doc := `{"scheme": "fn-dsa", "params": 512, "target_log2": -40, "statistic": "per-signature-worst", "cost_model": "bits",
		"cost_unit": "u", "format": "vprec:%d", "signatures": 2, "confirm_signatures": 2,
		"stages": ["fft", "gram", "ldl", "leaf", "target", "ffsampling", "sampler", "expm", "lattice"],
		"not_tuned": [{"stage": "expm", "reason": "no floating-point work in FN-DSA signing"}],
		"uniform": {"plan": "all=vprec:64", "widths": [64, 64, 64, 64, 64, 64, 64, 64, 64], "cost": 10},
		"chosen": {"plan": "p", "widths": [60, 60, 59, 51, 59, 60, 55, 64, 20], "cost": 8, "meets_target": true, "error_log2": -41},
		"pareto": [], "evaluations": []}`
	var tu results.Tune
	if err := json.Unmarshal([]byte(doc), &tu); err != nil {
		t.Fatal(err)
	}
	if tu.Name() != "FN-DSA-512 (round-3 keys)" || tu.Tuned(7) || !tu.Tuned(6) || tu.Tuned(9) {
		t.Fatalf("name %q, tuned expm %v, sampler %v", tu.Name(), tu.Tuned(7), tu.Tuned(6))
	}
	v := tuneVerdict(results.TuneDoc{File: "result.json", Tune: tu})
	if !strings.Contains(v.Heading, "FN-DSA-512 (round-3 keys)") {
		t.Errorf("heading %q", v.Heading)
	}
	row := v.Table.Rows[0]
	if row[8] != "not tuned" || row[7] != "55" || row[9] != "20" {
		t.Errorf("widths row %v", row)
	}
	if !strings.Contains(strings.Join(v.Sentences, " "), "Stage expm: no floating-point work in FN-DSA signing.") {
		t.Errorf("sentences %v", v.Sentences)
	}
	// A document without key_source was written before tune took
	// --key-source: its keys were round 3's.
	tu.KeySource = "fn-dsa"
	if v := tuneVerdict(results.TuneDoc{File: "result.json", Tune: tu}); !strings.Contains(v.Heading, "FN-DSA-512 (FN-DSA keys)") {
		t.Errorf("heading of an FN-DSA-key search %q", v.Heading)
	}
	tu.Scheme = ""
	if tu.Name() != "Falcon-512" {
		t.Errorf("a document without a scheme: %q", tu.Name())
	}
}
