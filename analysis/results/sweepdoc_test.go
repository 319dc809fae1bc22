package results

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// writeDir writes files into a new directory and returns it.
func writeDir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSweepDocumentShapes: the sweep document ({"formats", "pstar"}) and
// the bare array written before it read as the same points; the
// document's P* entries are kept and checked; the files fprlab keeps
// beside its documents (run.json, a checkpoint) are not listed as skipped.
func TestSweepDocumentShapes(t *testing.T) {
	legacy, err := os.ReadFile("testdata/campaign/sweep-512.json")
	if err != nil {
		t.Fatal(err)
	}
	old, err := Read("testdata/campaign/sweep-512.json")
	if err != nil {
		t.Fatal(err)
	}
	if !old.Sweeps[0].Legacy || old.Sweeps[0].PStar != nil {
		t.Errorf("the array document: legacy %v, pstar %v", old.Sweeps[0].Legacy, old.Sweeps[0].PStar)
	}
	var formats []json.RawMessage
	if err := json.Unmarshal(legacy, &formats); err != nil {
		t.Fatal(err)
	}
	// P* of the example sweep as worked out by hand in TestPStars: the rn
	// curve's worst-case answer is 64 bits.
	entry := `{"curve": "Falcon-512 rn e11", "params": 512, "rounding": "rn", "exp_bits": 11, "criterion": "worst", "requirement": "x", "bits": 64, "at_lowest": false, "known": true, "signatures": 100, "min_bits": 24, "max_bits": 64}`
	doc := `{"formats": ` + string(legacy) + `, "pstar": [` + entry + `]}`
	dir := writeDir(t, map[string]string{
		"sweep.json":       doc,
		"run.json":         `{"command": "sweep", "formats": ["vprec:24:e11"]}`,
		"evaluations.json": `{"format": "fprlab checkpoint", "layout": 1, "payload": {}}`,
	})
	c, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sweeps) != 1 || len(c.Skipped) != 0 || !reflect.DeepEqual(c.Own, []string{"evaluations.json", "run.json"}) {
		t.Fatalf("sweeps %d, skipped %v, own %v", len(c.Sweeps), c.Skipped, c.Own)
	}
	s := c.Sweeps[0]
	if s.Legacy || len(s.PStar) != 1 || s.PStar[0].Bits == nil || *s.PStar[0].Bits != 64 {
		t.Errorf("document P*: legacy %v, %+v", s.Legacy, s.PStar)
	}
	if len(s.Points) != len(formats) || !reflect.DeepEqual(PStars(s.Points), PStars(old.Sweeps[0].Points)) {
		t.Errorf("the two shapes read differently: %d points, want %d", len(s.Points), len(formats))
	}
	if _, err := Read(filepath.Join(dir, "run.json")); err == nil || !strings.Contains(err.Error(), "not a document") {
		t.Errorf("run.json alone: %v", err)
	}
	for _, bad := range []struct{ doc, want string }{
		{`{"formats": ` + string(legacy) + `, "pstar": [{"criterion": "fastest"}]}`, "criterion"},
		{`{"formats": ` + string(legacy) + `, "pstar": [{"criterion": "worst", "bits": -3}]}`, "bits -3"},
		{`{"formats": [1, 2]}`, "not a JSON object"},
		{`{"formats": [{"format": "vprec:9", "bits": 0}]}`, "bits"},
	} {
		d := writeDir(t, map[string]string{"s.json": bad.doc})
		if _, err := Read(d); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%.60s: %v, want an error naming %q", bad.doc, err, bad.want)
		}
	}
}

// TestPStarEntries: the document form of P*, references left out, bits
// null where the criterion never holds.
func TestPStarEntries(t *testing.T) {
	pts := []Point{
		{Compare: Compare{Params: 512, Signatures: 5, PerSignature: Errors{Sum: Quantiles{Max: -50}}, PerLeaf: Errors{Sum: Quantiles{Median: -60}}}, Format: "vprec:53", Bits: 53, Rounding: "reference"},
		{Compare: Compare{Params: 512, Signatures: 5, PerSignature: Errors{Sum: Quantiles{Max: -40}}, PerLeaf: Errors{Sum: Quantiles{Median: -50}}, Flips: json.RawMessage(`{"total": 2}`)}, Format: "vprec:40", Bits: 40},
		{Compare: Compare{Params: 512, Signatures: 4, PerSignature: Errors{Sum: Quantiles{Max: -45}}, PerLeaf: Errors{Sum: Quantiles{Median: -55}}, Flips: json.RawMessage(`{"total": 0}`)}, Format: "vprec:48", Bits: 48},
	}
	got := PStarEntries(pts)
	if len(got) != 3 {
		t.Fatalf("%d entries: %+v", len(got), got)
	}
	want := map[Criterion]*int{Worst: nil, Median: ptr(40), NoFlips: ptr(48)}
	for _, e := range got {
		if e.Curve != "Falcon-512 rn" || e.MinBits != 40 || e.MaxBits != 48 || e.Signatures != 4 || !e.Known {
			t.Errorf("%+v", e)
		}
		if w := want[e.Criterion]; (w == nil) != (e.Bits == nil) || (w != nil && *w != *e.Bits) {
			t.Errorf("%s: bits %v, want %v", e.Criterion, e.Bits, w)
		}
		if e.Criterion == Median && !e.AtLowest {
			t.Error("median holds at the lowest precision: at_lowest")
		}
	}
}

