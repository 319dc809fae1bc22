package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// kat --scheme fn-dsa-2026 replays rust-fn-dsa 0.4.0's test_kat: every
// record on native (keys, digests, verification); on vprec:24 the keys
// are right (integer key generation) and some signatures differ, which
// exits 1 naming the first.
func TestKatFNDSA2026(t *testing.T) {
	type result struct {
		Records   int `json:"records"`
		MatchKeys int `json:"match_keys"`
		MatchPins int `json:"match_pins"`
		Verified  int `json:"verified"`
		First     *struct {
			LogN  uint   `json:"logn"`
			Field string `json:"field"`
		} `json:"first_mismatch"`
	}
	code, out, errs := runCLI(t, "kat", "--scheme", "fn-dsa-2026", "--backend", "native", "--json")
	var r result
	if code != 0 || json.Unmarshal([]byte(out), &r) != nil {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	if r.Records != 90 || r.MatchKeys != 90 || r.MatchPins != 90 || r.Verified != 90 || r.First != nil {
		t.Errorf("native: %+v", r)
	}
	code, out, errs = runCLI(t, "kat", "--scheme", "fn-dsa-2026", "--backend", "vprec:24", "--params", "512", "--json")
	r = result{}
	if code != 1 || json.Unmarshal([]byte(out), &r) != nil || !strings.Contains(errs, "rust-fn-dsa") {
		t.Fatalf("vprec:24: exit %d: %s\n%s", code, errs, out)
	}
	if r.Records != 10 || r.MatchKeys != 10 || r.MatchPins == 10 || r.First == nil || r.First.Field != "signature" || r.First.LogN != 9 {
		t.Errorf("vprec:24: %+v", r)
	}
}
