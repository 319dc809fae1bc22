package shadow

import (
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"io"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
)

// keepSignature is round 3 with the last signature it made kept, so that
// a test sees what the shadowed run signed (Sign is round 3's: SignFormat
// compressed, dyn).
type keepSignature struct {
	scheme.Formatter
	last []byte
}

func (k *keepSignature) SignFormat(b arith.Backend, sk *falcon.PrivateKey, msg []byte, f falcon.SigFormat, m falcon.Mode, rng io.Reader) ([]byte, error) {
	sig, err := k.Formatter.SignFormat(b, sk, msg, f, m, rng)
	k.last = sig
	return sig, err
}

func (k *keepSignature) Sign(b arith.Backend, sk *falcon.PrivateKey, msg []byte, rng io.Reader) ([]byte, error) {
	return k.SignFormat(b, sk, msg, falcon.Compressed, falcon.Dyn, rng)
}

// TestModeUnderShadow signs, under the dd shadow, one of the inputs on
// which the reference C's falcon_sign_dyn and falcon_sign_tree sign
// differently (Falcon-512, key 0, message 16299 of
// falcon/testdata/reference_modes.txt): in each mode the shadowed run signs
// as that reference procedure does, byte for byte (the file holds the
// SHA-256 of the padded signatures, so the signature is re-encoded so).
func TestModeUnderShadow(t *testing.T) {
	shake := func(b []byte) *sha3.SHAKE {
		h := sha3.NewSHAKE256()
		h.Write(b)
		return h
	}
	native := lookup(t, "native")
	sk, _, err := falcon.Keygen(native, 9, shake(binary.BigEndian.AppendUint32([]byte{'K', 9}, 0)))
	if err != nil {
		t.Fatal(err)
	}
	round3, err := scheme.Lookup("falcon")
	if err != nil {
		t.Fatal(err)
	}
	keep := &keepSignature{Formatter: round3.(scheme.Formatter)}
	for mode, want := range map[falcon.Mode]string{
		falcon.Dyn:  "15240d7f915e307870d7f04f3aa98d205dfe9b0c7ebee0c86e3f1ea46e076a4c",
		falcon.Tree: "abebe8aa0ad67dd00638f439b4770d8ac197f034ecd413f8b3b757b9ba60f745",
	} {
		cfg := Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "mode", Sigma: SigmaFormula, Shadow: ShadowDD, Scheme: keep, Mode: mode}
		if err := cfg.Check(); err != nil {
			t.Fatal(err)
		}
		r, err := newRunner(native, &cfg)
		if err != nil {
			t.Fatal(err)
		}
		keep.last = nil
		seed := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte{'S', 9}, 0), 16299)
		rec, err := r.sign(sk, []byte("message 16299"), shake(seed), 0, 0)
		if err != nil {
			t.Fatalf("%v: %v", mode, err)
		}
		if rec.Attempts < 1 || keep.last == nil {
			t.Fatalf("%v: %d attempts, signature %x", mode, rec.Attempts, keep.last)
		}
		d, err := falcon.DecodeSignature(keep.last)
		if err != nil {
			t.Fatal(err)
		}
		padded, err := falcon.EncodeSignature(falcon.Padded, 9, d.Nonce, d.S2)
		if err != nil {
			t.Fatal(err)
		}
		if h := sha256.Sum256(padded); hex.EncodeToString(h[:]) != want {
			t.Errorf("%v under the shadow: not the reference's %v signature", mode, mode)
		}
	}
	// A scheme with one signing procedure refuses tree mode.
	fn, err := scheme.Lookup("fn-dsa")
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "mode", Sigma: SigmaReference, Shadow: ShadowDD, Scheme: fn, Mode: falcon.Tree}
	if err := cfg.Check(); err == nil {
		t.Error("fn-dsa accepted the tree mode")
	}
}
