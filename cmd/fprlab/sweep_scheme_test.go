package main

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// jsonObjects decodes a JSON array of objects (compare --json) or the
// "formats" of a sweep document.
func jsonObjects(t *testing.T, text string, sweep bool) []map[string]any {
	t.Helper()
	if sweep {
		var doc struct {
			Formats []map[string]any `json:"formats"`
		}
		if err := json.Unmarshal([]byte(text), &doc); err != nil {
			t.Fatalf("sweep --json: %v\n%s", err, text)
		}
		return doc.Formats
	}
	var objs []map[string]any
	if err := json.Unmarshal([]byte(text), &objs); err != nil {
		t.Fatalf("compare --json: %v\n%s", err, text)
	}
	return objs
}

// signingFields are the statistics of a campaign's signatures (not of its
// key generation, nor its time).
var signingFields = []string{"scheme", "params", "signatures", "keys", "seed", "shadow", "exact_sigma", "leaves", "sampler_calls",
	"per_leaf", "per_tree_leaf", "per_signature", "meets_2^-46", "renyi", "flips", "stages", "expm_p63_rel", "acceptance_rel", "attempts"}

// TestSweepFNDSA: sweep --scheme fn-dsa measures FN-DSA signing. Each
// of its points is compare --scheme fn-dsa over that backend with the same
// seed, field for field but the time (both sign with FN-DSA's keys, which
// no backend generates); with --key-source falcon, its vprec:56 point has
// the signing statistics of compare --scheme fn-dsa --key-source falcon
// --backend vprec:56, which generates its round-3 keys on vprec:56 -- the
// same key as the sweep's emu64 one for this seed (otherwise no signing
// statistic could agree). A round-3 sweep of the same flags measures other
// signatures, and its directory is refused to an FN-DSA sweep.
func TestSweepFNDSA(t *testing.T) {
	common := []string{"--params", "512", "--signatures", "2", "--seed", "sweep-fndsa", "--json"}
	dir := filepath.Join(t.TempDir(), "sw")
	code, out, errs := runCLI(t, append([]string{"sweep", "--scheme", "fn-dsa", "--format", "vprec:56", "--reference", "triword", "--out", dir}, common...)...)
	if code != 0 {
		t.Fatalf("sweep --scheme fn-dsa: exit %d: %s", code, errs)
	}
	points := jsonObjects(t, out, true)
	if len(points) != 2 || points[0]["format"] != "triword" || points[1]["format"] != "vprec:56" {
		t.Fatalf("sweep points: %v", points)
	}
	for _, p := range points {
		if p["scheme"] != "fn-dsa" || p["kat"] != nil {
			t.Fatalf("%v: scheme %v, kat %v; want fn-dsa and no round-3 KAT column", p["format"], p["scheme"], p["kat"])
		}
	}
	for i, b := range []string{"triword", "vprec:56"} {
		code, cout, errs := runCLI(t, append([]string{"compare", "--scheme", "fn-dsa", "--backend", b}, common...)...)
		if code != 0 {
			t.Fatalf("compare %s: exit %d: %s", b, code, errs)
		}
		c := jsonObjects(t, cout, false)[0]
		p := points[i]
		// The whole summary but the time and the sweep's own fields.
		for _, k := range []string{"format", "rounding", "kat", "seconds"} {
			delete(p, k)
		}
		delete(c, "seconds")
		if !reflect.DeepEqual(p, c) || p["key_source"] != "fn-dsa" {
			t.Errorf("%s: sweep point and compare summary differ, or not FN-DSA keys:\nsweep   %v\ncompare %v", b, p, c)
		}
	}
	// Round-3 keys: the sweep's are emu64's, compare's vprec:56's.
	code, out, errs = runCLI(t, append([]string{"sweep", "--scheme", "fn-dsa", "--key-source", "falcon", "--format", "vprec:56", "--reference", ""}, common...)...)
	if code != 0 {
		t.Fatalf("sweep --key-source falcon: exit %d: %s", code, errs)
	}
	p := jsonObjects(t, out, true)[0]
	code, cout, errs := runCLI(t, append([]string{"compare", "--scheme", "fn-dsa", "--key-source", "falcon", "--backend", "vprec:56"}, common...)...)
	if code != 0 {
		t.Fatalf("compare --key-source falcon: exit %d: %s", code, errs)
	}
	c := jsonObjects(t, cout, false)[0]
	if c["keygen_backend"] != "vprec:56" || p["keygen_backend"] != "emu64" {
		t.Fatalf("keygen backends %v (compare), %v (sweep)", c["keygen_backend"], p["keygen_backend"])
	}
	for _, k := range append(signingFields, "key_source") {
		if !reflect.DeepEqual(p[k], c[k]) {
			t.Errorf("vprec:56 %s: sweep %v, compare %v", k, p[k], c[k])
		}
	}
	if reflect.DeepEqual(p["per_leaf"], points[1]["per_leaf"]) {
		t.Errorf("vprec:56: the same per-call statistics with round-3 and FN-DSA keys")
	}
	// Round 3 over the same inputs: other signatures, other statistics.
	code, out, errs = runCLI(t, append([]string{"sweep", "--format", "vprec:56", "--reference", "triword", "--kat", "0", "--exact-sigma", "reference"}, common...)...)
	if code != 0 {
		t.Fatalf("round-3 sweep: exit %d: %s", code, errs)
	}
	r3 := jsonObjects(t, out, true)
	if r3[1]["scheme"] != nil || reflect.DeepEqual(r3[1]["per_leaf"], points[1]["per_leaf"]) {
		t.Errorf("round-3 sweep: scheme %v, per_leaf %v equal to FN-DSA's", r3[1]["scheme"], r3[1]["per_leaf"])
	}
	// The text output names the scheme, in its header and its P*.
	code, out, errs = runCLI(t, "sweep", "--scheme", "fn-dsa", "--format", "vprec:56", "--reference", "", "--params", "512", "--signatures", "1")
	if code != 0 || !strings.Contains(out, "FN-DSA-512 (FN-DSA keys) precision sweep") || !strings.Contains(out, "P* (FN-DSA-512 rn,") || strings.Contains(out, "Falcon") {
		t.Errorf("sweep --scheme fn-dsa text: exit %d %q %q", code, out, errs)
	}
	// A title that does not end in the degree (the 2026 draft's).
	code, out, errs = runCLI(t, "sweep", "--scheme", "fn-dsa-2026", "--format", "vprec:56", "--reference", "", "--kat", "0", "--params", "512", "--signatures", "1")
	if code != 0 || !strings.Contains(out, "P* (FN-DSA-512 (2026 draft) rn,") {
		t.Errorf("sweep --scheme fn-dsa-2026 text: exit %d %q %q", code, out, errs)
	}
	// The scheme is in the sweep's identity, both ways.
	r3dir := filepath.Join(t.TempDir(), "r3")
	if code, _, errs := runCLI(t, "sweep", "--format", "vprec:56", "--reference", "", "--kat", "0", "--params", "512", "--signatures", "1", "--exact-sigma", "reference", "--out", r3dir); code != 0 {
		t.Fatalf("round-3 sweep --out: exit %d: %s", code, errs)
	}
	for _, tc := range []struct{ dir, scheme string }{{r3dir, "fn-dsa"}, {dir, "falcon"}} {
		args := []string{"sweep", "--scheme", tc.scheme, "--format", "vprec:56", "--params", "512", "--signatures", "1", "--kat", "0", "--exact-sigma", "reference", "--out", tc.dir}
		if tc.dir == dir {
			args = append([]string{"sweep", "--scheme", tc.scheme, "--format", "vprec:56", "--reference", "triword", "--kat", "0", "--exact-sigma", "reference", "--out", dir}, common[:len(common)-1]...)
		} else {
			args = append(args, "--reference", "")
		}
		code, _, errs := runCLI(t, args...)
		if code != 2 || !strings.Contains(errs, "another run") || !strings.Contains(errs, "scheme") {
			t.Errorf("sweep --scheme %s into the other scheme's directory: exit %d, stderr %q; want exit 2 naming the scheme", tc.scheme, code, errs)
		}
	}
}

