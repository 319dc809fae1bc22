package scheme_test

import (
	"crypto/sha3"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/fndsa"
	"github.com/fprlab/fprlab/scheme"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
	"github.com/fprlab/fprlab/scheme/round3"
)

// TestLookup: both schemes are found by the names campaigns record, ""
// is round 3, and an unknown name is refused with the accepted ones.
func TestLookup(t *testing.T) {
	for _, c := range []struct {
		name string
		want scheme.Scheme
	}{{"", round3.Scheme}, {"falcon", round3.Scheme}, {"fn-dsa", fndsa2025.Scheme}} {
		s, err := scheme.Lookup(c.name)
		if err != nil || s != c.want {
			t.Errorf("Lookup(%q) = %v, %v; want %v", c.name, s, err, c.want.Name())
		}
	}
	if got := scheme.Names(); strings.Join(got, ",") != "falcon,fn-dsa" {
		t.Errorf("Names() = %v, want [falcon fn-dsa]", got)
	}
	_, err := scheme.Lookup("fn-dsa-2026")
	if err == nil || !strings.Contains(err.Error(), `want "falcon", "fn-dsa" or "fn-dsa-2025"`) {
		t.Errorf("Lookup(fn-dsa-2026): %v, want a refusal naming falcon, fn-dsa and its alias fn-dsa-2025", err)
	}
	if !scheme.IsDefault(nil) || !scheme.IsDefault(round3.Scheme) || scheme.IsDefault(fndsa2025.Scheme) {
		t.Error("IsDefault: want nil and round 3 default, fn-dsa not")
	}
}

// TestRegisterTwice: a second scheme under a taken name is a programming
// error.
func TestRegisterTwice(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Register(round 3) again did not panic")
		}
	}()
	scheme.Register(round3.Scheme)
}

// TestFNDSAKeyGen: the fn-dsa scheme's keys are go-fn-dsa's (the KAT's
// pinned SHA-256 of sk || vk), at both standard degrees.
func TestFNDSAKeyGen(t *testing.T) {
	recs, err := fndsa.KAT()
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range recs {
		if r.LogN < 9 || r.J != 0 {
			continue
		}
		sk, err := fndsa2025.Scheme.KeyGen(r.LogN, r.KeygenSeed())
		if err != nil {
			t.Fatal(err)
		}
		pk, skb, err := fndsa2025.Scheme.EncodeKeys(sk)
		if err != nil {
			t.Fatal(err)
		}
		if keys, _ := r.Match(skb, pk, nil); !keys {
			t.Errorf("logn %d: keys are not go-fn-dsa's", r.LogN)
		}
		checked++
	}
	if checked != 2 {
		t.Fatalf("checked %d records, want 2", checked)
	}
	if _, err := round3.Scheme.KeyGen(9, make([]byte, 32)); err == nil {
		t.Error("round 3 KeyGen from a seed: no error")
	}
}

// TestSignVerify: each scheme's signature verifies under its own rule
// and not under the other's (the hash-to-point differs), and a changed
// message is refused.
func TestSignVerify(t *testing.T) {
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	rng := sha3.NewSHAKE256()
	rng.Write([]byte("scheme test"))
	sk, pk, err := falcon.Keygen(b, 9, rng)
	if err != nil {
		t.Fatal(err)
	}
	msg := []byte("message")
	for _, c := range []struct{ s, other scheme.Scheme }{{round3.Scheme, fndsa2025.Scheme}, {fndsa2025.Scheme, round3.Scheme}} {
		sig, err := c.s.Sign(b, sk, msg, rng)
		if err != nil {
			t.Fatalf("%s: %v", c.s.Name(), err)
		}
		if err := c.s.Verify(pk, msg, sig); err != nil {
			t.Errorf("%s: own signature refused: %v", c.s.Name(), err)
		}
		if c.s.Verify(pk, []byte("massage"), sig) == nil {
			t.Errorf("%s: signature of another message accepted", c.s.Name())
		}
		if c.other.Verify(pk, msg, sig) == nil {
			t.Errorf("%s signature accepted by %s", c.s.Name(), c.other.Name())
		}
	}
	if fndsa2025.Scheme.CheckLogN(8) == nil || fndsa2025.Scheme.CheckLogN(9) != nil || round3.Scheme.CheckLogN(4) != nil {
		t.Error("CheckLogN: want fn-dsa at 512 and 1024 only, round 3 at 16 too")
	}
}

