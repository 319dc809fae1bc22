package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAccelFNDSA2026 runs accel counts and accel cycles over the July 2026
// draft: a rust-fn-dsa test_kat record is counted with its own keys (the
// signature matches the record's pin; the counters themselves are checked
// by fndsacount's TestCountKAT2026), the verify path prices 10 records
// with one NTT per verification, and round-3 keys are refused by name.
func TestAccelFNDSA2026(t *testing.T) {
	code, out, errs := runCLI(t, "accel", "counts", "--scheme", "fn-dsa-2026", "--params", "512", "--fn-dsa-record", "1", "--json")
	var doc struct {
		Scheme    string `json:"scheme"`
		KeySource string `json:"key_source"`
		Record    *int   `json:"fn_dsa_record"`
		Pin       string `json:"kat_pin"`
		Sign      struct {
			MqMontymul uint64 `json:"mq_montymul"`
		} `json:"sign"`
		Verify struct {
			MqMontymul  uint64 `json:"mq_montymul"`
			KeccakF1600 uint64 `json:"keccak_f1600"`
		} `json:"verify"`
		SignKeccak struct {
			Mu         uint64 `json:"mu"`
			HedgedSeed uint64 `json:"hedged_seed"`
		} `json:"sign_keccak"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("accel counts --json: exit %d, %s, %.300q", code, errs, out)
	}
	if doc.Scheme != "fn-dsa-2026" || doc.KeySource != "fn-dsa-2026" || doc.Record == nil || *doc.Record != 1 || len(doc.Pin) != 64 ||
		doc.Sign.MqMontymul != 0 || doc.Verify.MqMontymul != 5632 || doc.Verify.KeccakF1600 != 17 || doc.SignKeccak.Mu != 1 || doc.SignKeccak.HedgedSeed != 2 {
		t.Errorf("accel counts --json: %+v", doc)
	}
	code, out, errs = runCLI(t, "accel", "counts", "--scheme", "fn-dsa-2026", "--params", "512")
	if code != 0 || !strings.Contains(out, "rust-fn-dsa KAT record 0 of degree 512") || !strings.Contains(out, "the record's pin") || !strings.Contains(out, "hedged seed 2") {
		t.Errorf("accel counts text: exit %d, %s, %.600q", code, errs, out)
	}
	code, _, errs = runCLI(t, "accel", "counts", "--scheme", "fn-dsa-2026", "--params", "512", "--key-source", "falcon")
	if code == 0 || !strings.Contains(errs, "not with round-3 keys") {
		t.Errorf("accel counts --key-source falcon: exit %d, %q", code, errs)
	}
	code, out, errs = runCLI(t, "accel", "cycles", "--scheme", "fn-dsa-2026", "--params", "512", "--json")
	var cyc struct {
		KeySource string `json:"key_source"`
		Records   []int  `json:"records"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &cyc) != nil || cyc.KeySource != "fn-dsa-2026" || len(cyc.Records) != 10 ||
		!strings.Contains(out, `"unit": "ntt_butterfly"`) || !strings.Contains(out, `"mean": 2304`) {
		t.Errorf("accel cycles --json: exit %d, %s, key source %q, records %v, %.600q", code, errs, cyc.KeySource, cyc.Records, out)
	}
}