// TestSweepFNDSABadFlags: what an FN-DSA sweep cannot do is refused, and
// tune refuses an unknown scheme (tune --scheme fn-dsa: TestTuneFNDSA).
func TestSweepFNDSABadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--scheme", "fn-dsa", "--format", "vprec:40", "--params", "512", "--signatures", "1", "--kat", "1"}, "round 3's"},
		{[]string{"sweep", "--scheme", "fn-dsa", "--format", "vprec:40", "--params", "512", "--kat-records", "0:1"}, "KAT"},
		{[]string{"sweep", "--scheme", "fn-dsa", "--format", "vprec:40", "--params", "512", "--signatures", "1", "--exact-sigma", "formula"}, "not supported"},
		{[]string{"sweep", "--scheme", "mldsa", "--format", "vprec:40", "--params", "512", "--signatures", "1"}, "--scheme"},
		{[]string{"tune", "--scheme", "mldsa", "--params", "512", "--signatures", "1"}, "--scheme"},
	} {
		code, _, errs := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 mentioning %q", tc.args, code, errs, tc.want)
		}
	}
}

// TestSweepFNDSAMerge: the shards of an FN-DSA sweep merge into the
// FN-DSA sweep, and a round-3 shard of the same flags does not join them.
func TestSweepFNDSAMerge(t *testing.T) {
	tmp := t.TempDir()
	shard := func(scheme, i, dir string) {
		t.Helper()
		code, _, errs := runCLI(t, "sweep", "--scheme", scheme, "--format", "vprec:56,vprec:60", "--reference", "", "--kat", "0", "--exact-sigma", "reference",
			"--params", "512", "--signatures", "1", "--shard", i+"/2", "--out", dir)
		if code != 0 {
			t.Fatalf("sweep --scheme %s --shard %s/2: exit %d: %s", scheme, i, code, errs)
		}
	}
	a, b, r3 := filepath.Join(tmp, "a"), filepath.Join(tmp, "b"), filepath.Join(tmp, "r3")
	shard("fn-dsa", "0", a)
	shard("fn-dsa", "1", b)
	shard("falcon", "1", r3)
	code, out, errs := runCLI(t, "merge", a, b, "--out", filepath.Join(tmp, "m"), "--json")
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errs)
	}
	points := jsonObjects(t, out, true)
	if len(points) != 2 || points[0]["scheme"] != "fn-dsa" || points[1]["scheme"] != "fn-dsa" {
		t.Fatalf("merged points: %v", points)
	}
	if code, _, errs := runCLI(t, "merge", a, r3, "--out", filepath.Join(tmp, "m2")); code != 2 || !strings.Contains(errs, "scheme") {
		t.Errorf("merge of an FN-DSA and a round-3 shard: exit %d, stderr %q", code, errs)
	}
}
