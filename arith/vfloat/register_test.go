package vfloat

import (
	"testing"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/oracle"
)

// TestLookup: vprec names select this package up to MaxPrec and the
// big.Float code above it; vprecbig names always select the big.Float
// code; names keep their canonical form and bad names their errors.
func TestLookup(t *testing.T) {
	for name, fast := range map[string]bool{
		"vprec:11": true, "vprec:53": true, "vprec:113": true, "vprec:64:e11:rz": true, "vprec:24:e8:sr=3": true,
		"vprec:114": false, "vprec:128": false, "vprec:256:e15": false,
	} {
		b, err := arith.Lookup(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, ok := b.Impl.(Arith); ok != fast {
			t.Errorf("%s: Impl %T, fast implementation %v, want %v", name, b.Impl, ok, fast)
		}
		if b.Name != name {
			t.Errorf("%s: name %q", name, b.Name)
		}
		big, err := arith.Lookup("vprecbig" + name[len("vprec"):])
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := big.Impl.(oracle.Arith); !ok || big.Name != "vprecbig"+name[len("vprec"):] {
			t.Errorf("vprecbig for %s: %T named %q", name, big.Impl, big.Name)
		}
	}
	if a, err := Parse("vprec:64:e11:rz"); err != nil || a.String() != "vprec:64:e11:rz" || a.Prec() != 64 {
		t.Errorf("Parse: %v, %v", a, err)
	}
	for _, bad := range []string{"vprec:10", "vprec:64:e1", "vprec:64:e11:rq", "vprecbig:300"} {
		if _, err := arith.Lookup(bad); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
	if _, err := New(MaxPrec + 1); err == nil {
		t.Error("New(MaxPrec+1): no error")
	}
}
