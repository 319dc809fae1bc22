package accel

import (
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/emu64"
	"github.com/fprlab/fprlab/falcon"
)

const emu64Record0Digest = "fbee1e9f5a99962b09972ce2214ff1a2098ddcb6f5c9c2fe3c2360bf970c8702"

// publishedRecord reports whether a generated record equals the published
// one.
func publishedRecord(t *testing.T, logn uint, rec *falcon.KATRecord) bool {
	t.Helper()
	return publishedMismatch(t, logn, rec) == nil
}

// TestDigestCatchesFaults injects the two faults into emu64's datapath and
// checks, on Falcon-512 KAT record 0, that the record still matches the
// published one -- so "KAT ok" alone would pass them -- while the result
// digest differs from emu64's; and that a correct datapath (the fpr-unit
// instruction model) gives emu64's digest.
func TestDigestCatchesFaults(t *testing.T) {
	const logn, record = 9, 0
	ref, want, err := DigestKATRecord(arith.Backend{Name: "emu64", Bits: 53, Impl: emu64.Arith{}}, logn, record)
	if err != nil {
		t.Fatal(err)
	}
	if !publishedRecord(t, logn, ref) {
		t.Fatal("emu64 does not regenerate the published record")
	}
	// The results of record 0: at least the 731,119 FPR packings of HORCRUX
	// Table II, and 1024 sampler outputs (one signing attempt, 512 leaves of
	// two coordinates).
	if want.Results < 731119 || want.Samples != 2*512 {
		t.Errorf("emu64 digest over %d results and %d sampler outputs; want at least 731,119 and 1024", want.Results, want.Samples)
	}
	// Pinned when the digest was introduced: a change means emu64's results
	// or the digest's format changed.
	if want.SHA256 != emu64Record0Digest {
		t.Errorf("emu64 digest of Falcon-512 record 0 %s, pinned %s", want.SHA256, emu64Record0Digest)
	}
	t.Logf("emu64: %v", want)
	ok, got, err := DigestKATRecord(arith.Backend{Name: "emu64+fpru", Bits: 53, Impl: NewHorcruxArith()}, logn, record)
	if err != nil {
		t.Fatal(err)
	}
	if got != want || !publishedRecord(t, logn, ok) {
		t.Errorf("fpr-unit model: %v, want %v", got, want)
	}
	for _, c := range []struct {
		name string
		d    emu64.Datapath
	}{
		{"ties truncated", FaultTieTruncation},
		{"1 in 65536 products wrong", FaultRareProduct},
	} {
		rec, got, err := DigestKATRecord(arith.Backend{Name: "emu64+fault", Bits: 53, Impl: emu64.NewStaged(c.d)}, logn, record)
		if err != nil {
			t.Fatal(err)
		}
		kat := publishedRecord(t, logn, rec)
		t.Logf("%s: KAT record matches %v; %v", c.name, kat, got)
		if !kat {
			t.Errorf("%s: the KAT record differs: the fault no longer shows what the digest adds", c.name)
		}
		if got.SHA256 == want.SHA256 {
			t.Errorf("%s: digest %v equals emu64's: the fault is not caught", c.name, got)
		}
	}
}
