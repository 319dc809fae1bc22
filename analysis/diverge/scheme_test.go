package diverge_test

import (
	"bytes"
	"context"
	"crypto/sha3"
	"encoding/hex"
	"io"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/diverge"
	"github.com/fprlab/fprlab/fndsa"
	draft "github.com/fprlab/fprlab/fndsa2026"
)

// fnDSA2026Campaign is native against vprec:28 signing the 2026 draft
// from one shared hedged seed per signature. Of its first 400 signatures
// 7 differ; signature 183 parts at the last sampler call (a floor whose
// centre lies 5.7e-14 from an integer) and its s2 differ by f.
func fnDSA2026Campaign(t *testing.T) diverge.Config {
	return diverge.Config{LogN: 9, Signatures: 400, Keys: 1, Seed: "fprlab", Workers: 1,
		A: side(t, "native"), B: side(t, "vprec:28"), KeyBackend: side(t, "native").Backend,
		Scheme: reader(t, "fn-dsa-2026")}
}

// A differing pair of the 2026 draft is two valid signatures under the
// draft's own verifier, with one nonce, whose s2 differ by the secret f;
// Recover turns it into a key whose verifying key is the campaign's and
// whose signatures the draft's verifier accepts.
func TestFNDSA2026KeyRevealingPair(t *testing.T) {
	c := fnDSA2026Campaign(t)
	cp, err := diverge.Prepare(c)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cp.Range(context.Background(), 183, 184, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Scheme != "fn-dsa-2026" || res.Differing != 1 || res.KeyRevealing != 1 || res.Pairs[0].Index != 183 {
		t.Fatalf("signature 183: scheme %q, %d differing, %d key-revealing", res.Scheme, res.Differing, res.KeyRevealing)
	}
	pr := res.Pairs[0]
	unhex := func(s string) []byte {
		b, err := hex.DecodeString(s)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	vk, msg, sa, sb := unhex(pr.PublicKey), unhex(pr.Message), unhex(pr.SigA), unhex(pr.SigB)
	if len(vk) != draft.VerifyingKeySize(9) || len(sa) != draft.SignatureSize(9) {
		t.Fatalf("pair in other encodings: %d-byte key, %d-byte signature", len(vk), len(sa))
	}
	for i, sig := range [][]byte{sa, sb} {
		if !draft.Verify(vk, nil, fndsa.None, msg, sig) {
			t.Errorf("signature %c of the pair does not verify under the draft's verifier", 'A'+i)
		}
	}
	if bytes.Equal(sa, sb) || !bytes.Equal(sa[:1+draft.NonceSize], sb[:1+draft.NonceSize]) {
		t.Errorf("the pair is not two signatures with one header and nonce")
	}

	sc := reader(t, "fn-dsa-2026")
	pk, err := sc.DecodePublicKey(vk)
	if err != nil {
		t.Fatal(err)
	}
	native := side(t, "native").Backend
	rec, err := diverge.Recover(native, sc, pk, msg, sa, sb)
	if err != nil || rec.Key == nil {
		t.Fatalf("Recover: %v, %+v", err, rec)
	}
	k, err := draft.NewSigningKey(rec.Key, false)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(k.VerifyingKey(), vk) {
		t.Error("the recovered key's verifying key is not the campaign's")
	}
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("recovered"))
	other := []byte("another message")
	sig, err := k.Sign(native, nil, fndsa.None, other, io.LimitReader(rng, 1<<10))
	if err != nil || !draft.Verify(vk, nil, fndsa.None, other, sig) {
		t.Errorf("the recovered key signs no valid signature: %v", err)
	}

	// Read as Falcon round 3's, the pair is refused: another encoding.
	if _, err := diverge.Recover(native, round3Reader(t), pk, msg, sa, sb); err == nil {
		t.Error("round 3's reader took the draft's signatures")
	}
	// A round-3 result of the same campaign does not merge with it.
	r3 := *res
	r3.Scheme, r3.Pairs = "", nil
	if _, err := diverge.Merge(res, &r3); err == nil || !strings.Contains(err.Error(), "fn-dsa-2026") {
		t.Errorf("merge across schemes: %v", err)
	}
}

// The draft signs by one procedure: a side in round 3's tree mode is
// refused, as is a degree the scheme does not sign.
func TestFNDSA2026Refusals(t *testing.T) {
	c := fnDSA2026Campaign(t)
	c.B = side(t, "native:tree")
	if err := c.Check(); err == nil || !strings.Contains(err.Error(), ":tree") {
		t.Errorf("tree side: %v", err)
	}
	c = fnDSA2026Campaign(t)
	c.LogN = 8
	if err := c.Check(); err == nil {
		t.Error("degree 256 accepted")
	}
	if _, err := diverge.Recover(side(t, "native").Backend, reader(t, "fn-dsa-2026"), nil, nil, nil, nil); err == nil {
		t.Error("nil public key accepted")
	}
}
