package main

import (
	"context"
	"crypto/sha3"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/accel"
	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/cli"
)

// familyMembers are the members of each backend family the cross test
// runs: one per way of writing a family's names whose value type or
// implementation differs (vprec:P and vprec:P:eE are different code).
var familyMembers = map[string][]string{
	"oracle":   {"oracle:64"},
	"vprec":    {"vprec:40", "vprec:53:e11:rz"},
	"vprecbig": {"vprecbig:40"},
	"plan":     {"plan:ldl=vprec:40+all=binary64"},
}

// crossBackends returns every registered backend and the members of every
// family; a family without members in familyMembers fails the test, so
// that a new family is crossed too.
func crossBackends(t *testing.T) []string {
	var names []string
	for _, b := range arith.List() {
		names = append(names, b.Name)
	}
	seen := map[string]bool{}
	for _, f := range arith.Families() {
		if seen[f.Name] {
			continue
		}
		seen[f.Name] = true
		m, ok := familyMembers[f.Name]
		if !ok {
			t.Errorf("backend family %q has no member in familyMembers", f.Name)
		}
		names = append(names, m...)
	}
	return names
}

// TestEveryBackendEveryConsumer crosses every registered backend (and a
// member of each family) with every consumer of backends chosen by name:
// key generation where the backend supports it, signing (verified), the
// shadowed campaign under both exact sides where the exact side is wider
// than the backend, the per-operation errors, the expm curve, the sampler
// recorder; then compare --out over the registered backends, report, and
// every plot kind a compare campaign supports. A value type missing from
// package valuetype's registrations for any consumer fails it. Cheap: the
// library consumers run at degree 16 with one key and one signature, the
// command line at 512 with one signature.
func TestEveryBackendEveryConsumer(t *testing.T) {
	const logn = 4
	for _, name := range crossBackends(t) {
		t.Run(name, func(t *testing.T) {
			b, err := arith.Lookup(name)
			if err != nil {
				t.Fatal(err)
			}
			rng := sha3.NewSHAKE256()
			rng.Write([]byte("cross test " + name))
			kb := b
			if err := falcon.KeygenSupported(b); err != nil {
				if kb, err = arith.Lookup("emu64"); err != nil {
					t.Fatal(err)
				}
			}
			sk, pk, err := falcon.Keygen(kb, logn, rng)
			if err != nil {
				t.Fatalf("keygen over %s: %v", kb.Name, err)
			}
			msg := []byte("cross")
			sig, err := falcon.Sign(b, sk, msg, falcon.Compressed, rng)
			if err != nil {
				t.Fatalf("sign: %v", err)
			}
			if err := falcon.Verify(pk, msg, sig); err != nil {
				t.Errorf("signature does not verify: %v", err)
			}

			for _, sh := range []struct {
				kind shadow.Kind
				bits int
			}{{shadow.ShadowOracle, 512}, {shadow.ShadowDD, 106}} {
				if b.Bits >= sh.bits {
					continue // the exact side would not be wider
				}
				recs, err := shadow.Run(context.Background(), b, shadow.Config{
					LogN: logn, Signatures: 1, Keys: 1, Seed: "cross", OracleBits: uint(sh.bits),
					Sigma: shadow.SigmaFormula, Shadow: sh.kind, Workers: 1,
				})
				if err != nil {
					t.Errorf("shadow %s: %v", sh.kind, err)
				} else if len(recs) == 0 {
					t.Errorf("shadow %s: no records", sh.kind)
				}
			}

			for _, op := range arith.OpNames {
				if _, err := analysis.MeasureOpError(b, op, analysis.OpErrorConfig{N: 16, Seed: 1, Workers: 1}); err != nil {
					t.Errorf("arith errors %s: %v", op, err)
				}
			}
			if _, err := analysis.MeasureExpmCurve(b, 4, nil); err != nil {
				t.Errorf("expm curve: %v", err)
			}
			if _, err := accel.KATSamplerRecord(name, 9, 1); err != nil {
				t.Errorf("sampler record: %v", err)
			}
		})
	}

	// The command line: compare --out over every registered backend (the
	// families' members sign too slowly at degree 512 with shadowed key
	// generation), then report and the plots.
	if testing.Short() {
		t.Skip("compare at degree 512 in -short mode")
	}
	var registered []string
	for _, b := range arith.List() {
		registered = append(registered, b.Name)
	}
	dir := t.TempDir()
	campaign := filepath.Join(dir, "campaign")
	backends := strings.Join(registered, ",")
	if code, _, errOut := runCLI(t, "compare", "--backend", backends, "--shadow", "oracle", "--oracle-bits", "512",
		"--params", "512", "--signatures", "1", "--workers", "2", "--out", campaign); code != 0 {
		t.Fatalf("compare --backend %s: exit %d: %s", backends, code, errOut)
	}
	if code, _, errOut := runCLI(t, "report", "--in", campaign, "--out", filepath.Join(dir, "r.html")); code != 0 {
		t.Fatalf("report: exit %d: %s", code, errOut)
	}
	code, out, errOut := runCLI(t, "arith", "errors", "--backend", "all", "--n", "16", "--json")
	if code != 0 {
		t.Fatalf("arith errors --backend all: exit %d: %s", code, errOut)
	}
	var rows []json.RawMessage
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) != len(registered)*len(arith.OpNames) {
		t.Errorf("arith errors --backend all: %d rows for %d backends, %v", len(rows), len(registered), err)
	}
	// The kinds a compare campaign supports draw; the others refuse with
	// a message naming what is missing.
	supported := map[plot.Kind]bool{plot.KindHistogram: true, plot.KindStages: true, plot.KindExpm: true}
	for _, k := range plot.Kinds {
		path := filepath.Join(dir, string(k.Kind)+".svg")
		code, _, errOut := runCLI(t, "plot", string(k.Kind), "--in", campaign, "--out", path, "--points", "8")
		if !supported[k.Kind] {
			if code != cli.ExitUsage || errOut == "" {
				t.Errorf("plot %s of a compare campaign: exit %d, stderr %q", k.Kind, code, errOut)
			}
			continue
		}
		if code != 0 {
			t.Errorf("plot %s: exit %d: %s", k.Kind, code, errOut)
			continue
		}
		svg, err := os.ReadFile(path)
		if err != nil || !strings.HasPrefix(string(svg), "<?xml") {
			t.Errorf("plot %s: %v, %.20q", k.Kind, err, svg)
		}
		for _, name := range registered {
			if k.Kind != plot.KindStages && !strings.Contains(string(svg), name) {
				t.Errorf("plot %s does not name backend %s", k.Kind, name)
			}
		}
	}
}
