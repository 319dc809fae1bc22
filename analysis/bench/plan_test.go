package bench_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/bench"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/scheme/fndsa2025"
	"github.com/fprlab/fprlab/scheme/round3"
)

// fakeLookup knows every name but "nope".
func fakeLookup(name string) (arith.Backend, error) {
	if name == "nope" {
		return arith.Backend{}, fmt.Errorf("unknown backend %q", name)
	}
	return arith.Backend{Name: name}, nil
}

func names(bs []arith.Backend) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.Name)
	}
	return strings.Join(out, ",")
}

// TestSetBackends: the references native and emu64 are always measured
// (added after the list when missing); "all" is AllBackends; a name
// twice, an empty list and an unknown name are refused.
func TestSetBackends(t *testing.T) {
	for list, want := range map[string]string{
		"triword":        "triword,native,emu64",
		"emu64, triword": "emu64,triword,native",
		"all":            strings.Join(bench.AllBackends, ","),
	} {
		var p bench.Plan
		if err := p.SetBackends(list, fakeLookup); err != nil || names(p.Backends) != want {
			t.Errorf("%q: %s, %v; want %s", list, names(p.Backends), err, want)
		}
	}
	for list, msg := range map[string]string{"dd,dd": `--backend "dd,dd" names dd twice`, ",": "want a backend name", "nope": `--backend: unknown backend "nope"`} {
		var p bench.Plan
		if err := p.SetBackends(list, fakeLookup); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("%q: %v; want %q", list, err, msg)
		}
	}
}

// TestSetOps: round 3 takes every operation; another scheme drops the
// expanded-key operations from the default list and refuses them when
// asked for; unknown and repeated names are refused.
func TestSetOps(t *testing.T) {
	all := strings.Join(bench.Ops, ",")
	p := bench.Plan{Scheme: round3.Scheme}
	if err := p.SetOps(all, false); err != nil || !slices.Equal(p.Ops, bench.Ops) {
		t.Errorf("round 3: %v, %v", p.Ops, err)
	}
	p = bench.Plan{Scheme: fndsa2025.Scheme}
	if err := p.SetOps(all, false); err != nil || strings.Join(p.Ops, ",") != "keygen,sign,verify" {
		t.Errorf("fn-dsa, default ops: %v, %v", p.Ops, err)
	}
	for list, msg := range map[string]string{"sign,expand": "--op expand: round 3's only; --scheme fn-dsa", "sign,hash": `--op "hash": unknown operation`, "sign,sign": "names sign twice", "": "want a comma-separated list"} {
		p = bench.Plan{Scheme: fndsa2025.Scheme}
		if err := p.SetOps(list, true); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("fn-dsa --op %q: %v; want %q", list, err, msg)
		}
	}
}
