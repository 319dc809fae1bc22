package fndsa_test

import (
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/fprlab/fprlab/fndsa"
	_ "github.com/fprlab/fprlab/valuetype" // the engines of every value type (dd, vprec, oracle)
)

// The other direction of the cross check: signatures made here over
// backends other than binary64 (whose bytes go-fn-dsa cannot produce) and
// corrupted copies, each with go-fn-dsa's verdict
// (testdata/gofndsa/fprlab_signatures.json, made by the driver's verify
// mode from the file TestWriteFprlabSignatures writes).

// fprlabSigBackends are the backends of fprlab_signatures.json.
var fprlabSigBackends = []string{"native", "triword", "dd", "vprec:40", "oracle:128"}

// fprlabSignatures makes the cases of fprlab_signatures.json: keys 0 and
// 6 of the cross vectors (degrees 512 and 1024), two messages each, each
// backend, a valid signature and the same with one s2 bit flipped.
func fprlabSignatures(t *testing.T) []fndsa.GoCheck {
	v := fndsa.Vectors(t)
	var out []fndsa.GoCheck
	for _, ki := range []int{0, 6} {
		kr := v.Keys[ki]
		k, err := fndsa.DecodeSigningKey(fndsa.Unhex(t, kr.SKey), false)
		if err != nil {
			t.Fatal(err)
		}
		for m, s := range v.Sigs[ki*10 : ki*10+2] {
			for bi, name := range fprlabSigBackends {
				seed := make([]byte, fndsa.SeedSize)
				h := sha3.NewSHAKE256()
				h.Write([]byte("fprlab-signature"))
				h.Write([]byte{byte(ki), byte(m), byte(bi)})
				h.Read(seed)
				sig, err := k.Sign(fndsa.MustBackend(t, name), fndsa.Unhex(t, s.Ctx), fndsa.MustPreHash(t, s.Hash), fndsa.Unhex(t, s.Data), bytes.NewReader(seed))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				c := fndsa.GoCheck{What: "fprlab-" + name, VKey: kr.VKey, Ctx: s.Ctx, Hash: s.Hash, Data: s.Data, Sig: hex.EncodeToString(sig)}
				out = append(out, c)
				bad := bytes.Clone(sig)
				bad[41+m+bi] ^= 0x20
				c.What += "-s2-bit"
				c.Sig = hex.EncodeToString(bad)
				out = append(out, c)
			}
		}
	}
	return out
}

// TestWriteFprlabSignatures writes the cases for go-fn-dsa to judge when
// FNDSA_WRITE_SIGNATURES names the output file.
func TestWriteFprlabSignatures(t *testing.T) {
	path := os.Getenv("FNDSA_WRITE_SIGNATURES")
	if path == "" {
		t.Skip("FNDSA_WRITE_SIGNATURES not set")
	}
	b, err := json.MarshalIndent(fprlabSignatures(t), "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestGoFNDSAJudgesFprlab: go-fn-dsa accepts every signature made here on
// every backend and rejects the corrupted ones, and this package agrees;
// the signatures are still the ones it judged (a change in any backend's
// FN-DSA signing shows here).
func TestGoFNDSAJudgesFprlab(t *testing.T) {
	if testing.Short() {
		t.Skip("signs over dd, vprec and the oracle")
	}
	data, err := os.ReadFile("testdata/gofndsa/fprlab_signatures.json")
	if err != nil {
		t.Fatal(err)
	}
	var judged []fndsa.GoCheck
	if err := json.Unmarshal(data, &judged); err != nil {
		t.Fatal(err)
	}
	now := fprlabSignatures(t)
	if len(judged) != len(now) || len(now) != 40 {
		t.Fatalf("%d judged cases, %d made now, want 40", len(judged), len(now))
	}
	for i, c := range judged {
		if c.Sig != now[i].Sig || c.What != now[i].What {
			t.Fatalf("case %d (%s): the signature made now differs from the one go-fn-dsa judged", i, c.What)
		}
		want := len(c.What) < 7 || c.What[len(c.What)-7:] != "-s2-bit"
		if c.Verdict == nil || *c.Verdict != want {
			t.Fatalf("case %d (%s): go-fn-dsa's verdict %v, want %v", i, c.What, c.Verdict, want)
		}
		if got := fndsa.Verify(fndsa.Unhex(t, c.VKey), fndsa.Unhex(t, c.Ctx), fndsa.MustPreHash(t, c.Hash), fndsa.Unhex(t, c.Data), fndsa.Unhex(t, c.Sig)); got != want {
			t.Fatalf("case %d (%s): verdict here %v, want %v", i, c.What, got, want)
		}
	}
}
