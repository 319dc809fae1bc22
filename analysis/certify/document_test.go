package certify_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/analysis/shadow"
)

// TestDocument: a certificate written by hand becomes the document certify
// --json prints -- its numbers in log2, the stage shares, delta_sigma 0 as
// null, the key -- and AddSampled records the sampled maximum and the gap,
// and says when the sample exceeds the bound; AddChosen likewise, with
// the chosen attempts' sample deviation.
func TestDocument(t *testing.T) {
	r := &certify.Result{
		DeltaCBound: 0x1p-30, DeltaSigma: 0, DeltaSigmaLeaf: 7, SumBound: 0x1p-30, Proven: false,
		WorstCall: 12, WorstLeaf: 6, WorstPath: "LR",
		Stages: []certify.StageShare{{Stage: "split", Bound: 0x1p-31}, {Stage: "leaf", Bound: 0x1p-32}, {Stage: "idle", Bound: 0}},
	}
	d := certify.NewDocument("native", 9, certify.KeyRef{Source: "kat", Index: 3}, r)
	if d.Params != 512 || d.Scheme != "falcon" || d.DeltaCBoundLog2 != -30 || d.SumBoundLog2 != -30 || d.DeltaSigmaLog2 != nil || d.Key.Name() != "KAT key 3" {
		t.Errorf("document %+v", d)
	}
	if len(d.Stages) != 3 || d.Stages[0].Share != 0.5 || *d.Stages[0].BoundLog2 != -31 || d.Stages[1].Share != 0.25 || d.Stages[2].BoundLog2 != nil {
		t.Errorf("stages %+v", d.Stages)
	}
	if d.AddSampled(certify.Sampled{Signatures: 5, DeltaCMax: math.Inf(-1)}) || d.Signatures != 5 || d.SampledDeltaCMax != nil || d.GapBits != nil {
		t.Errorf("every call exact: %+v", d)
	}
	if d.AddSampled(certify.Sampled{Signatures: 8, DeltaCMax: -40}) || *d.SampledDeltaCMax != -40 || *d.GapBits != 10 {
		t.Errorf("sampled 2^-40 under 2^-30: %+v", d)
	}
	if !d.AddSampled(certify.Sampled{Signatures: 8, DeltaCMax: -29}) {
		t.Error("a sample 2^-29 above a bound of 2^-30 is not reported")
	}
	// Chosen attempts: the deviation their samples were fixed at, absent
	// when the sampler drew them.
	if d.AddChosen(certify.Sampled{Signatures: 20, DeltaCMax: -31, Edge: shadow.Drawn}) || d.ChosenDeviation != nil || *d.ChosenGapBits != 1 {
		t.Errorf("chosen attempts, samples drawn: %+v", d)
	}
	if !d.AddChosen(certify.Sampled{Signatures: 20, DeltaCMax: -28, Edge: 18}) || d.ChosenDeviation == nil || *d.ChosenDeviation != 18 || *d.ChosenGapBits != -2 {
		t.Errorf("chosen attempts at z0 = 18, 2^-28 above a bound of 2^-30: %+v", d)
	}

	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{
		"backend": "native", "params": 512.0, "delta_c_bound_log2": -30.0, "delta_sigma_log2": nil, "delta_sigma_leaf": 7.0,
		"gap_bits": -1.0, "sampled_delta_c_max_log2": -29.0, "signatures": 8.0,
		"chosen_attempts": 20.0, "chosen_deviation": 18.0, "chosen_delta_c_max_log2": -28.0, "chosen_gap_bits": -2.0,
	} {
		if got, ok := m[k]; !ok || got != want {
			t.Errorf("%s: %v (present %v), want %v", k, got, ok, want)
		}
	}
	if key := m["key"].(map[string]any); key["source"] != "kat" || key["index"] != 3.0 {
		t.Errorf("key %v", key)
	}
	if _, ok := m["Result"]; ok {
		t.Error("the certificate itself is in the JSON")
	}

	p := 74
	pb, err := json.Marshal(certify.PStarDocument{Key: certify.KeyRef{Source: "seed"}, PStarResult: certify.PStarResult{PStar: &p}})
	if err != nil || string(pb) != `{"key":{"source":"seed","index":0},"pstar":74}` {
		t.Errorf("P* document %s, %v", pb, err)
	}
}
