package certify_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/certify"
)

// TestKATKeys: the keys of KAT records 3 and 4 of Falcon-512, named by
// their record (their public keys are the records' pk, which the KAT
// tests check byte for byte); a range outside the file is refused.
func TestKATKeys(t *testing.T) {
	keys, err := certify.KATKeys(9, 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].Ref.Name() != "KAT key 3" || keys[1].Ref.Index != 4 || keys[1].SK.LogN != 9 {
		t.Fatalf("got %d keys: %+v", len(keys), keys)
	}
	if bytes.Equal(keys[0].SK.Encode(), keys[1].SK.Encode()) {
		t.Error("records 3 and 4 gave the same key")
	}
	for _, r := range [][2]int{{99, 101}, {-1, 1}, {5, 3}} {
		if _, err := certify.KATKeys(9, r[0], r[1]); err == nil {
			t.Errorf("records %d:%d accepted", r[0], r[1])
		}
	}
}

// TestPStarReportJSON: worst_pstar is null when a key has no P*, the
// worst key's P* otherwise.
func TestPStarReportJSON(t *testing.T) {
	p := 30
	rep := certify.PStarReport{Params: 512}
	b, _ := json.Marshal(rep)
	if string(b) != `{"params":512,"per_key":null,"worst_pstar":null}` {
		t.Errorf("got %s", b)
	}
	rep.Worst = &p
	b, _ = json.Marshal(rep)
	if string(b) != `{"params":512,"per_key":null,"worst_pstar":30}` {
		t.Errorf("got %s", b)
	}
}

// PStarReport.WriteText: the worst P* first, then each key's, with the
// bound at P* and at P* - 1; a key with none is named as such.
func TestPStarText(t *testing.T) {
	p, sum, below, worst := 74, -46.01, -45.01, 74
	rep := &certify.PStarReport{Params: 512, Worst: &worst, PerKey: []certify.PStarDocument{
		{Key: certify.KeyRef{Source: "kat", Index: 0}, PStarResult: certify.PStarResult{PStar: &p, SumBoundLog2: &sum, BelowLog2: &below}},
	}}
	var b strings.Builder
	if err := rep.WriteText(&b, "Falcon-512"); err != nil {
		t.Fatal(err)
	}
	want := "certified P*, Falcon-512: vprec:74 (round to nearest) is proven for all 1 keys -- the least P proven for each, worst over the keys; sweep's P* is a sample's\n" +
		"  KAT key 0: P* = 74 (delta_c + delta_sigma <= 2^-46.01; at P = 73, 2^-45.01)\n"
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
	rep.Worst, rep.PerKey[0].PStar = nil, nil
	b.Reset()
	if err := rep.WriteText(&b, "FN-DSA-512"); err != nil {
		t.Fatal(err)
	}
	want = "certified P*, FN-DSA-512: no vprec:P up to P = 160 is proven for every key\n  KAT key 0: not proven at any P up to 160\n"
	if b.String() != want {
		t.Errorf("got\n%swant\n%s", b.String(), want)
	}
}
