package fndsa2026_test

import (
	"bytes"
	"crypto/sha3"
	"errors"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/native"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
	"github.com/fprlab/fprlab/scheme/fndsa2026"
)

// stuckExp is native arithmetic whose FN-DSA ApproxExp always returns 1
// (an acceptance probability of 2^-63): the sampler never accepts.
type stuckExp struct{ native.Arith }

func (stuckExp) ExpmP63FIPS206(x, ccs float64) uint64 { return 1 }

// TestSamplerStuckIsMarked: a sampler that never accepts reaches a caller
// of the scheme as scheme.ErrSamplerStuck (the verdict the precision
// search takes for "this plan cannot sign"), by Sign and SignContext.
func TestSamplerStuckIsMarked(t *testing.T) {
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	sk, _, err := falcon.Keygen(b, 9, sha3.NewSHAKE256())
	if err != nil {
		t.Fatal(err)
	}
	stuck := falcon.Instantiate[float64](arith.Backend{Name: "stuck-exp", Bits: 53}, stuckExp{}, nil)
	_, err = fndsa2026.Scheme.Sign(stuck, sk, []byte("m"), sha3.NewSHAKE256())
	if !errors.Is(err, scheme.ErrSamplerStuck) || !errors.Is(err, falcon.ErrSamplerStuck) {
		t.Errorf("Sign: %v, want it to match scheme.ErrSamplerStuck", err)
	}
	_, skb, err := fndsa2026.Scheme.EncodeKeys(sk)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = fndsa2026.Scheme.(scheme.ContextSigner).SignContext(stuck, skb, nil, "none", []byte("m"), sha3.NewSHAKE256())
	if !errors.Is(err, scheme.ErrSamplerStuck) {
		t.Errorf("SignContext: %v, want it to match scheme.ErrSamplerStuck", err)
	}
}

// TestKeyHolder: a held key signs as Sign does, byte for byte, from the
// same random bytes, for both FN-DSA profiles.
func TestKeyHolder(t *testing.T) {
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range []scheme.Scheme{fndsa2025.Scheme, fndsa2026.Scheme} {
		kh := sc.(scheme.KeyHolder)
		sk, err := kh.KeyGen(9, make([]byte, kh.KeySeedSize()))
		if err != nil {
			t.Fatal(err)
		}
		held, err := kh.HoldKey(sk)
		if err != nil {
			t.Fatal(err)
		}
		for i, msg := range []string{"", "message", "another message"} {
			seed := sha3.SumSHAKE256([]byte{byte(i)}, 64)
			want, err := kh.Sign(b, sk, []byte(msg), bytes.NewReader(seed))
			if err != nil {
				t.Fatal(err)
			}
			got, err := held(b, []byte(msg), bytes.NewReader(seed))
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("%s %q: held key's signature differs from Sign's (%v)", sc.Name(), msg, err)
			}
		}
	}
}
