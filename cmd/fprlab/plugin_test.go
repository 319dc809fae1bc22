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

// summaryWithoutTimes re-encodes compare --json output without its seconds.
func summaryWithoutTimes(t *testing.T, out string) string {
	t.Helper()
	var sums []map[string]any
	if err := json.Unmarshal([]byte(out), &sums); err != nil {
		t.Fatalf("%v\n%.500s", err, out)
	}
	for _, s := range sums {
		delete(s, "seconds")
	}
	b, err := json.Marshal(sums)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestPluginCommands: the C double plugin (examples/double.c) named
// so:PATH works in every command that takes a backend and gives native's
// results there: compare (identical statistics, the acceptance command
// of the plugin ABI at fewer signatures), kat (the published records),
// keygen and sign (the same bytes), and arith errors (the same
// per-operation errors); and the truncating plugin as a sweep's
// --reference gives its vprec twin's statistics.
func TestPluginCommands(t *testing.T) {
	so := "so:" + plugintest.Build(t, "../../examples/double.c")
	// compare: the two summaries differ only in their backend names and times.
	code, out, stderr := runCLI(t, "compare", "--backend", so+",native", "--params", "512", "--signatures", "6", "--json")
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	var sums []map[string]any
	if err := json.Unmarshal([]byte(out), &sums); err != nil || len(sums) != 2 {
		t.Fatalf("compare --json: %v (%d summaries)", err, len(sums))
	}
	for _, s := range sums {
		for _, k := range []string{"backend", "keygen_backend", "seconds"} {
			delete(s, k)
		}
	}
	a, _ := json.Marshal(sums[0])
	b, _ := json.Marshal(sums[1])
	if !bytes.Equal(a, b) {
		t.Errorf("compare: the plugin's statistics differ from native's\n got %.400s\nwant %.400s", a, b)
	}
	// kat: key generation and signing over the plugin match the published file.
	code, out, stderr = runCLI(t, "kat", "--backend", so, "--params", "512", "--records", "2", "--json")
	if code != 0 || !strings.Contains(out, `"match_sm": 2`) {
		t.Errorf("kat: exit %d\n%s\n%s", code, out, stderr)
	}
	// keygen and sign: the same key and signature bytes as native's.
	dir := t.TempDir()
	msg := filepath.Join(dir, "msg")
	if err := os.WriteFile(msg, []byte("plugin"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, bk := range []string{so, "native"} {
		name := strings.ReplaceAll(filepath.Base(bk), ":", "_")
		sk, sig := filepath.Join(dir, name+".sk"), filepath.Join(dir, name+".sig")
		if code, _, stderr := runCLI(t, "keygen", "--backend", bk, "--params", "512", "--seed", "00112233", "--sk", sk, "--pk", sk+".pub"); code != 0 {
			t.Fatalf("keygen --backend %s: exit %d\n%s", bk, code, stderr)
		}
		if code, _, stderr := runCLI(t, "sign", "--backend", bk, "--sk", sk, "--msg", msg, "--seed", "44", "--out", sig); code != 0 {
			t.Fatalf("sign --backend %s: exit %d\n%s", bk, code, stderr)
		}
		for _, f := range []string{sk, sig} {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			files[bk+filepath.Ext(f)] = data
		}
	}
	for _, ext := range []string{".sk", ".sig"} {
		if !bytes.Equal(files[so+ext], files["native"+ext]) {
			t.Errorf("keygen/sign: the plugin's %s differs from native's", ext)
		}
	}
	// arith errors: the same errors of every operation.
	var errs [2]string
	for i, bk := range []string{so, "native"} {
		code, out, stderr := runCLI(t, "arith", "errors", "--backend", bk, "--n", "3000", "--json")
		if code != 0 {
			t.Fatalf("arith errors --backend %s: exit %d\n%s", bk, code, stderr)
		}
		errs[i] = strings.ReplaceAll(out, strconv.Quote(bk), `"B"`)
	}
	if errs[0] != errs[1] {
		t.Errorf("arith errors: the plugin's differ from native's\n got %.400s\nwant %.400s", errs[0], errs[1])
	}
	// sweep --reference: so:trunc@40 beside the format vprec:40:e11:rz.
	trunc := "so:" + plugintest.Build(t, "../../examples/trunc.c") + "@40"
	code, out, stderr = runCLI(t, "sweep", "--format", "vprec:40:e11:rz", "--reference", trunc, "--params", "512",
		"--signatures", "2", "--json")
	if code != 0 {
		t.Fatalf("sweep: exit %d\n%s", code, stderr)
	}
	var doc struct {
		Formats []map[string]any `json:"formats"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Formats) != 2 {
		t.Fatalf("sweep --json: %v (%d formats)", err, len(doc.Formats))
	}
	entries := doc.Formats
	for _, e := range entries {
		for _, k := range []string{"backend", "format", "rounding", "kat", "seconds"} {
			delete(e, k)
		}
	}
	a, _ = json.Marshal(entries[0])
	b, _ = json.Marshal(entries[1])
	if !bytes.Equal(a, b) {
		t.Errorf("sweep: the truncating plugin's statistics differ from vprec:40:e11:rz's\n got %.400s\nwant %.400s", a, b)
	}
}

// TestPluginRebuiltRefused: a campaign directory records the SHA-256 of
// each plugin library its backends load (plain or a plan's stage), so the
// same command after the library was rebuilt or replaced -- another
// arithmetic under the same name -- is refused (exit 2, naming the
// library and both digests) instead of reporting or extending the old
// library's records; with the library unchanged it resumes.
func TestPluginRebuiltRefused(t *testing.T) {
	double := plugintest.Build(t, "../../examples/double.c")
	datapath := plugintest.Build(t, "../../examples/datapath.cpp")
	dir := t.TempDir()
	lib := filepath.Join(dir, "libmine.so")
	install := func(src string) {
		t.Helper()
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		// A new file, as a build writes it: the old one may be mapped
		// into this process, which loaded it.
		if err := os.WriteFile(lib+".new", b, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(lib+".new", lib); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct{ cmd, backend string }{
		{"compare", "so:" + lib},
		{"sweep", "plan:sampler=so:" + lib + "+all=vprec:53:e11"},
	} {
		install(double)
		out := filepath.Join(dir, c.cmd)
		args := []string{c.cmd, "--params", "512", "--signatures", "1", "--out", out}
		if c.cmd == "compare" {
			args = append(args, "--backend", c.backend)
		} else {
			args = append(args, "--format", "vprec:30", "--reference", c.backend)
		}
		for range 2 { // a new directory, then the same library again
			if code, _, errs := runCLI(t, args...); code != 0 {
				t.Fatalf("%s: exit %d: %s", c.cmd, code, errs)
			}
		}
		install(datapath) // another library at the same path
		code, _, errs := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, "so:"+lib+" is another library than the one that made it") ||
			!strings.Contains(errs, "rebuilt or replaced since") {
			t.Fatalf("%s after the library changed: exit %d, stderr %q", c.cmd, code, errs)
		}
	}
}

// TestPluginPathWithComma: a backend list is split at ',', so a plugin
// whose path holds one is cut; the error says so and how to name it, and
// the plan spelling it gives works.
func TestPluginPathWithComma(t *testing.T) {
	src, err := os.ReadFile(plugintest.Build(t, "../../examples/double.c"))
	if err != nil {
		t.Fatal(err)
	}
	lib := filepath.Join(t.TempDir(), "lib,double.so")
	if err := os.WriteFile(lib, src, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range [][]string{
		{"compare", "--backend", "so:" + lib, "--params", "512", "--signatures", "1"},
		{"sweep", "--format", "vprec:30", "--reference", "so:" + lib, "--params", "512", "--signatures", "1"},
	} {
		code, _, errs := runCLI(t, cmd...)
		if code != 2 || !strings.Contains(errs, "no such file") || !strings.Contains(errs, "plan:all=so:PATH, with the ',' written %2C") {
			t.Errorf("%s: exit %d, stderr %q", cmd[0], code, errs)
		}
	}
	escaped := strings.ReplaceAll(lib, ",", "%2C")
	if code, out, errs := runCLI(t, "compare", "--backend", "plan:all=so:"+escaped, "--params", "512", "--signatures", "1"); code != 0 || !strings.Contains(out, "1 signatures") {
		t.Errorf("plan:all=so:%s: exit %d\n%s\n%s", escaped, code, out, errs)
	}
}
