package katref

import (
	"bytes"
	"testing"
)

func TestResponse(t *testing.T) {
	for _, f := range Files {
		data, err := Response(f.LogN)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) != f.Size {
			t.Errorf("%s: %d bytes, want %d", f.Name, len(data), f.Size)
		}
		if n := bytes.Count(data, []byte("\ncount = ")); n != f.Records {
			t.Errorf("%s: %d records, want %d", f.Name, n, f.Records)
		}
	}
	if _, err := Response(8); err == nil {
		t.Error("Response(8) succeeded")
	}
}
