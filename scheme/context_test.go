package scheme_test

import (
	"bytes"
	"crypto/sha3"
	"errors"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
	"github.com/fprlab/fprlab/scheme/round3"
)

// TestContext: the context and pre-hash parsed with their limits; a
// message of the wrong digest length refused; VerifyInput's three
// outcomes -- valid, a verdict (ErrInvalidSignature as verr), and
// malformed input naming the file (a key that does not decode).
func TestContext(t *testing.T) {
	c := fndsa2025.Scheme.(scheme.ContextSigner)
	for ctx, ph := range map[string]string{"zz": "none", strings.Repeat("00", 256): "none", "": "md5"} {
		if _, err := scheme.NewContext(c, ctx, ph); err == nil {
			t.Errorf("--context %.8s... --prehash %s accepted", ctx, ph)
		}
	}
	cs, err := scheme.NewContext(c, " 0102 ", "SHA256")
	if err != nil || !bytes.Equal(cs.Ctx, []byte{1, 2}) || cs.PreHash != "sha256" || cs.DigestSize != 32 {
		t.Fatalf("context 0102, sha256: %+v, %v", cs, err)
	}
	if err := cs.CheckDigest(make([]byte, 31), "m.bin"); err == nil || !strings.Contains(err.Error(), "m.bin holds 31 bytes, but a --prehash sha256 digest is 32 bytes") {
		t.Errorf("a 31-byte digest: %v", err)
	}
	sk, err := c.KeyGen(9, make([]byte, c.KeySeedSize()))
	if err != nil {
		t.Fatal(err)
	}
	pk, skb, err := c.EncodeKeys(sk)
	if err != nil {
		t.Fatal(err)
	}
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	digest := sha3.Sum256([]byte("x")) // any 32 bytes
	sig, logn, err := cs.SignContext(b, skb, cs.Ctx, cs.PreHash, digest[:], sha3.NewSHAKE256())
	if err != nil || logn != 9 {
		t.Fatal(logn, err)
	}
	if logn, verr, err := cs.VerifyInput(pk, digest[:], sig, "pk", "sig"); logn != 9 || verr != nil || err != nil {
		t.Errorf("valid: %d, %v, %v", logn, verr, err)
	}
	digest[0] ^= 1
	if logn, verr, err := cs.VerifyInput(pk, digest[:], sig, "pk", "sig"); logn != 9 || !errors.Is(verr, scheme.ErrInvalidSignature) || err != nil {
		t.Errorf("another digest: %d, %v, %v", logn, verr, err)
	}
	if logn, _, err := cs.VerifyInput(pk[:10], digest[:], sig, "pk.bin", "sig"); logn != 0 || err == nil || !strings.HasPrefix(err.Error(), "public key file pk.bin: ") {
		t.Errorf("a cut key: %d, %v", logn, err)
	}
}

// TestVerifyFormatted: round 3's verdicts from files -- valid with the
// signature's format, another message's verdict ErrInvalidSignature from
// falcon, and a signature or key that does not decode malformed input
// naming its file (the degree known once the key decodes).
func TestVerifyFormatted(t *testing.T) {
	fs := round3.Scheme.(scheme.Formatter)
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("verify formatted"))
	sk, pk, err := falcon.Keygen(b, 9, rng)
	if err != nil {
		t.Fatal(err)
	}
	sig, err := fs.SignFormat(b, sk, []byte("m"), falcon.Padded, falcon.Dyn, rng)
	if err != nil {
		t.Fatal(err)
	}
	pkb := pk.Encode()
	if logn, format, verr, err := scheme.VerifyFormatted(fs, pkb, []byte("m"), sig, "pk", "sig"); logn != 9 || format != "padded" || verr != nil || err != nil {
		t.Errorf("valid: %d, %q, %v, %v", logn, format, verr, err)
	}
	if logn, _, verr, err := scheme.VerifyFormatted(fs, pkb, []byte("n"), sig, "pk", "sig"); logn != 9 || !errors.Is(verr, falcon.ErrInvalidSignature) || err != nil {
		t.Errorf("another message: %d, %v, %v", logn, verr, err)
	}
	if logn, _, _, err := scheme.VerifyFormatted(fs, pkb, []byte("m"), sig[:1], "pk", "s.sig"); logn != 9 || err == nil || !strings.HasPrefix(err.Error(), "signature file s.sig: ") {
		t.Errorf("a cut signature: %d, %v", logn, err)
	}
	if logn, _, _, err := scheme.VerifyFormatted(fs, pkb[:5], []byte("m"), sig, "p.pk", "sig"); logn != 0 || err == nil || !strings.HasPrefix(err.Error(), "public key file p.pk: ") {
		t.Errorf("a cut key: %d, %v", logn, err)
	}
}
