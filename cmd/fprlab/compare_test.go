package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func compareArgs(extra ...string) []string {
	return append([]string{"compare", "--backend", "native,emu64", "--params", "512", "--signatures", "2", "--keys", "1", "--seed", "cli test", "--workers", "2"}, extra...)
}

// TestCompareJSONContract checks the documented fields of compare --json.
func TestCompareJSONContract(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), compareArgs("--json"), nil, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var got []map[string]any
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0]["backend"] != "native" || got[1]["backend"] != "emu64" {
		t.Fatalf("backends: %v", out.String()[:200])
	}
	for _, k := range []string{"backend", "params", "signatures", "keys", "seed", "oracle_bits", "leaves", "per_leaf", "per_signature", "meets_2^-46", "renyi", "flips", "stages", "seconds"} {
		if _, ok := got[0][k]; !ok {
			t.Errorf("missing %q", k)
		}
	}
	pl := got[0]["per_leaf"].(map[string]any)["delta_c"].(map[string]any)
	for _, k := range []string{"min_log2", "q01_log2", "q10_log2", "median_log2", "q90_log2", "q99_log2", "max_log2", "histogram"} {
		if _, ok := pl[k]; !ok {
			t.Errorf("per_leaf.delta_c lacks %q", k)
		}
	}
	if got[0]["leaves"].(float64) != 2*512 {
		t.Errorf("leaves %v, want 1024 for two one-attempt signatures", got[0]["leaves"])
	}
	// emu64 and native compute the same binary64 values except ExpmP63.
	a, b := got[0]["per_leaf"], got[1]["per_leaf"]
	if ja, _ := json.Marshal(a); !bytes.Equal(ja, must(json.Marshal(b))) {
		t.Errorf("native and emu64 differ in per_leaf")
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestCompareOutResume: a campaign directory whose records file lost its
// last record (and has a torn line) is completed by the same command, with
// the summary of an uninterrupted run; another run's flags are refused.
func TestCompareOutResume(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "camp")
	var out1, out2, errb bytes.Buffer
	if code := run(context.Background(), compareArgs("--json", "--out", dir), nil, &out1, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	recs := filepath.Join(dir, "records-native.jsonl")
	data, err := os.ReadFile(recs)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	// Keep the key and the first signature, then half of a line.
	torn := lines[0] + lines[1] + lines[2][:len(lines[2])/2]
	if err := os.WriteFile(recs, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	if code := run(context.Background(), compareArgs("--json", "--out", dir), nil, &out2, &errb); code != 0 {
		t.Fatalf("resume exit %d: %s", code, errb.String())
	}
	strip := func(b []byte) string {
		var v []map[string]any
		json.Unmarshal(b, &v)
		for _, s := range v {
			delete(s, "seconds")
		}
		return string(must(json.Marshal(v)))
	}
	if strip(out1.Bytes()) != strip(out2.Bytes()) {
		t.Errorf("resumed summary differs")
	}
	data, _ = os.ReadFile(recs)
	if n := strings.Count(string(data), "\n"); n != 3 {
		t.Errorf("records file has %d lines after resume, want 3", n)
	}
	errb.Reset()
	if code := run(context.Background(), []string{"compare", "--backend", "native", "--params", "512", "--signatures", "3", "--out", dir}, nil, &out2, &errb); code != 2 || !strings.Contains(errb.String(), "another run") {
		t.Errorf("other run's directory: exit %d, %s", code, errb.String())
	}
}

func TestCompareBadFlags(t *testing.T) {
	for _, args := range [][]string{
		{"compare", "--params", "512", "--signatures", "1"},
		{"compare", "--backend", "nope", "--params", "512", "--signatures", "1"},
		{"compare", "--backend", "native", "--params", "256", "--signatures", "1"},
		{"compare", "--backend", "native", "--params", "512"},
		{"compare", "--backend", "native", "--params", "512", "--kat-records", "5:2"},
		{"compare", "--backend", "native", "--params", "512", "--kat-records", "0:101"},
		{"compare", "--backend", "native,native", "--params", "512", "--signatures", "1"},
		{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--exact-sigma", "x"},
		{"compare", "--backend", "native", "--params", "512", "--signatures", "1", "--keys", "2"},
	} {
		var out, errb bytes.Buffer
		if code := run(context.Background(), args, nil, &out, &errb); code != 2 || errb.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errb.String())
		}
	}
}

// TestKatFirstDivergence: a backend whose signature differs from the
// published one gets the place where it first decided differently from
// emu64 (here signing over 20-bit virtual precision on the reference key).
func TestKatFirstDivergence(t *testing.T) {
	var out, errb bytes.Buffer
	code := run(context.Background(), []string{"kat", "--params", "512", "--backend", "vprec:20", "--keygen-backend", "emu64", "--records", "1", "--json"}, nil, &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1 (mismatch): %s", code, errb.String())
	}
	var got struct {
		FirstMismatch   *struct{ Field string } `json:"first_mismatch"`
		FirstDivergence *struct {
			Phase, Where, Kind string
		} `json:"first_divergence"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.FirstMismatch == nil || got.FirstMismatch.Field != "sm" || got.FirstDivergence == nil ||
		got.FirstDivergence.Phase != "sign" || !strings.Contains(got.FirstDivergence.Where, "sampler call") {
		t.Errorf("got %s", out.String())
	}
}
