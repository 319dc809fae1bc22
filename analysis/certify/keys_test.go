package certify_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/certify"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
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
	want := "certified P*, Falcon-512: vprec:74 (round to nearest) is proven for the key -- the least P proven for each, worst over the keys; sweep's P* is a sample's\n" +
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

// TestAllResume: All hands every finished (backend, key) to Save; a run
// resumed from the first pair reuses its document as it was, computes
// only the second -- to the same document as the whole run's, but for its
// time; documents read back from JSON print as the originals. A
// cancelled context stops All before any pair, saving nothing.
func TestAllResume(t *testing.T) {
	keys, err := certify.KATKeys(9, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	m, err := certify.ModelFor(b, "")
	if err != nil {
		t.Fatal(err)
	}
	jobs := []certify.Job{{Backend: b, Model: m}}
	keysFor := func(arith.Backend) ([]certify.Key, error) { return keys, nil }
	var checked []int
	check := certify.Check{Chosen: 2, Edge: falcon.MaxBaseSample, Shadow: shadow.ShadowDD,
		Progress: func(_ arith.Backend, k certify.KeyRef, _ string) func(done, total int) {
			checked = append(checked, k.Index)
			return nil
		}}
	var saved [][]certify.Finished
	save := func(f []certify.Finished) error {
		// Round-trip through JSON, as a checkpoint file does.
		data, err := json.Marshal(f)
		if err != nil {
			return err
		}
		var back []certify.Finished
		if err := json.Unmarshal(data, &back); err != nil {
			return err
		}
		saved = append(saved, back)
		return nil
	}
	whole, exceeded, err := certify.All(context.Background(), jobs, keysFor, 9, check, nil, &certify.Resume{Save: save})
	if err != nil || exceeded != 0 || len(whole) != 2 {
		t.Fatalf("whole run: %d documents, %d exceeded, %v", len(whole), exceeded, err)
	}
	if len(saved) != 2 || len(saved[0]) != 1 || len(saved[1]) != 2 || saved[1][0].Document.Key.Index != 0 || saved[1][1].Document.Key.Index != 1 {
		t.Fatalf("saved %+v", saved)
	}
	if !slices.Equal(checked, []int{0, 1}) {
		t.Fatalf("checked keys %v", checked)
	}

	// The documents read back print as the whole run's did.
	var text, wholeText strings.Builder
	var back []certify.Document
	for _, f := range saved[1] {
		back = append(back, f.Document)
	}
	if err := certify.WriteText(&text, back); err != nil {
		t.Fatal(err)
	}
	if err := certify.WriteText(&wholeText, whole); err != nil {
		t.Fatal(err)
	}
	if text.String() != wholeText.String() {
		t.Errorf("text from the checkpoint:\n%s\nfrom the whole run:\n%s", text.String(), wholeText.String())
	}

	checked, saved = nil, nil
	first := saved0(t, whole[0])
	resumed, exceeded, err := certify.All(context.Background(), jobs, keysFor, 9, check, nil, &certify.Resume{Done: []certify.Finished{first}, Save: save})
	if err != nil || exceeded != 0 || len(resumed) != 2 {
		t.Fatalf("resumed run: %d documents, %d exceeded, %v", len(resumed), exceeded, err)
	}
	if !slices.Equal(checked, []int{1}) {
		t.Errorf("the resumed run checked keys %v, want only 1", checked)
	}
	if len(saved) != 1 || len(saved[0]) != 2 {
		t.Errorf("the resumed run saved %+v", saved)
	}
	if !reflect.DeepEqual(resumed[0], first.Document) {
		t.Errorf("the finished pair's document changed:\n%+v\n%+v", resumed[0], first.Document)
	}
	a, w := resumed[1], whole[1]
	a.Seconds, w.Seconds, a.Result, w.Result = 0, 0, nil, nil
	if !reflect.DeepEqual(a, w) {
		t.Errorf("the second pair differs from the whole run's:\n%+v\n%+v", a, w)
	}
	// An exceeded check is counted from the checkpoint too.
	first.Exceeded = 1
	if _, exceeded, err := certify.All(context.Background(), jobs, keysFor, 9, check, nil, &certify.Resume{Done: []certify.Finished{first}}); err != nil || exceeded != 1 {
		t.Errorf("resumed with an exceeded check: %d exceeded, %v", exceeded, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	saved = nil
	if _, _, err := certify.All(ctx, jobs, keysFor, 9, check, nil, &certify.Resume{Save: save}); !errors.Is(err, context.Canceled) || len(saved) != 0 {
		t.Errorf("cancelled: %v, saved %d", err, len(saved))
	}
}

// saved0 is d as a checkpoint gives it back: through JSON.
func saved0(t *testing.T, d certify.Document) certify.Finished {
	t.Helper()
	data, err := json.Marshal(certify.Finished{Document: d})
	if err != nil {
		t.Fatal(err)
	}
	var f certify.Finished
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	return f
}
