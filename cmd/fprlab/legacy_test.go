package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/cli"
)

// oldCampaign writes what the fprlab of the old names left in a campaign
// directory of "triword" (today's triword-b64const): a run.json without
// triword_names and a records file in the JSON-lines layout.
func oldCampaign(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	runJSON := `{"command": "compare", "params": 512, "backends": ["triword"], "signatures": 2, "keys": 1, "seed": "legacy"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "run.json"), []byte(runJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "records-triword.jsonl"), []byte(`{"backend":"triword","kind":"sign","index":0}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLegacyCampaignDirectories: a campaign directory written under the
// old names ("triword" meant today's triword-b64const) cannot be resumed
// as today's triword (the refusal names today's name) nor merged; a
// directory of other backends records no names revision; the retired
// name triword-fullconst is refused with its meaning.
func TestLegacyCampaignDirectories(t *testing.T) {
	tmp := t.TempDir()
	base := []string{"compare", "--params", "512", "--signatures", "2", "--keys", "1", "--seed", "legacy", "--json"}
	withB := func(b string, extra ...string) []string {
		return append(append(append([]string{}, base...), "--backend", b), extra...)
	}
	var out, errb bytes.Buffer
	old := filepath.Join(tmp, "old")
	oldCampaign(t, old)
	code := run(context.Background(), withB("triword", "--out", old), nil, &out, &errb)
	if code != cli.ExitUsage || !strings.Contains(errb.String(), "cannot be resumed") || !strings.Contains(errb.String(), `now named "triword-b64const"`) {
		t.Errorf("resume of an old directory: exit %d, %q", code, errb.String())
	}
	errb.Reset()
	if code := run(context.Background(), []string{"merge", old, "--out", filepath.Join(tmp, "m")}, nil, &out, &errb); code != cli.ExitUsage {
		t.Errorf("merge of an old directory: exit %d, %q", code, errb.String())
	}
	// A directory of another backend records no names revision.
	nd := filepath.Join(tmp, "native")
	if code := run(context.Background(), withB("native", "--out", nd), nil, &out, &errb); code != 0 {
		t.Fatalf("native: exit %d: %s", code, errb.String())
	}
	if rj := string(must(os.ReadFile(filepath.Join(nd, "run.json")))); strings.Contains(rj, "triword_names") {
		t.Errorf("native run.json records triword_names:\n%s", rj)
	}
	// The retired name is refused with its meaning.
	errb.Reset()
	if code := run(context.Background(), withB("triword-fullconst"), nil, &out, &errb); code != cli.ExitUsage || !strings.Contains(errb.String(), "no backend has that arithmetic") {
		t.Errorf("--backend triword-fullconst: exit %d, %q", code, errb.String())
	}
}

// TestLegacyDocuments: report and plot read a compare document written
// under the old names (no names_revision) with its triword relabelled
// triword-b64const and say so; a document of today's compare carries the
// revision and keeps its names.
func TestLegacyDocuments(t *testing.T) {
	tmp := t.TempDir()
	var doc, errb bytes.Buffer
	if code := run(context.Background(), []string{"compare", "--backend", "triword", "--params", "512", "--signatures", "1", "--keys", "1", "--seed", "doc", "--json"}, nil, &doc, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(doc.String(), `"names_revision": 2`) {
		t.Fatalf("compare --json has no names_revision")
	}
	newDoc := filepath.Join(tmp, "new.json")
	oldDoc := filepath.Join(tmp, "old.json")
	if err := os.WriteFile(newDoc, doc.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(doc.String(), `"names_revision": 2,`, "", 1)
	if err := os.WriteFile(oldDoc, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		doc, want, note string
	}{{newDoc, "triword", ""}, {oldDoc, "triword-b64const", `now named "triword-b64const"`}} {
		page := filepath.Join(tmp, "page.html")
		errb.Reset()
		var out bytes.Buffer
		if code := run(context.Background(), []string{"report", "--in", c.doc, "--out", page, "--allow-no-manifest"}, nil, &out, &errb); code != 0 {
			t.Fatalf("report %s: exit %d: %s", c.doc, code, errb.String())
		}
		html := string(must(os.ReadFile(page)))
		if !strings.Contains(html, `<td class="t">`+c.want+"</td>") {
			t.Errorf("report of %s: no row %q", c.doc, c.want)
		}
		if c.note == "" && (errb.Len() > 0 && strings.Contains(errb.String(), "note:")) {
			t.Errorf("report of %s: %q", c.doc, errb.String())
		}
		if c.note != "" && (!strings.Contains(errb.String(), c.note) || !strings.Contains(html, "old triword names")) {
			t.Errorf("report of %s does not say what the old name means: stderr %q", c.doc, errb.String())
		}
	}
}

// withoutSeconds is a JSON array of summaries without their "seconds",
// the one field in which a merged or resumed campaign differs from a
// single run.
func withoutSeconds(t *testing.T, b []byte) string {
	t.Helper()
	var v []map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	for _, s := range v {
		delete(s, "seconds")
	}
	return string(must(json.Marshal(v)))
}
