package kat

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/falcon/katref"
)

// TestReferenceChecks reads the published Falcon-512 file, refuses it for
// Falcon-1024, and refuses records that are not complete Falcon-512
// records numbered from 0.
func TestReferenceChecks(t *testing.T) {
	data, err := katref.Response(9)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := ParseReference("ref", data, 9)
	if err != nil || len(ref.Records) != 100 || len(ref.SHA256) != 64 {
		t.Fatalf("published file: %v", err)
	}
	if err := ref.Check(9, 100); err != nil {
		t.Errorf("published file refused: %v", err)
	}
	if _, err := ParseReference("ref", data, 10); err == nil || !strings.Contains(err.Error(), "is a Falcon-512 file, not Falcon-1024") {
		t.Errorf("Falcon-512 file for Falcon-1024: %v", err)
	}
	for _, c := range []struct {
		change func(r *Reference)
		want   string
	}{
		{func(r *Reference) { r.Records[1].Count = 7 }, "record 1 has count 7"},
		{func(r *Reference) { r.Records[0].SM = nil }, "record 0 is incomplete"},
		{func(r *Reference) { r.Records[2].PK = r.Records[2].PK[:10] }, "record 2 has a 10-byte pk"},
		{func(r *Reference) { r.Records[0].SM = r.Records[0].SM[:5] }, "record 0 has a 5-byte sm"},
	} {
		bad, err := ParseReference("ref", data, 9)
		if err != nil {
			t.Fatal(err)
		}
		c.change(bad)
		if err := bad.Check(9, 3); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.want, err)
		}
	}
}

// TestLoadReference: without a path, the published file of the degree
// (100 records, falcon512-KAT.rsp); a file that is another degree's is
// refused naming both; a missing file names --ref.
func TestLoadReference(t *testing.T) {
	ref, err := LoadReference(nil, "", 9)
	if err != nil || len(ref.Records) != 100 || !strings.Contains(ref.Name, "published falcon512-KAT.rsp") {
		t.Fatalf("published reference: %v, %+v", err, ref)
	}
	data, err := katref.Response(10)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "1024.rsp")
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadReference(nil, p, 9); err == nil || !strings.Contains(err.Error(), "Falcon-1024") {
		t.Errorf("a Falcon-1024 file as the Falcon-512 reference: %v", err)
	}
	if _, err := LoadReference(nil, p+".none", 9); err == nil || !strings.HasPrefix(err.Error(), "--ref: ") {
		t.Errorf("a missing file: %v", err)
	}
}
