package falcon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon/katref"
)

// katRecords regenerates the first n records of the KAT file for degree
// 2^logn, keys over backend kb and signatures over backend sb.
func katRecords(t testing.TB, kb, sb arith.Backend, logn uint, n int) []KATRecord {
	recs := KATRequests(n)
	for i := range recs {
		if err := GenerateKAT(logn, &recs[i], KATOptions{Keygen: kb, Sign: sb}); err != nil {
			t.Fatalf("%s/%s logn %d record %d: %v", kb.Name, sb.Name, logn, i, err)
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
			t.Run(b.Name+"/"+ref.Name, func(t *testing.T) { checkKATFile(t, b, b, ref) })
		}
	}
}

// TestKATTriwordSigning signs the KAT records over the triword backends
// with the reference's keys, generated over emu64 from the same DRBG
// stream (triword cannot run NTRUSolve): the published signatures come out
// byte for byte. Without -short, both complete files (all 200 signatures)
// for triword, TWFalcon's arithmetic, and the complete Falcon-512 file for
// the others (the 512 one covers Alg 9 and the binary64 constants); about
// 20 s.
func TestKATTriwordSigning(t *testing.T) {
	kb := mustBackend(t, "emu64")
	for _, name := range []string{"triword", "triword-acc", "triword-b64const", "triword-acc-b64const"} {
		sb := mustBackend(t, name)
		for _, ref := range katref.Files {
			if name != "triword" && ref.LogN == 10 && !testing.Short() {
				continue // one complete 1024 file is enough
			}
			t.Run(name+"/"+ref.Name, func(t *testing.T) { checkKATFile(t, kb, sb, ref) })
		}
	}
}

// checkKATFile regenerates ref's records (all of them, or two under -short)
// over kb and sb and compares them with the published file.
func checkKATFile(t *testing.T, kb, sb arith.Backend, ref katref.File) {
	n := ref.Records
	if testing.Short() {
		n = 2
	}
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
	got := katRecords(t, kb, sb, ref.LogN, n)
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
}

// TestKATRequests checks the request records against the published file:
// seeds and messages of all 100 records.
func TestKATRequests(t *testing.T) {
	data, err := katref.Response(9)
	if err != nil {
		t.Fatal(err)
	}
	_, want, err := ParseKAT(data)
	if err != nil {
		t.Fatal(err)
	}
	got := KATRequests(len(want))
	if len(got) != len(want) {
		t.Fatalf("KATRequests(%d): %d records", len(want), len(got))
	}
	for i := range got {
		if got[i].Count != i || !bytes.Equal(got[i].Seed, want[i].Seed) || !bytes.Equal(got[i].Msg, want[i].Msg) {
			t.Fatalf("request %d differs from the published record", i)
		}
	}
	for _, i := range []int{0, 1, 57, len(want) - 1} {
		r, err := KATRequest(i)
		if err != nil || r.Count != i || !bytes.Equal(r.Seed, want[i].Seed) || !bytes.Equal(r.Msg, want[i].Msg) {
			t.Fatalf("KATRequest(%d) differs from the published record (%v)", i, err)
		}
	}
}

// TestKATBadArguments: counts outside the range, nil records and a nil
// writer give errors or the documented zero values, never a panic or an
// allocation of the size asked for.
func TestKATBadArguments(t *testing.T) {
	for _, n := range []int{-1, 0, MaxKATRequests + 1, 1 << 40, math.MaxInt} {
		if got := KATRequests(n); got != nil {
			t.Errorf("KATRequests(%d): %d records, want nil", n, len(got))
		}
	}
	for _, count := range []int{-1, MaxKATRequests, 1 << 40, math.MaxInt} {
		if _, err := KATRequest(count); err == nil || !strings.Contains(err.Error(), "numbered") {
			t.Errorf("KATRequest(%d): error %v, want one naming the valid record numbers", count, err)
		}
	}
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	if err := GenerateKAT(9, nil, KATOptions{Keygen: b}); err == nil || !strings.Contains(err.Error(), "nil KAT record") {
		t.Errorf("GenerateKAT(nil record): %v", err)
	}
	if err := WriteKAT(nil, 9, nil); err == nil || !strings.Contains(err.Error(), "writer") {
		t.Errorf("WriteKAT(nil writer): %v", err)
	}
	if m := CompareKATRecord(nil, nil); m != nil {
		t.Errorf("CompareKATRecord(nil, nil) = %+v, want nil", m)
	}
	rec := KATRequests(1)[0]
	if m := CompareKATRecord(nil, &rec); m == nil || m.Field != "seed" || m.Offset != 0 {
		t.Errorf("CompareKATRecord(nil, record 0) = %+v, want a mismatch at seed offset 0", m)
	}
}