// TestMarkSignAttempts: an implementation's own error for attempts run
// out, marked, keeps its message and what it matched, and matches
// ErrSignAttempts.
func TestMarkSignAttempts(t *testing.T) {
	err := scheme.MarkEngine(fndsa.ErrSignAttempts, fndsa.ErrSignAttempts)
	if err.Error() != fndsa.ErrSignAttempts.Error() || !errors.Is(err, fndsa.ErrSignAttempts) || !errors.Is(err, scheme.ErrSignAttempts) {
		t.Errorf("marked %v: message or matches lost", err)
	}
	if scheme.MarkEngine(nil, fndsa.ErrSignAttempts) != nil {
		t.Error("MarkEngine(nil, ...) != nil")
	}
}

// stuckExp (also in scheme/fndsa2026's test, which must not link the
// schemes this package's tests count) is native arithmetic whose ExpmP63, and FN-DSA's integer
// ApproxExp in its place, always return 1 (an acceptance probability of
// 2^-63), so that the sampler never accepts.
type stuckExp struct{ native.Arith }

func (stuckExp) ExpmP63(x, ccs float64) uint64        { return 1 }
func (stuckExp) ExpmP63FIPS206(x, ccs float64) uint64 { return 1 }

// TestMarkEngine: the engine's verdicts on precision reach a caller of
// every scheme as this package's sentinels, with their messages; errors
// the engine did not return pass unmarked.
func TestMarkEngine(t *testing.T) {
	for _, c := range []struct {
		err  error
		want error
	}{
		{falcon.ErrSignAttempts, scheme.ErrSignAttempts},
		{falcon.ErrSamplerStuck, scheme.ErrSamplerStuck},
	} {
		wrapped := fmt.Errorf("KAT record 3: %w", c.err)
		err := scheme.MarkEngine(wrapped)
		if err.Error() != wrapped.Error() || !errors.Is(err, c.err) || !errors.Is(err, c.want) {
			t.Errorf("MarkEngine(%v) = %v: message or matches lost", wrapped, err)
		}
	}
	other := errors.New("other")
	if err := scheme.MarkEngine(other); err != other || errors.Is(err, scheme.ErrSamplerStuck) || errors.Is(err, scheme.ErrSignAttempts) {
		t.Errorf("MarkEngine(other) = %v", err)
	}
	if scheme.MarkEngine(nil) != nil {
		t.Error("MarkEngine(nil) != nil")
	}

	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	sk, _, err := falcon.Keygen(b, 9, sha3.NewSHAKE256())
	if err != nil {
		t.Fatal(err)
	}
	stuck := falcon.Instantiate[float64](arith.Backend{Name: "stuck-exp", Bits: 53}, stuckExp{}, nil)
	for _, s := range []scheme.Scheme{round3.Scheme, fndsa2025.Scheme} { // fn-dsa-2026: scheme/fndsa2026's test
		_, err := s.Sign(stuck, sk, []byte("m"), sha3.NewSHAKE256())
		if !errors.Is(err, scheme.ErrSamplerStuck) || !errors.Is(err, falcon.ErrSamplerStuck) || errors.Is(err, scheme.ErrSignAttempts) {
			t.Errorf("%s over a sampler that never accepts: %v, want it to match scheme.ErrSamplerStuck", s.Name(), err)
		}
	}
}

// TestTitles: documents name their parameter sets by the scheme they
// record, an absent or unknown one being round 3's.
func TestTitles(t *testing.T) {
	for _, c := range []struct {
		name, keys string
		n          int
		want       string
	}{
		{"", "", 512, "Falcon-512"},
		{"nosuch", "", 1024, "Falcon-1024"},
		{"fn-dsa", "fn-dsa", 512, "FN-DSA-512 (FN-DSA keys)"},
		{"fn-dsa", "falcon", 1024, "FN-DSA-1024 (round-3 keys)"},
	} {
		if got := scheme.KeysTitle(c.name, c.n, c.keys); got != c.want {
			t.Errorf("KeysTitle(%q, %d, %q) = %q, want %q", c.name, c.n, c.keys, got, c.want)
		}
	}
	if got := scheme.DescriptionOf("nosuch"); got != "nosuch" {
		t.Errorf("DescriptionOf(nosuch) = %q", got)
	}
}
