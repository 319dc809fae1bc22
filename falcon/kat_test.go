package falcon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"testing"
	"time"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon/katref"
)

// katRecords regenerates the first n records of the KAT file for degree
// 2^logn with backend b.
func katRecords(t testing.TB, b arith.Backend, logn uint, n int) []KATRecord {
	recs := KATRequests(n)
	for i := range recs {
		if err := GenerateKATRecord(b, logn, &recs[i]); err != nil {
			t.Fatalf("%s logn %d record %d: %v", b.Name, logn, i, err)
		}
	}
	return recs
}

// TestKATFull regenerates complete NIST KAT files and checks their SHA-256
// against the published one and every record against the published file.
// Without -short: all 100 records of Falcon-512 and Falcon-1024 on emu64
// and on native (about 25 s in all). With -short: the first two records of
// each file on both backends, checked against the published text.
func TestKATFull(t *testing.T) {
	for _, b := range testBackends(t) {
		for _, ref := range katref.Files {
			n := ref.Records
			if testing.Short() {
				n = 2
			}
			t.Run(b.Name+"/"+ref.Name, func(t *testing.T) {
				data, err := katref.Response(ref.LogN)
				if err != nil {
					t.Fatal(err)
				}
				name, want, err := ParseKAT(data)
				if err != nil {
					t.Fatal(err)
				}
				if wantName, _ := KATName(ref.LogN); name != wantName {
					t.Fatalf("reference header %q, want %q", name, wantName)
				}
				start := time.Now()
				got := katRecords(t, b, ref.LogN, n)
				t.Logf("%d records in %v", n, time.Since(start).Round(time.Millisecond))
				for i := range got {
					if m := CompareKATRecord(&got[i], &want[i]); m != nil {
						t.Errorf("record %d: first difference in %s at byte %d", m.Record, m.Field, m.Offset)
					}
				}
				var buf bytes.Buffer
				if err := WriteKAT(&buf, ref.LogN, got); err != nil {
					t.Fatal(err)
				}
				if n == ref.Records {
					sum := sha256.Sum256(buf.Bytes())
					if h := hex.EncodeToString(sum[:]); h != ref.SHA256 {
						t.Errorf("generated file SHA-256 %s, want %s", h, ref.SHA256)
					}
				} else if !bytes.HasPrefix(data, buf.Bytes()) {
					t.Errorf("generated text is not a prefix of the published file")
				}
			})
		}
	}
}
