package certify_test

import (
	"bytes"
	"encoding/json"
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
