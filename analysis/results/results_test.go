package results

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadCampaign reads the hand-written example campaign: one compare
// document of three backends, one sweep of 13 points, the manifest, and a
// JSON file that is neither, which is skipped with a reason.
func TestReadCampaign(t *testing.T) {
	c, err := Read("testdata/campaign")
	if err != nil {
		t.Fatal(err)
	}
	if c.Manifest == nil || len(c.Manifest.Runs) != 2 {
		t.Fatalf("manifest %+v", c.Manifest)
	}
	if len(c.Compares) != 1 || len(c.Compares[0].Backends) != 3 {
		t.Fatalf("compares %+v", c.Compares)
	}
	if len(c.Sweeps) != 1 || len(c.Sweeps[0].Points) != 13 {
		t.Fatalf("sweeps %d", len(c.Sweeps))
	}
	if len(c.Skipped) != 1 || c.Skipped[0].File != "notes.json" {
		t.Fatalf("skipped %+v", c.Skipped)
	}
	n := c.Compares[0].Backends[0]
	if n.Backend != "native" || n.Params != 512 || n.Leaves != 51200 || float64(n.PerLeaf.Sum.Max) != -40.1 || len(n.PerLeaf.Sum.Histogram) != 15 {
		t.Errorf("native: %+v", n)
	}
	if tot, ok := n.FlipsTotal(); !ok || tot != 3 {
		t.Errorf("native flips %d %v", tot, ok)
	}
	// emu64's document leaves out delta_c: not measured, not 2^0.
	if e := c.Compares[0].Backends[1]; !math.IsNaN(float64(e.PerLeaf.DeltaC.Max)) {
		t.Errorf("absent delta_c reads as %v, want NaN", e.PerLeaf.DeltaC.Max)
	}
	// Without "total", the per-kind counts add up.
	e := Compare{Flips: json.RawMessage(`{"sampler_z": 2, "rint": 1, "min_margin_log2": -30.5}`)}
	if tot, ok := e.FlipsTotal(); !ok || tot != 3 {
		t.Errorf("flips by kind: %d %v, want 3", tot, ok)
	}
	if got := DescribeSamples(c.AllCompares()); got != "100 signatures, 51,200 leaves" {
		t.Errorf("DescribeSamples = %q", got)
	}
}

// TestPStars checks P* on the example sweep, whose errors were written as
// worst = -(P-13) and median = -(P-6) (rz 1.6 bits worse) for P = 24..64
// step 8, flips reaching zero at 56 (rn) and 64 (rz): worked out by hand,
// the least precision with worst <= -46 is 64 for both roundings, with
// median <= -46 it is 56, and without flips 56 (rn) and 64 (rz).
func TestPStars(t *testing.T) {
	c, err := Read("testdata/campaign/sweep-512.json")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"Falcon-512 rn e11 worst": "64 bits", "Falcon-512 rn e11 median": "56 bits", "Falcon-512 rn e11 flips": "56 bits",
		"Falcon-512 rz e11 worst": "64 bits", "Falcon-512 rz e11 median": "56 bits", "Falcon-512 rz e11 flips": "64 bits",
	}
	got := PStars(c.AllPoints())
	if len(got) != len(want) {
		t.Fatalf("%d answers, want %d: %+v", len(got), len(want), got)
	}
	for _, p := range got {
		k := p.Curve.String() + " " + string(p.Criterion)
		if want[k] != p.String() {
			t.Errorf("%s: P* %q, want %q", k, p.String(), want[k])
		}
		if p.Signatures != 100 {
			t.Errorf("%s: %d signatures", k, p.Signatures)
		}
	}
}

