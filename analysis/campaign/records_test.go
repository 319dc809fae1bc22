package campaign

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
)

// recordsCampaign runs a small compare campaign over native and emu64
// into a new directory, in segments of two units, and returns it.
func recordsCampaign(t *testing.T) string {
	t.Helper()
	var bs []arith.Backend
	for _, name := range []string{"native", "emu64"} {
		b, err := arith.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		bs = append(bs, b)
	}
	dir := filepath.Join(t.TempDir(), "camp")
	c := &Compare{Backends: bs, Dir: dir, Version: "test", SegmentUnits: 2,
		Config: shadow.Config{LogN: 6, Signatures: 3, Keys: 1, Seed: "dump", Shadow: shadow.ShadowDD, Sigma: shadow.SigmaFormula, Workers: 1}}
	if _, err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return dir
}

// keys are the keys of a JSON object, sorted.
func keys(t *testing.T, obj json.RawMessage) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatalf("%s: %v", obj, err)
	}
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

// dumpFile is a file of the dump.
type dumpFile struct {
	File     string            `json:"file"`
	Segments []json.RawMessage `json:"segments"`
}

// TestDumpRecords: the dump of a campaign directory is one JSON document
// holding the directory, its run.json and, per records file in name
// order, the file's segments with their documented keys; every unit of
// the campaign is in one segment of each backend. --backend narrows it to
// one file, by a name canonical maps to the campaign's; a backend the
// campaign does not measure, a stray records file, a directory that is no
// campaign and a cancelled context are refused.
func TestDumpRecords(t *testing.T) {
	dir := recordsCampaign(t)
	var out bytes.Buffer
	if err := DumpRecords(context.Background(), &out, dir, "", nil); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Dir   string          `json:"dir"`
		Run   json.RawMessage `json:"run"`
		Files []dumpFile      `json:"files"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out.Bytes())
	}
	if got := strings.Join(keys(t, out.Bytes()), " "); got != "dir files run" {
		t.Errorf("document keys %s", got)
	}
	var run struct {
		Command  string   `json:"command"`
		Backends []string `json:"backends"`
	}
	if err := json.Unmarshal(doc.Run, &run); err != nil || run.Command != "compare" || !slices.Equal(run.Backends, []string{"native", "emu64"}) {
		t.Errorf("run %s: %v", doc.Run, err)
	}
	if doc.Dir != dir || len(doc.Files) != 2 || doc.Files[0].File != "records-emu64.seg" || doc.Files[1].File != "records-native.seg" {
		t.Fatalf("dir %s, files %+v", doc.Dir, doc.Files)
	}
	for _, f := range doc.Files {
		backend := strings.TrimSuffix(strings.TrimPrefix(f.File, "records-"), ".seg")
		var units []int
		runIDs := map[string]bool{}
		for _, raw := range f.Segments {
			if got := strings.Join(keys(t, raw), " "); got != "aggregate backend keygen_units run_sha256 signature_units" {
				t.Errorf("%s: segment keys %s", f.File, got)
			}
			var seg struct {
				Run            string          `json:"run_sha256"`
				Backend        string          `json:"backend"`
				SignatureUnits []int           `json:"signature_units"`
				Aggregate      json.RawMessage `json:"aggregate"`
			}
			if err := json.Unmarshal(raw, &seg); err != nil {
				t.Fatal(err)
			}
			if seg.Backend != backend || seg.Run == "" || len(seg.SignatureUnits) > 2 || string(seg.Aggregate) == "null" {
				t.Errorf("%s: segment %s", f.File, raw)
			}
			runIDs[seg.Run] = true
			units = append(units, seg.SignatureUnits...)
		}
		slices.Sort(units)
		if !slices.Equal(units, []int{0, 1, 2}) || len(runIDs) != 1 {
			t.Errorf("%s: units %v in runs %v", f.File, units, runIDs)
		}
	}

	// --backend, by a name canonical maps to the campaign's.
	canonical := func(name string) (string, bool) { return strings.ToLower(name), name != "bogus" }
	out.Reset()
	if err := DumpRecords(context.Background(), &out, dir, "NATIVE", canonical); err != nil {
		t.Fatal(err)
	}
	doc.Files = nil
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Files) != 1 || doc.Files[0].File != "records-native.seg" || len(doc.Files[0].Segments) != 2 {
		t.Errorf("--backend NATIVE: %v, %+v", err, doc.Files)
	}

	for _, c := range []struct {
		backend   string
		canonical func(string) (string, bool)
		refusal   string
	}{
		{"NATIVE", nil, dir + ": the campaign has no backend NATIVE (its backends: native, emu64)"},
		{"vprec:40", canonical, dir + ": the campaign has no backend vprec:40 (its backends: native, emu64)"},
		{"bogus", canonical, dir + ": the campaign has no backend bogus (its backends: native, emu64)"},
	} {
		out.Reset()
		if err := DumpRecords(context.Background(), &out, dir, c.backend, c.canonical); err == nil || err.Error() != c.refusal || out.Len() != 0 {
			t.Errorf("--backend %s: %v, %q; want the refusal %q and no output", c.backend, err, out.Bytes(), c.refusal)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := DumpRecords(ctx, &out, dir, "", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}

	empty := t.TempDir()
	if err := DumpRecords(context.Background(), &out, empty, "", nil); err == nil || !strings.Contains(err.Error(), "it has no run.json") {
		t.Errorf("a directory without run.json: %v", err)
	}
	if err := os.WriteFile(filepath.Join(empty, "run.json"), []byte("not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := DumpRecords(context.Background(), &out, empty, "", nil); err == nil || !strings.HasPrefix(err.Error(), empty+": run.json is damaged: ") {
		t.Errorf("a directory whose run.json is no JSON: %v", err)
	}

	stray := filepath.Join(dir, "records-triword.seg")
	if err := os.WriteFile(stray, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := DumpRecords(context.Background(), &out, dir, "", nil); err == nil || !strings.Contains(err.Error(), stray+" is the records file of no backend of the run") {
		t.Errorf("stray records file: %v", err)
	}
}
