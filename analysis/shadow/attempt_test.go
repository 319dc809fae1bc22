package shadow

import (
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/scheme"
	_ "github.com/fprlab/fprlab/scheme/fndsa2026"
	_ "github.com/fprlab/fprlab/scheme/round3"
)

// TestSignerAttempt: a shadowed attempt on a chosen hashed point makes
// one attempt's 2n sampler calls,
// is a function of the point and the seed, and is refused with a message
// naming the problem for a point of the wrong size or a value not below q,
// and on the tree path. With edge samples it rejects no candidate and its
// error grows; a deviation outside the sampler's support is refused.
func TestSignerAttempt(t *testing.T) {
	b, err := arith.Lookup("native")
	if err != nil {
		t.Fatal(err)
	}
	sk, _, err := falcon.Keygen(b, 9, derive("key", "attempt", 0))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"falcon", "fn-dsa-2026"} {
		sc, err := scheme.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		s, err := NewSigner(b, Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "attempt", Shadow: ShadowDD, Sigma: SigmaReference, Scheme: sc})
		if err != nil {
			t.Fatal(err)
		}
		hm := make([]uint16, 512)
		for j := range hm {
			hm[j] = uint16(j * 97 % falcon.Q)
		}
		a, err := s.Attempt(sk, hm, []byte("seed 1"), Drawn)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a2, _ := s.Attempt(sk, hm, []byte("seed 1"), Drawn)
		c, _ := s.Attempt(sk, hm, []byte("seed 2"), Drawn)
		if a.Calls != 1024 || a.MaxDeltaC == nil || a2.MaxDeltaC == nil || c.MaxDeltaC == nil {
			t.Fatalf("%s: %d sampler calls, %d rejections, delta_c %v", name, a.Calls, a.Rejections, a.MaxDeltaC)
		}
		if *a2.MaxDeltaC != *a.MaxDeltaC || a2.Calls != a.Calls {
			t.Errorf("%s: the same point and seed measured 2^%v and 2^%v", name, *a.MaxDeltaC, *a2.MaxDeltaC)
		}
		if *c.MaxDeltaC == *a.MaxDeltaC && c.Calls == a.Calls {
			t.Errorf("%s: another seed measured the same attempt", name)
		}
		// With edge samples: no candidate is rejected, and the samples'
		// distances from the centres (18 or 19 where drawn ones are
		// about 1.5) reach the centres through the updates: the error
		// grows (by a bit or more on this key).
		e, err := s.Attempt(sk, hm, []byte("seed 1"), falcon.MaxBaseSample)
		if err != nil {
			t.Fatalf("%s: edge samples: %v", name, err)
		}
		if e.Calls != 1024 || e.Rejections != 0 || e.MaxDeltaC == nil || !(*e.MaxDeltaC > *a.MaxDeltaC+0.5) {
			t.Errorf("%s: edge samples: %d calls, %d rejections, delta_c 2^%v (drawn 2^%v)", name, e.Calls, e.Rejections, deref(e.MaxDeltaC), *a.MaxDeltaC)
		}
		if _, err := s.Attempt(sk, hm, nil, falcon.MaxBaseSample+1); err == nil || !strings.Contains(err.Error(), "outside the base sampler's support") {
			t.Errorf("%s: edge samples at 19: %v", name, err)
		}
	}
	s, err := NewSigner(b, Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "attempt", Shadow: ShadowDD, Sigma: SigmaReference})
	if err != nil {
		t.Fatal(err)
	}
	bad := make([]uint16, 512)
	bad[7] = falcon.Q
	for _, c := range []struct {
		hm   []uint16
		want string
	}{
		{make([]uint16, 256), "hashed point of 256 values for a key of degree 512"},
		{bad, "value 12289 at 7 is not below q"},
	} {
		if _, err := s.Attempt(sk, c.hm, nil, Drawn); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Attempt: error %v, want one saying %q", err, c.want)
		}
	}
	tree, err := NewSigner(b, Config{LogN: 9, Signatures: 1, Keys: 1, Seed: "attempt", Shadow: ShadowDD, Sigma: SigmaReference, Mode: falcon.Tree})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tree.Attempt(sk, make([]uint16, 512), nil, Drawn); err == nil || !strings.Contains(err.Error(), "dynamic path") {
		t.Errorf("Attempt on the tree path: error %v", err)
	}
}
