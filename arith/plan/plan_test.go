package plan

import (
	"strings"
	"testing"

	"github.com/fprlab/fprlab/arith"
)

func TestParse(t *testing.T) {
	p, err := Parse("fft=vprec:60, ldl=vprec:64:e11, sampler=binary64,all=vprec:53")
	if err != nil {
		t.Fatal(err)
	}
	want := Plan{"vprec:60", "vprec:53", "vprec:64:e11", "vprec:53", "vprec:53", "vprec:53", "vprec:53:e11", "vprec:53", "vprec:53"}
	if p != want {
		t.Fatalf("Parse = %v, want %v", p, want)
	}
	if got := p.String(); got != "fft=vprec:60,ldl=vprec:64:e11,sampler=vprec:53:e11,all=vprec:53" {
		t.Errorf("String = %q", got)
	}
	if q, err := Parse(strings.TrimPrefix(p.Name(), "plan:")); err != nil || q != p {
		t.Errorf("Name %q does not parse back: %v, %v", p.Name(), q, err)
	}
	if q, err := Parse("all=vprec:040"); err != nil || q != Uniform("vprec:40") {
		t.Errorf("uniform plan: %v, %v", q, err)
	}
	for _, c := range []struct{ in, want string }{
		{"", "empty plan"},
		{"fft", "want stage=FORMAT"},
		{"fft=vprec:60", "gives no format to stage(s) gram, ldl"},
		{"fft=vprec:60,fft=vprec:61,all=vprec:53", "given twice"},
		{"fast=vprec:60,all=vprec:53", `unknown stage "fast"`},
		{"fft=triword,all=vprec:53", "plan stages take vprec formats"},
		{"fft=vprec:3,all=vprec:53", "need an integer P"},
		{"all=vprec:53:e99", "exponent width"},
	} {
		if _, err := Parse(c.in); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", c.in, err, c.want)
		}
	}
	if _, err := arith.Lookup("plan:all=vprec:53+fft=vprec:30"); err != nil {
		t.Errorf("registry: %v", err)
	}
	if _, err := arith.Lookup("plan:fft=oracle"); err == nil {
		t.Error("registry accepted an oracle stage")
	}
}
