package campaign

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/scheme"
)

// readManifest reads dir's manifest, which must be indented JSON ending
// in a newline.
func readManifest(t *testing.T, dir string) results.Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(string(data), "}\n") || !strings.HasPrefix(string(data), "{\n  \"title\": ") {
		t.Errorf("manifest not indented JSON ending in a newline: %q", data)
	}
	var m results.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestWriteManifest: the manifest of a seeded campaign holds its command
// both as words and as a shell line, its seed, the largest signature count
// and the total time of its summaries, the version given; a KAT campaign
// has KAT records instead of a seed; an FN-DSA campaign names its scheme
// and key source, in the title too. The directory is created.
func TestWriteManifest(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "camp")
	argv := []string{"fprlab", "compare", "--seed", "a b", "--params", "512"}
	cfg := shadow.Config{LogN: 9, Signatures: 7, Keys: 1, Seed: "a b"}
	sums := []*shadow.Summary{{Backend: "native", Signatures: 5, Seconds: 1.5}, {Backend: "emu64", Signatures: 7, Seconds: 2}}
	if err := WriteManifest(dir, "compare", argv, "summary.json", "v9", cfg, sums); err != nil {
		t.Fatal(err)
	}
	want := results.Manifest{Title: "fprlab compare, Falcon-512", Version: "v9", Runs: []results.Run{{
		Command: "fprlab compare --seed 'a b' --params 512", Argv: argv, Output: "summary.json", Version: "v9",
		Seed: "a b", Signatures: 7, Seconds: 3.5}}}
	if got := readManifest(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("seeded:\n got %+v\nwant %+v", got, want)
	}

	kat := shadow.Config{LogN: 10, KATFrom: 3, KATTo: 7, Seed: "ignored"}
	if err := WriteManifest(dir, "sweep (merged from 2 shards)", []string{"fprlab", "merge"}, "sweep.json", "v9", kat, nil); err != nil {
		t.Fatal(err)
	}
	want = results.Manifest{Title: "fprlab sweep (merged from 2 shards), Falcon-1024", Version: "v9", Runs: []results.Run{{
		Command: "fprlab merge", Argv: []string{"fprlab", "merge"}, Output: "sweep.json", Version: "v9", KATRecords: "3:7"}}}
	if got := readManifest(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("KAT records:\n got %+v\nwant %+v", got, want)
	}

	fn, err := scheme.Lookup("fn-dsa")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		keys        shadow.KeySource
		title, have string
	}{
		{shadow.KeysOf(fn), "fprlab compare, FN-DSA-512 (FN-DSA keys)", "fn-dsa"},
		{shadow.KeysFalcon, "fprlab compare, FN-DSA-512 (round-3 keys)", "falcon"},
	} {
		cfg := shadow.Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "s", Scheme: fn, KeySource: c.keys}
		if err := WriteManifest(dir, "compare", []string{"fprlab"}, "summary.json", "v9", cfg, nil); err != nil {
			t.Fatal(err)
		}
		m := readManifest(t, dir)
		if m.Title != c.title || m.Runs[0].Scheme != "fn-dsa" || m.Runs[0].KeySource != c.have {
			t.Errorf("FN-DSA with %s keys: %+v", c.keys, m)
		}
	}
}

// TestWriteRunManifest: a run described by its command is written as
// given, under the title, the manifest's version being the run's.
func TestWriteRunManifest(t *testing.T) {
	dir := t.TempDir()
	run := results.Run{Command: "fprlab tune", Argv: []string{"fprlab", "tune"}, Output: "tune.json", Version: "v2", Seed: "s", Signatures: 3, Seconds: 0.5, Note: "n"}
	if err := WriteRunManifest(dir, "fprlab tune, Falcon-512", run); err != nil {
		t.Fatal(err)
	}
	want := results.Manifest{Title: "fprlab tune, Falcon-512", Version: "v2", Runs: []results.Run{run}}
	if got := readManifest(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v\nwant %+v", got, want)
	}
	// A directory that cannot be made is an error, not a lost manifest.
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteRunManifest(file, "t", run); err == nil {
		t.Error("manifest written under a file")
	}
}