// TestPStarEdges: a criterion that holds at the lowest precision is an
// upper bound, one that fails at the largest has no answer, a lucky point
// below a failing one does not count, and missing flips are unknown.
func TestPStarEdges(t *testing.T) {
	pt := func(bits int, worst float64) Point {
		p := Point{Format: "vprec:" + itoa(bits) + ":e11", Bits: bits}
		p.Params = 512
		p.PerSignature.Sum.Max = Log2(worst)
		p.PerLeaf.Sum.Median = Log2(worst)
		return p
	}
	cases := []struct {
		pts  []Point
		want string
	}{
		{[]Point{pt(30, -50), pt(40, -60)}, "≤ 30 bits"},
		{[]Point{pt(30, -20), pt(40, -40)}, "none up to 40 bits"},
		{[]Point{pt(30, -47), pt(40, -40), pt(50, -50)}, "50 bits"},
	}
	for i, c := range cases {
		got := PStars(c.pts)
		if got[0].String() != c.want {
			t.Errorf("case %d: worst P* %q, want %q", i, got[0].String(), c.want)
		}
		if got[2].Criterion != NoFlips || got[2].String() != "not in the data" {
			t.Errorf("case %d: flips P* %q, want unknown", i, got[2].String())
		}
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// TestLog2Values reads numbers, null and the infinities.
func TestLog2Values(t *testing.T) {
	var q Quantiles
	if err := json.Unmarshal([]byte(`{"min_log2": "-Inf", "max_log2": -3.5, "median_log2": null}`), &q); err != nil {
		t.Fatal(err)
	}
	// null is compare's log2 of an exact zero; an absent field is NaN.
	if !math.IsInf(float64(q.Min), -1) || q.Max != -3.5 || !math.IsInf(float64(q.Median), -1) || !math.IsNaN(float64(q.Q99)) {
		t.Errorf("%+v", q)
	}
	if err := json.Unmarshal([]byte(`{"min_log2": "tiny"}`), &q); err == nil || !strings.Contains(err.Error(), "tiny") {
		t.Errorf("bad log2 accepted: %v", err)
	}
}

// TestMalformed: a document with the shape of a sweep but no bits, or
// a compare without a backend, is an error naming the file and entry.
func TestMalformed(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"sweep.json":   `[{"format": "vprec:24:e11"}]`,
		"compare.json": `[{"backend": "", "per_leaf": {}}]`,
	} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), "entry 0") {
			t.Errorf("%s: error %v", name, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

// TestPrecisionPoints: compare objects over vprec formats become points
// of their precision; fixed backends do not; a format already in a sweep
// is not repeated.
func TestPrecisionPoints(t *testing.T) {
	dir := t.TempDir()
	doc := `[{"backend": "vprec:40:e11", "params": 512, "signatures": 5, "per_leaf": {}, "per_signature": {"sum": {"max_log2": -30}}},
	         {"backend": "vprec:48:e11:rz", "params": 512, "signatures": 5, "per_leaf": {}},
	         {"backend": "vprec:64:e11", "params": 512, "signatures": 5, "per_leaf": {}},
	         {"backend": "native", "params": 512, "signatures": 5, "per_leaf": {}}]`
	sweep := `[{"format": "vprec:64:e11", "bits": 64, "params": 512, "signatures": 9}]`
	for name, body := range map[string]string{"c.json": doc, "s.json": sweep} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	pts := c.PrecisionPoints()
	got := map[string]int{}
	for _, p := range pts {
		got[p.Format] = p.Bits
	}
	want := map[string]int{"vprec:64:e11": 64, "vprec:40:e11": 40, "vprec:48:e11:rz": 48}
	if len(pts) != 3 || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("points %v, want %v", got, want)
	}
	if pts[0].Signatures != 9 {
		t.Errorf("the sweep's vprec:64:e11 was replaced by the compare object")
	}
	keys, m := Curves(pts)
	if len(keys) != 2 || len(m[Curve{512, "rn", 11}]) != 2 {
		t.Errorf("curves %v", keys)
	}
	for _, n := range []string{"vprec:24", "oracle:300", "vprec:53:e11:sr=1"} {
		if !IsFamilyName(n) {
			t.Errorf("%s is a family member", n)
		}
	}
	for _, n := range []string{"native", "vprec", "vprec:x", "triword-fullconst"} {
		if IsFamilyName(n) {
			t.Errorf("%s is not a family member", n)
		}
	}
}

// TestOutOfRange: documents whose numbers no measurement gives (the
// crafted histogram that made the figures spin, huge log2 values,
// negative counts, impossible KAT counts, a tune plan of width 0) are
// refused when read, with the field named.
func TestOutOfRange(t *testing.T) {
	dir := t.TempDir()
	for i, c := range []struct{ body, want string }{
		{`[{"backend":"b","per_leaf":{"sum":{"histogram":[{"log2":1e308,"count":1},{"log2":-1e308,"count":1}]}}}]`, "per_leaf.sum.histogram[0].log2"},
		{`[{"backend":"b","per_leaf":{"sum":{"histogram":[{"log2":-3.5,"count":1}]}}}]`, "want an integer"},
		{`[{"backend":"b","per_leaf":{"sum":{"histogram":[{"log2":-3,"count":-1}]}}}]`, "negative"},
		{`[{"backend":"b","per_leaf":{"sum":{"histogram":[{"log2":-3,"count":9223372036854775807},{"log2":-2,"count":1}]}}}]`, "overflow"},
		{`[{"backend":"b","per_leaf":{"delta_c":{"max_log2":-1e300}}}]`, "per_leaf.delta_c.max_log2"},
		{`[{"backend":"b","per_leaf":{},"renyi":{"max_queries_log2":1e9}}]`, "renyi.max_queries_log2"},
		{`[{"backend":"b","per_leaf":{},"stages":[{"stage":"s","level":100000}]}]`, "stages[0].level"},
		{`[{"backend":"b","per_leaf":{},"signatures":-1}]`, "signatures -1"},
		{`[{"backend":"b","per_leaf":{},"attempts":{"total":1,"failed":2}}]`, "attempts"},
		{`[{"backend":"b","per_leaf":{},"seconds":-1}]`, "seconds"},
		{`[{"format":"vprec:9","bits":1000000}]`, "bits 1000000"},
		{`[{"format":"vprec:9","bits":9,"kat":{"records":2,"match_pk":3}}]`, "kat.match_pk"},
		{`[{"backend":"b","op":"add","max_rel_err_log2":-1e9}]`, "max_rel_err_log2"},
		{`[{"backend":"b","op":"add","max_rel_err_log2":-50,"bound_log2":1e99}]`, "bound_log2"},
		{`{"pareto":[],"chosen":{"widths":[0]},"stages":["fft"]}`, "width 0"},
		{`{"pareto":[],"chosen":{"widths":[53],"cost":-1},"stages":["fft"]}`, "cost"},
	} {
		p := filepath.Join(dir, fmt.Sprintf("doc%d.json", i))
		if err := os.WriteFile(p, []byte(c.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %q", c.body, err, c.want)
		}
	}
	// The extremes of what is valid read.
	p := filepath.Join(dir, "ok.json")
	body := `[{"backend":"b","per_leaf":{"sum":{"max_log2":-4100,"histogram":[{"log2":-4100,"count":3}]}},"renyi":{"max_queries_log2":"Inf"}}]`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(p); err != nil {
		t.Errorf("valid extremes refused: %v", err)
	}
}
