package scheme_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/sha3"
	"errors"
	"io"
	"reflect"
	"slices"
	"testing"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/scheme"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
	"github.com/fprlab/fprlab/scheme/round3"
)

// bare is a scheme with none of the optional capabilities: what a new
// scheme's first version may be.
type bare struct{ scheme.Scheme }

// TestCapabilities: each scheme has the capabilities its commands use,
// With lists them, and a scheme with none is still a Scheme.
func TestCapabilities(t *testing.T) {
	has := func(sc scheme.Scheme) [5]bool {
		_, cs := sc.(scheme.ContextSigner)
		_, kr := sc.(scheme.KATReplayer)
		_, f := sc.(scheme.Formatter)
		_, c := sc.(accel.Counter)
		_, kh := sc.(scheme.KeyHolder)
		return [5]bool{cs, kr, f, c, kh}
	}
	for _, c := range []struct {
		sc   scheme.Scheme
		want [5]bool
	}{
		{round3.Scheme, [5]bool{false, false, true, false, false}},
		{fndsa2025.Scheme, [5]bool{true, true, false, true, true}},
		{bare{round3.Scheme}, [5]bool{}},
	} {
		if got := has(c.sc); got != c.want {
			t.Errorf("%s: ContextSigner, KATReplayer, Formatter, accel.Counter, KeyHolder = %v, want %v", c.sc.Name(), got, c.want)
		}
	}
	got := scheme.With(func(sc scheme.Scheme) bool { _, ok := sc.(scheme.ContextSigner); return ok })
	if !slices.Equal(got, []string{"fn-dsa"}) {
		t.Errorf("With(ContextSigner) = %q, want [fn-dsa]", got)
	}
}

// TestContextSigner: FN-DSA signs under a context and a pre-hash and
// verifies only under the same ones; a wrong context is the verdict
// ErrInvalidSignature with fndsa's message, an undecodable key logn 0.
func TestContextSigner(t *testing.T) {
	cs := fndsa2025.Scheme.(scheme.ContextSigner)
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	seed := sha3.SumSHAKE256([]byte("capability test"), cs.KeySeedSize())
	sk, err := cs.KeyGen(9, seed)
	if err != nil {
		t.Fatal(err)
	}
	pk, skb, err := cs.EncodeKeys(sk)
	if err != nil {
		t.Fatal(err)
	}
	ph, size, err := cs.PreHash("SHA256")
	if err != nil || ph != "sha256" || size != 32 {
		t.Fatalf("PreHash(SHA256) = %q, %d, %v; want sha256, 32", ph, size, err)
	}
	if _, _, err := cs.PreHash("md5"); err == nil {
		t.Error("PreHash(md5) accepted")
	}
	digest := sha256.Sum256([]byte("message"))
	sig, logn, err := cs.SignContext(b, skb, []byte("domain"), ph, digest[:], sha3.NewSHAKE256())
	if err != nil || logn != 9 {
		t.Fatalf("SignContext: logn %d, %v", logn, err)
	}
	if logn, err := cs.VerifyContext(pk, []byte("domain"), ph, digest[:], sig); err != nil || logn != 9 {
		t.Errorf("VerifyContext of its signature: logn %d, %v", logn, err)
	}
	logn, err = cs.VerifyContext(pk, []byte("other"), ph, digest[:], sig)
	if logn != 9 || !errors.Is(err, scheme.ErrInvalidSignature) || err.Error() == scheme.ErrInvalidSignature.Error() {
		t.Errorf("VerifyContext under another context: logn %d, %v; want 9 and fndsa's invalid-signature verdict", logn, err)
	}
	if logn, err := cs.VerifyContext(skb, nil, "none", digest[:], sig); logn != 0 || err == nil {
		t.Errorf("VerifyContext with a signing key as the verifying key: logn %d, %v; want 0 and an error", logn, err)
	}
}

// TestKATReplayer: FN-DSA's replay of go-fn-dsa's records of degree 16
// over native matches all their pins (go-fn-dsa's published digests).
func TestKATReplayer(t *testing.T) {
	kr := fndsa2025.Scheme.(scheme.KATReplayer)
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	n, err := kr.KATRecords(4)
	if err != nil || n != 10 {
		t.Fatalf("KATRecords(4) = %d, %v; want 10", n, err)
	}
	if all, err := kr.KATRecords(0); err != nil || all != 90 {
		t.Errorf("KATRecords(0) = %d, %v; want 90", all, err)
	}
	res, err := kr.ReplayKAT(context.Background(), b, 4, n, io.Discard)
	want := scheme.KATResult{Scheme: "fn-dsa", Backend: "native", Records: 10, Degrees: []int{16}, MatchKeys: 10, MatchPins: 10, Verified: 10}
	if err != nil || !reflect.DeepEqual(res, want) {
		t.Errorf("ReplayKAT = %+v, %v; want %+v", res, err, want)
	}
	var progress bytes.Buffer
	if _, err := kr.ReplayKAT(context.Background(), b, 4, 11, &progress); err == nil {
		t.Error("ReplayKAT of 11 records of degree 16 did not fail")
	}
}
