package shadow

import (
	"crypto/sha256"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"fmt"
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

// TestModeUnderShadow signs, under the shadow, inputs on which the reference
// C's builds and procedures sign differently (falcon/testdata/
// reference_modes.txt, Falcon-512, key 0): message 16299, where its plain
// build's falcon_sign_dyn and falcon_sign_tree differ, over native; message
// 834, where its AVX2+FMA build signs differently from the plain one, over
// native-fma under both exact sides (the pair must pass Falcon's fused
// multiply-adds on to the backend). Each shadowed run signs as that
// reference build and procedure does, byte for byte (the file holds the
// SHA-256 of the padded signatures, so the signature is re-encoded so).
func TestModeUnderShadow(t *testing.T) {
	shake := func(b []byte) *sha3.SHAKE {
		h := sha3.NewSHAKE256()
		h.Write(b)
		return h
	}
	round3, err := scheme.Lookup("falcon")
	if err != nil {
		t.Fatal(err)
	}
	keep := &keepSignature{Formatter: round3.(scheme.Formatter)}
	for _, c := range []struct {
		backend string
		shadow  Kind
		mode    falcon.Mode
		j       uint32
		want    string
	}{
		{"native", ShadowDD, falcon.Dyn, 16299, "15240d7f915e307870d7f04f3aa98d205dfe9b0c7ebee0c86e3f1ea46e076a4c"},
		{"native", ShadowDD, falcon.Tree, 16299, "abebe8aa0ad67dd00638f439b4770d8ac197f034ecd413f8b3b757b9ba60f745"},
		{"native-fma", ShadowDD, falcon.Dyn, 834, "0a95bf811fd0a0cdd3f4393d374a74a0ed22aa6eba298e8994745456d510e3dc"},
		{"native-fma", ShadowDD, falcon.Tree, 834, "0a95bf811fd0a0cdd3f4393d374a74a0ed22aa6eba298e8994745456d510e3dc"},
		{"native-fma", ShadowOracle, falcon.Dyn, 834, "0a95bf811fd0a0cdd3f4393d374a74a0ed22aa6eba298e8994745456d510e3dc"},
	} {
		b := lookup(t, c.backend)
		sk, _, err := falcon.Keygen(b, 9, shake(binary.BigEndian.AppendUint32([]byte{'K', 9}, 0)))
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "mode", Sigma: SigmaFormula, Shadow: c.shadow, OracleBits: 256, Scheme: keep, Mode: c.mode}
		if err := cfg.Check(); err != nil {
			t.Fatal(err)
		}
		r, err := newRunner(b, &cfg)
		if err != nil {
			t.Fatal(err)
		}
		keep.last = nil
		seed := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint32([]byte{'S', 9}, 0), c.j)
		rec, err := r.sign(sk, fmt.Appendf(nil, "message %d", c.j), shake(seed), 0, 0)
		if err != nil {
			t.Fatalf("%s %v: %v", c.backend, c.mode, err)
		}
		if rec.Attempts < 1 || keep.last == nil {
			t.Fatalf("%s %v: %d attempts, signature %x", c.backend, c.mode, rec.Attempts, keep.last)
		}
		d, err := falcon.DecodeSignature(keep.last)
		if err != nil {
			t.Fatal(err)
		}
		padded, err := falcon.EncodeSignature(falcon.Padded, 9, d.Nonce, d.S2)
		if err != nil {
			t.Fatal(err)
		}
		if h := sha256.Sum256(padded); hex.EncodeToString(h[:]) != c.want {
			t.Errorf("%s %v under the %v shadow, message %d: not the reference's signature", c.backend, c.mode, c.shadow, c.j)
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