func ptr(n int) *int { return &n }

// TestCompareCampaigns sets the example campaign beside itself and beside
// an edited copy, and refuses campaigns that cannot be compared.
func TestCompareCampaigns(t *testing.T) {
	a, err := Read("testdata/campaign")
	if err != nil {
		t.Fatal(err)
	}
	d, err := CompareCampaigns(a, a)
	if err != nil {
		t.Fatal(err)
	}
	// 3 compare backends and the sweep's 12 formats (its reference,
	// native, is the compare document's native and counts once).
	if len(d.Pairs) != 15 {
		t.Fatalf("%d pairs", len(d.Pairs))
	}
	for _, p := range d.Pairs {
		if p.Verdict != VerdictUnchanged || p.Worse() || float64(p.Stats[0].ChangeBits) != 0 {
			t.Errorf("%s against itself: %s, change %v", p.A, p.Verdict, p.Stats[0].ChangeBits)
		}
	}
	// The sweep's two curves, three criteria each, unchanged.
	if len(d.PStar) != 6 {
		t.Errorf("%d P* entries, want 6", len(d.PStar))
	}
	for _, p := range d.PStar {
		if a, b, ch := p.Cells("-"); p.ChangeBits == nil || *p.ChangeBits != 0 || a != b || ch != "+0" {
			t.Errorf("P* %s %s against itself: %s, %s, %s", p.Curve, p.Criterion, a, b, ch)
		}
	}
	// triword worse by 14 bits (from -59.7 to -45.7 is still within; to
	// -44.7 fails) and with flips; native better.
	compare, err := os.ReadFile("testdata/campaign/compare-512.json")
	if err != nil {
		t.Fatal(err)
	}
	var objs []map[string]any
	if err := json.Unmarshal(compare, &objs); err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		switch o["backend"] {
		case "triword":
			o["per_signature"].(map[string]any)["sum"].(map[string]any)["max_log2"] = -44.7
			o["meets_2^-46"] = false
			o["flips"] = map[string]any{"total": 7}
		case "native":
			o["per_signature"].(map[string]any)["sum"].(map[string]any)["max_log2"] = -47.1
			o["meets_2^-46"] = true
			o["flips"] = map[string]any{"total": 0}
		}
	}
	edited, _ := json.Marshal(objs)
	b, err := Read(writeDir(t, map[string]string{"compare-512.json": string(edited)}))
	if err != nil {
		t.Fatal(err)
	}
	onlyCompare := &Campaign{Dir: a.Dir, Compares: a.Compares}
	d, err = CompareCampaigns(onlyCompare, b)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]DiffPair{}
	for _, p := range d.Pairs {
		got[p.A] = p
	}
	if p := got["triword"]; p.Verdict != VerdictNowFails || p.Flips != "appeared" || !p.Worse() || !near(float64(p.Stats[0].ChangeBits), 15.0) {
		t.Errorf("triword: %s, flips %s, change %v", p.Verdict, p.Flips, p.Stats[0].ChangeBits)
	}
	if p := got["native"]; p.Verdict != VerdictNowMeets || p.Flips != "vanished" || p.Worse() || !near(float64(p.Stats[0].ChangeBits), -7.0) {
		t.Errorf("native: %s, flips %s, change %v", p.Verdict, p.Flips, p.Stats[0].ChangeBits)
	}
	if p := got["emu64"]; p.Verdict != VerdictUnchanged || p.Flips != "both" {
		t.Errorf("emu64: %s, flips %s", p.Verdict, p.Flips)
	}
	if !strings.Contains(got["triword"].Summary(), "NOW FAILS 2^-46; worst +15.00 bits (2^-59.70 → 2^-44.70); flips 0 → 7 (appeared)") {
		t.Errorf("summary %q", got["triword"].Summary())
	}
	if _, err := json.Marshal(d); err != nil {
		t.Errorf("the diff does not marshal: %v", err)
	}

	one := func(backend string, params int) *Campaign {
		doc := `[{"backend": "` + backend + `", "params": ` + strconv.Itoa(params) + `, "signatures": 2, "leaves": 4, "per_leaf": {"sum": {"max_log2": -50}}, "per_signature": {"sum": {"max_log2": -50}}, "meets_2^-46": true}]`
		c, err := Read(writeDir(t, map[string]string{"c.json": doc}))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	// Two single-backend campaigns pair whatever their names.
	if d, err := CompareCampaigns(one("native", 512), one("emu64", 512)); err != nil || len(d.Pairs) != 1 || d.Pairs[0].A != "native" || d.Pairs[0].B != "emu64" {
		t.Errorf("single backends: %v %+v", err, d)
	}
	empty := &Campaign{Dir: "empty"}
	for _, tc := range []struct {
		a, b *Campaign
		want string
	}{
		{one("native", 512), one("native", 1024), "Falcon-512"},
		{a, b, "the backends differ: only testdata/campaign has vprec:24:e11 at Falcon-512"},
		{empty, a, "holds no compare or sweep document"},
		{a, empty, "holds no compare or sweep document"},
	} {
		if _, err := CompareCampaigns(tc.a, tc.b); !errors.Is(err, ErrNotComparable) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s vs %s: %v, want %q", tc.a.Dir, tc.b.Dir, err, tc.want)
		}
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }
