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

// TestCompareMode: --mode tree is recorded in the summary and the campaign
// identity (dyn, the default, in neither: older campaigns resume as
// before), a directory of one mode is not resumed in the other, and a
// scheme with one signing procedure refuses tree.
func TestCompareMode(t *testing.T) {
	args := func(extra ...string) []string {
		return append([]string{"compare", "--backend", "native", "--params", "512", "--signatures", "2", "--seed", "mode test", "--workers", "1", "--json"}, extra...)
	}
	summary := func(extra ...string) map[string]any {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(context.Background(), args(extra...), nil, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", extra, code, errb.String())
		}
		var got []map[string]any
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || len(got) != 1 {
			t.Fatalf("%v: %v %s", extra, err, out.String())
		}
		return got[0]
	}
	if m, ok := summary()["mode"]; ok {
		t.Errorf("dyn summary has mode %v", m)
	}
	dir := filepath.Join(t.TempDir(), "tree")
	if m := summary("--mode", "tree", "--out", dir)["mode"]; m != "tree" {
		t.Errorf("tree summary: mode %v", m)
	}
	id, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(id, []byte(`"mode": "tree"`)) && !bytes.Contains(id, []byte(`"mode":"tree"`)) {
		t.Errorf("run.json lacks the mode: %s", id)
	}
	var out, errb bytes.Buffer
	if code := run(context.Background(), args("--out", dir), nil, &out, &errb); code == 0 || !strings.Contains(errb.String(), "falcon_sign_dyn") {
		t.Errorf("a tree directory resumed in dyn mode: exit %d: %s", code, errb.String())
	}
	errb.Reset()
	if code := run(context.Background(), args("--mode", "tree", "--scheme", "fn-dsa"), nil, &out, &errb); code == 0 || !strings.Contains(errb.String(), "tree") {
		t.Errorf("fn-dsa took --mode tree: exit %d: %s", code, errb.String())
	}
	errb.Reset()
	if code := run(context.Background(), args("--mode", "tre"), nil, &out, &errb); code == 0 || !strings.Contains(errb.String(), "--mode") {
		t.Errorf("--mode tre: exit %d: %s", code, errb.String())
	}
}
