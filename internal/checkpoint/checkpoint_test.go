package checkpoint

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

type testPayload struct {
	Name   string  `json:"name"`
	Values []Float `json:"values"`
	Data   []byte  `json:"data"`
}

func testIdentity() Identity {
	return Identity{Command: "test run", Flags: map[string]string{"n": "10", "seed": "3"}, Version: "1.2.3"}
}

func samplePayload() testPayload {
	return testPayload{Name: "a <b> & c", Values: []Float{1.5, Float(math.Inf(-1)), Float(math.Inf(1)), -0.25}, Data: []byte{0, 1, 2, 250}}
}

func TestRoundTripKeepsInfinities(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ckpt")
	want := samplePayload()
	if err := Save(path, testIdentity(), want); err != nil {
		t.Fatal(err)
	}
	var got testPayload
	found, err := Load(path, testIdentity(), &got)
	if err != nil || !found {
		t.Fatalf("found %v, err %v", found, err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
	found, err = Load(filepath.Join(t.TempDir(), "missing"), testIdentity(), &got)
	if found || err != nil {
		t.Errorf("missing file: found %v, err %v", found, err)
	}
}

// TestEveryBitFlipIsCaught flips each bit of a saved checkpoint in turn:
// Load must refuse the file or return exactly the saved payload (a flip
// that only changes insignificant whitespace), never other values.
func TestEveryBitFlipIsCaught(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ckpt")
	want := samplePayload()
	if err := Save(path, testIdentity(), want); err != nil {
		t.Fatal(err)
	}
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for i := range len(orig) * 8 {
		data := append([]byte(nil), orig...)
		data[i/8] ^= 1 << (i % 8)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var got testPayload
		found, err := Load(path, testIdentity(), &got)
		if err != nil {
			refused++
			if strings.Contains(err.Error(), "checkpoint.") || strings.Contains(err.Error(), "testPayload") {
				t.Errorf("bit %d: error names Go types: %v", i, err)
			}
			continue
		}
		if !found || !reflect.DeepEqual(got, want) {
			t.Fatalf("bit %d (byte %q): accepted with payload %+v", i, orig[i/8], got)
		}
	}
	if refused < len(orig)*8*9/10 {
		t.Errorf("only %d of %d flips refused", refused, len(orig)*8)
	}
}

func TestRefusals(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "ckpt")
	if err := Save(path, testIdentity(), samplePayload()); err != nil {
		t.Fatal(err)
	}
	var p testPayload
	other := testIdentity()
	other.Flags["n"] = "11"
	if _, err := Load(path, other, &p); err == nil || !strings.Contains(err.Error(), "belongs to another run (it has --n 10, this run --n 11)") {
		t.Errorf("other flags: %v", err)
	}
	other = testIdentity()
	other.Version = "1.2.4"
	if _, err := Load(path, other, &p); err == nil || !strings.Contains(err.Error(), "written by fprlab 1.2.3, this is fprlab 1.2.4") {
		t.Errorf("other version: %v", err)
	}
	other = testIdentity()
	other.Command = "kat"
	if _, err := Load(path, other, &p); err == nil || !strings.Contains(err.Error(), "`fprlab test run`, this is `fprlab kat`") {
		t.Errorf("other command: %v", err)
	}
	var wrong struct {
		Other int `json:"other"`
	}
	if _, err := Load(path, testIdentity(), &wrong); err == nil || !strings.Contains(err.Error(), "layout this version writes") || strings.Contains(err.Error(), "struct") {
		t.Errorf("other payload layout: %v", err)
	}
	for name, content := range map[string]string{"gob": "\x0e\xff\x81\x03\x01\x01", "empty": "", "json": `{"a": 1}`} {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path, testIdentity(), &p); err == nil || !strings.Contains(err.Error(), "is not an fprlab checkpoint file") {
			t.Errorf("%s file: %v", name, err)
		}
	}
	// "-" is no file to read back and rewrite: refused, not read from a
	// missing standard input.
	for _, name := range []string{"-", ""} {
		if _, err := Load(name, testIdentity(), &p); err == nil || !strings.Contains(err.Error(), "not standard input or output") {
			t.Errorf("Load(%q): %v", name, err)
		}
		if err := Save(name, testIdentity(), samplePayload()); err == nil || !strings.Contains(err.Error(), "not standard input or output") {
			t.Errorf("Save(%q): %v", name, err)
		}
	}
}

// TestWritable: a checkpoint that could not be saved is told at once,
// and the probe leaves nothing behind where it could.
func TestWritable(t *testing.T) {
	dir := t.TempDir()
	if err := Writable(filepath.Join(dir, "ckpt")); err != nil {
		t.Fatalf("fresh checkpoint: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the probe left %v", ents)
	}
	missing := filepath.Join(dir, "no", "such", "ckpt")
	if err := Writable(missing); err == nil || !strings.Contains(err.Error(), "checkpoint "+missing+" cannot be written: cannot create a file in "+filepath.Dir(missing)) {
		t.Errorf("checkpoint in a missing directory: %v", err)
	}
}
