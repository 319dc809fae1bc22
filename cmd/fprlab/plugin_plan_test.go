//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/plugintest"
)

// TestPluginPlanCommands: a plan with a stage in the truncating plugin
// (examples/trunc.c at 40 bits, which computes vprec:40:e11:rz) works in
// the commands that take plans and gives the results of the plan with
// that stage in vprec:40:e11:rz: compare (the same statistics, in one
// invocation, the plan's entries separated by '+' and by ','), sign (the
// same signature bytes), arith errors (the same per-operation errors) and
// sweep --reference (the same statistics); a plan with only its sampler
// in the double plugin reproduces the NIST KAT records; a bad plugin
// stage ends the command with status 2 and the problem named.
func TestPluginPlanCommands(t *testing.T) {
	trunc := "so:" + plugintest.Build(t, "../../examples/trunc.c") + "@40"
	double := "so:" + plugintest.Build(t, "../../examples/double.c")
	withPlugin := "plan:ldl=" + trunc + "+sampler=" + trunc + "+all=vprec:53:e11"
	withVPrec := "plan:ldl=vprec:40:e11:rz,sampler=vprec:40:e11:rz,all=vprec:53:e11"
	// compare: the two summaries differ only in their names and times.
	code, out, stderr := runCLI(t, "compare", "--backend", withPlugin+","+withVPrec, "--params", "512", "--signatures", "3", "--json")
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	var sums []map[string]any
	if err := json.Unmarshal([]byte(out), &sums); err != nil || len(sums) != 2 {
		t.Fatalf("compare --json: %v (%d summaries)", err, len(sums))
	}
	if sums[0]["backend"] != withPlugin {
		t.Errorf("compare: backend %v, want %s", sums[0]["backend"], withPlugin)
	}
	for _, s := range sums {
		for _, k := range []string{"backend", "seconds"} {
			delete(s, k)
		}
	}
	a, _ := json.Marshal(sums[0])
	b, _ := json.Marshal(sums[1])
	if !bytes.Equal(a, b) {
		t.Errorf("compare: the plugin plan's statistics differ from the vprec plan's\n got %.400s\nwant %.400s", a, b)
	}
	// sign: the same bytes, with a key from emu64.
	dir := t.TempDir()
	msg, sk := filepath.Join(dir, "msg"), filepath.Join(dir, "key.sk")
	if err := os.WriteFile(msg, []byte("plugin plan"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "keygen", "--backend", "emu64", "--params", "512", "--seed", "0011", "--sk", sk, "--pk", sk+".pub"); code != 0 {
		t.Fatalf("keygen: exit %d\n%s", code, stderr)
	}
	var sigs [2][]byte
	for i, bk := range []string{withPlugin, withVPrec} {
		sig := filepath.Join(dir, strconv.Itoa(i)+".sig")
		if code, _, stderr := runCLI(t, "sign", "--backend", bk, "--sk", sk, "--msg", msg, "--seed", "45", "--out", sig); code != 0 {
			t.Fatalf("sign --backend %s: exit %d\n%s", bk, code, stderr)
		}
		var err error
		if sigs[i], err = os.ReadFile(sig); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(sigs[0], sigs[1]) {
		t.Error("sign: the plugin plan's signature differs from the vprec plan's")
	}
	// arith errors: operations run in the plan's fft stage, the plugin's here.
	var errs [2]string
	for i, bk := range []string{"plan:fft=" + trunc + "+all=binary64", "plan:fft=vprec:40:e11:rz+all=binary64"} {
		code, out, stderr := runCLI(t, "arith", "errors", "--backend", bk, "--n", "2000", "--json")
		if code != 0 {
			t.Fatalf("arith errors --backend %s: exit %d\n%s", bk, code, stderr)
		}
		errs[i] = strings.ReplaceAll(out, strconv.Quote(strings.Replace(bk, "binary64", "vprec:53:e11", 1)), `"B"`)
	}
	if errs[0] != errs[1] || !strings.Contains(errs[0], `"B"`) {
		t.Errorf("arith errors: the plugin plan's differ from the vprec plan's\n got %.400s\nwant %.400s", errs[0], errs[1])
	}
	// sweep --reference: the plugin plan beside a format, as the vprec plan.
	var sweeps [2]string
	for i, ref := range []string{withPlugin, withVPrec} {
		code, out, stderr := runCLI(t, "sweep", "--format", "vprec:40:e11", "--reference", ref, "--params", "512",
			"--signatures", "2", "--json")
		if code != 0 {
			t.Fatalf("sweep --reference %s: exit %d\n%s", ref, code, stderr)
		}
		var doc struct {
			Formats []map[string]any `json:"formats"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Formats) != 2 {
			t.Fatalf("sweep --json: %v (%d formats)", err, len(doc.Formats))
		}
		for _, e := range doc.Formats {
			for _, k := range []string{"backend", "format", "seconds"} {
				delete(e, k)
			}
			if kat, ok := e["kat"].(map[string]any); ok {
				delete(kat, "keygen_backend")
			}
		}
		j, _ := json.Marshal(doc.Formats)
		sweeps[i] = string(j)
	}
	if sweeps[0] != sweeps[1] {
		t.Errorf("sweep: the plugin plan as reference differs from the vprec plan\n got %.400s\nwant %.400s", sweeps[0], sweeps[1])
	}
	// kat: binary64 with the sampler in the double plugin, keys too.
	code, out, stderr = runCLI(t, "kat", "--backend", "plan:sampler="+double+"+all=binary64", "--params", "512", "--records", "2", "--json")
	if code != 0 || !strings.Contains(out, `"match_sm": 2`) {
		t.Errorf("kat: exit %d\n%s\n%s", code, out, stderr)
	}
	// A refused stage: status 2, the problem named.
	code, _, stderr = runCLI(t, "compare", "--backend", "plan:ldl="+trunc+"+x.so+all=vprec:53", "--params", "512", "--signatures", "1")
	if code != 2 || !strings.Contains(stderr, "%2B") {
		t.Errorf("a path cut at '+': exit %d\n%s", code, stderr)
	}
}
