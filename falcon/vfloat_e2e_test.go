package falcon

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith/oracle"
	"github.com/fprlab/fprlab/arith/vfloat"
)

// Falcon over the fast vprec implementation (package arith/vfloat, which
// "vprec" names select) against the big.Float reference ("vprecbig").

// vfloatSignFormats are the formats of TestVFloatSignsAsReference: plain
// precisions across the sweep's range, bounded exponents in each rounding.
var vfloatSignFormats = []string{"vprec:24", "vprec:40", "vprec:53", "vprec:64", "vprec:80",
	"vprec:48:e11:rz", "vprec:64:e11", "vprec:30:e8", "vprec:64:e11:sr=1"}

// vfloatSignDigest is the SHA-256, accumulated over the format names and
// the signatures of TestVFloatSignsAsReference in order, computed with the
// big.Float reference (vprecbig names).
const vfloatSignDigest = "da637bd86d2bedf86bca83399b5ae6eb0b6b56f57a7bbb846ee48f57f7b1b17c"

// TestVFloatSignsAsReference signs three messages per format with the
// fast backend and with the reference: the signatures must be the same
// bytes, and their digest the pinned one (-short signs one message per
// format and compares with the reference only).
func TestVFloatSignsAsReference(t *testing.T) {
	sk := katKeys(t)[9]
	msgs := 3
	if testing.Short() {
		msgs = 1
	}
	h := sha256.New()
	for _, name := range vfloatSignFormats {
		fast, ref := mustBackend(t, name), mustBackend(t, "vprecbig"+strings.TrimPrefix(name, "vprec"))
		if _, ok := fast.Impl.(vfloat.Arith); !ok {
			t.Fatalf("%s: backend is %T, want the fast vfloat.Arith", name, fast.Impl)
		}
		if _, ok := ref.Impl.(oracle.Arith); !ok {
			t.Fatalf("vprecbig: backend is %T, want oracle.Arith", ref.Impl)
		}
		h.Write([]byte(name))
		for j := range msgs {
			msg := []byte(fmt.Sprintf("vfloat against vprecbig %d", j))
			got, err := Sign(fast, sk, msg, Compressed, seededRand(uint64(100+j)))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, err := Sign(ref, sk, msg, Compressed, seededRand(uint64(100+j)))
			if err != nil {
				t.Fatalf("%s (reference): %v", name, err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s message %d: signature differs from the reference's", name, j)
			}
			h.Write(want) // the reference's: the pinned digest is the big.Float implementation's
		}
	}
	if d := hex.EncodeToString(h.Sum(nil)); !testing.Short() && d != vfloatSignDigest {
		t.Errorf("digest %s, want %s", d, vfloatSignDigest)
	}
}

// TestVFloatKeygenAsReference generates a Falcon-512 key over fast
// formats and their references from one seed: the keys must be the same
// bytes (key generation runs NTRUSolve's FFT-based reduction in the format).
func TestVFloatKeygenAsReference(t *testing.T) {
	names := []string{"vprec:64", "vprec:56:e11:rz"}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		sk, _, err := Keygen(mustBackend(t, name), 9, seededRand(5))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want, _, err := Keygen(mustBackend(t, "vprecbig"+strings.TrimPrefix(name, "vprec")), 9, seededRand(5))
		if err != nil {
			t.Fatalf("%s (reference): %v", name, err)
		}
		if !bytes.Equal(sk.Encode(), want.Encode()) {
			t.Errorf("%s: key differs from the reference's", name)
		}
	}
}