// TestKATParseWrite checks that writing parsed records reproduces the
// published file, and that malformed files are refused with the line.
func TestKATParseWrite(t *testing.T) {
	data, err := katref.Response(10)
	if err != nil {
		t.Fatal(err)
	}
	name, recs, err := ParseKAT(data)
	if err != nil || name != "Falcon-1024" || len(recs) != 100 {
		t.Fatalf("parse: %q, %d records, %v", name, len(recs), err)
	}
	var buf bytes.Buffer
	if err := WriteKAT(&buf, 10, recs); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), data) {
		t.Fatal("written file differs from the parsed one")
	}
	if err := WriteKAT(&buf, 8, recs); err == nil {
		t.Error("WriteKAT accepted logn 8")
	}
	for _, bad := range []string{
		"",
		"seed = 00\n",
		"count = x\n",
		"count = 0\nfoo = 12\n",
		"count = 0\nmsg = 0G\n",
		"count = 0\nno equals sign\n",
		"count = 0\nmlen = 2\nmsg = 00\n",
		"count = 0\nsmlen = -1\n",
	} {
		if _, _, err := ParseKAT([]byte(bad)); err == nil {
			t.Errorf("ParseKAT(%q) succeeded", bad)
		}
	}
}

// TestCompareKATRecord checks the first-difference report.
func TestCompareKATRecord(t *testing.T) {
	a := KATRecord{Count: 3, Seed: []byte{1}, Msg: []byte{2}, PK: []byte{1, 2, 3}, SK: []byte{4}, SM: []byte{5, 6}}
	b := a
	if m := CompareKATRecord(&a, &b); m != nil {
		t.Fatalf("equal records: %+v", m)
	}
	b.SM = []byte{5, 7}
	if m := CompareKATRecord(&a, &b); m == nil || *m != (KATMismatch{3, "sm", 1}) {
		t.Errorf("got %+v", m)
	}
	b.PK = []byte{1, 2}
	if m := CompareKATRecord(&a, &b); m == nil || *m != (KATMismatch{3, "pk", 2}) {
		t.Errorf("got %+v", m)
	}
	if err := GenerateKAT(8, &a, KATOptions{Keygen: testBackends(t)[0]}); err == nil {
		t.Error("GenerateKAT accepted logn 8")
	}
	if err := GenerateKAT(9, &a, KATOptions{Keygen: testBackends(t)[0]}); err == nil {
		t.Error("GenerateKAT accepted a 1-byte seed")
	}
}

// TestKATEmptyMessage: the generator writes an empty string as "00" with
// its length 0; WriteKAT does the same, and ParseKAT must read it back as
// empty rather than reject the record.
func TestKATEmptyMessage(t *testing.T) {
	recs := []KATRecord{{Count: 0, Seed: []byte{1, 2}, PK: []byte{3}, SK: []byte{4}}}
	var buf bytes.Buffer
	if err := WriteKAT(&buf, 9, recs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "mlen = 0\nmsg = 00\n") {
		t.Fatalf("empty message not written as the generator does:\n%s", buf.String())
	}
	_, got, err := ParseKAT(buf.Bytes())
	if err != nil {
		t.Fatalf("ParseKAT of WriteKAT output: %v", err)
	}
	if len(got) != 1 || len(got[0].Msg) != 0 || len(got[0].SM) != 0 || !bytes.Equal(got[0].PK, []byte{3}) {
		t.Fatalf("parsed %+v", got)
	}
	if _, _, err := ParseKAT([]byte("count = 0\nmlen = 0\nmsg = 0000\n")); err == nil {
		t.Error("mlen = 0 with a 2-byte msg accepted")
	}
}
