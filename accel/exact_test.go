package accel

import (
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

// TestExactCheckerCatchesFaults checks that the check behind accel mult,
// fpru and ffsampling catches the two injected faults that still
// regenerate the KAT record, and that emu64 itself is exact with the
// pinned digest of record 0.
func TestExactCheckerCatchesFaults(t *testing.T) {
	ed := &ExactChecker{LogN: 9, Record: 0}
	for name, d := range map[string]emu64.Datapath{"ties truncated": FaultTieTruncation, "rare wrong product": FaultRareProduct} {
		chk, err := ed.Check(arith.Backend{Name: "emu64+fault", Bits: 53, Impl: emu64.NewStaged(d)})
		if err != nil {
			t.Fatal(err)
		}
		if !chk.KATMatch || chk.DigestMatch || chk.Exact() || chk.Verdict() != "DIGEST DIFFERS (KAT ok)" {
			t.Errorf("%s: %+v, verdict %q; want the KAT to match and the digest to differ", name, chk, chk.Verdict())
		}
	}
	chk, err := ed.Check(arith.Backend{Name: "emu64", Bits: 53, Impl: emu64.Arith{}})
	if err != nil {
		t.Fatal(err)
	}
	if !chk.Exact() || chk.Verdict() != "exact" || chk.Digest.SHA256 != emu64Record0Digest {
		t.Errorf("emu64: %+v, verdict %q; want exact with digest %s", chk, chk.Verdict(), emu64Record0Digest)
	}
}

// TestCheckPublishedNamesTheDifference checks that a record differing
// from the published one in one signature byte is refused with the field
// and offset, and that a record beyond the file is refused.
func TestCheckPublishedNamesTheDifference(t *testing.T) {
	k, err := CountPublishedRecord(9, 0)
	if err != nil {
		t.Fatal(err)
	}
	rec := k.Record
	rec.SM = append([]byte(nil), rec.SM...)
	rec.SM[len(rec.SM)-1] ^= 1
	err = CheckPublished(9, &rec)
	if err == nil || !strings.Contains(err.Error(), "record 0 differs from the published KAT in sm at byte") {
		t.Errorf("changed sm: %v", err)
	}
	far := falcon.KATRecord{Count: 1000}
	if err := CheckPublished(9, &far); err == nil || !strings.Contains(err.Error(), "no record 1000") {
		t.Errorf("record 1000: %v", err)
	}
}
