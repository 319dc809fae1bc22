package plot

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"

	"github.com/fprlab/fprlab/analysis/results"
)

// The tests of this file check the numbers each figure kind draws (the
// points of its series, Figure.drawn) against the documents, read here as
// plain JSON, independently of package results and of the drawing code.

// rawDoc reads a JSON document as plain values.
func rawDoc(t *testing.T, path string) any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// objects returns a document's array of objects.
func objects(t *testing.T, v any) []map[string]any {
	t.Helper()
	arr, ok := v.([]any)
	if !ok {
		t.Fatalf("document is a %T, want an array", v)
	}
	var out []map[string]any
	for _, x := range arr {
		out = append(out, x.(map[string]any))
	}
	return out
}

// field walks a path of object keys ("renyi", "bits_lost_at_2^64_average").
func field(o map[string]any, path ...string) (any, bool) {
	var v any = o
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil, false
		}
		if v, ok = m[k]; !ok {
			return nil, false
		}
	}
	return v, true
}

func num(o map[string]any, path ...string) (float64, bool) {
	v, ok := field(o, path...)
	f, isNum := v.(float64)
	return f, ok && isNum
}

// readFormats reads the real compare run over vprec:53..64:e11 (both
// roundings) and three fixed backends, as a campaign and as plain JSON.
func readFormats(t *testing.T) (*results.Campaign, []map[string]any) {
	t.Helper()
	const gz = "../results/testdata/real-formats/compare-vprec-512.json.gz"
	b, err := os.ReadFile(gz)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if b, err = io.ReadAll(zr); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "compare-vprec-512.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	raw := objects(t, rawDoc(t, filepath.Join(dir, "compare-vprec-512.json")))
	c, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return c, raw
}

// samePoints compares a drawn series with the expected points, in any
// order, to within rounding.
func samePoints(t *testing.T, what string, got, want plotter.XYs) {
	t.Helper()
	sortXY := func(v plotter.XYs) plotter.XYs {
		v = append(plotter.XYs(nil), v...)
		sort.Slice(v, func(i, j int) bool {
			if v[i].X != v[j].X {
				return v[i].X < v[j].X
			}
			return v[i].Y < v[j].Y
		})
		return v
	}
	g, w := sortXY(got), sortXY(want)
	if len(g) != len(w) {
		t.Errorf("%s: %d points drawn, want %d (%v, want %v)", what, len(g), len(w), g, w)
		return
	}
	for i := range g {
		if math.Abs(g[i].X-w[i].X) > 1e-9 || math.Abs(g[i].Y-w[i].Y) > 1e-9 {
			t.Errorf("%s: point %d drawn at (%g, %g), want (%g, %g)", what, i, g[i].X, g[i].Y, w[i].X, w[i].Y)
		}
	}
}

// The histogram draws, per backend and quantity, log10(count / total) of
// every non-empty bin of the document's histogram; the per-signature
// panel says how many signatures reach 2^-46, and delta_c's panel is
// there for triword-fullconst, whose sum delta_sigma floors.
func TestHistogramNumbers(t *testing.T) {
	c, raw := readFormats(t)
	f, err := Draw(KindHistogram, c, Options{Select: []string{"native", "triword-fullconst", "vprec:59:e11"}})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.Bytes("svg")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, o := range raw {
		name := o["backend"].(string)
		if name != "native" && name != "triword-fullconst" && name != "vprec:59:e11" {
			continue
		}
		for _, key := range []string{"per_leaf.sum", "per_signature.sum", "per_leaf.delta_c", "per_leaf.delta_sigma"} {
			a, q, _ := strings.Cut(key, ".")
			bins, _ := field(o, a, q, "histogram")
			var want plotter.XYs
			total, above := 0.0, 0.0
			for _, b := range bins.([]any) {
				n := b.(map[string]any)["count"].(float64)
				total += n
				if b.(map[string]any)["log2"].(float64) >= -46 {
					above += n
				}
			}
			for _, b := range bins.([]any) {
				bm := b.(map[string]any)
				if n := bm["count"].(float64); n > 0 {
					want = append(want, plotter.XY{X: bm["log2"].(float64), Y: math.Log10(n / total)})
				}
			}
			samePoints(t, key+" "+name, f.drawn[key+" "+name], want)
			checked++
			if key == "per_signature.sum" {
				s := fmt.Sprintf("%s: %s of %s signatures ≥ 2^-46", name, results.Thousands(int64(above)), results.Thousands(int64(total)))
				if !strings.Contains(string(svg), escapeXML(s)) {
					t.Errorf("no %q in the figure", s)
				}
			}
		}
	}
	if checked != 12 {
		t.Errorf("%d series checked, want 12", checked)
	}
	if len(f.drawn["per_leaf.delta_c triword-fullconst"]) < 5 {
		t.Errorf("triword-fullconst's delta_c histogram: %d bins drawn", len(f.drawn["per_leaf.delta_c triword-fullconst"]))
	}
	for _, want := range []string{twfalconLegend, "Falcon-1024", "10^5 signatures", specBoundLegend} {
		if !strings.Contains(string(svg), escapeXML(want)) {
			t.Errorf("no %q in the figure", want)
		}
	}
}

// curveOf names the curve of a vprec format of the real-formats run.
func curveOf(format string) string {
	if strings.HasSuffix(format, ":rz") {
		return "Falcon-512 rz e11"
	}
	return "Falcon-512 rn e11"
}

// formatBits reads P from "vprec:P:...".
func formatBits(t *testing.T, format string) float64 {
	var p int
	if _, err := fmt.Sscanf(strings.TrimPrefix(format, "vprec:"), "%d", &p); err != nil {
		t.Fatalf("%s: %v", format, err)
	}
	return float64(p)
}

// drawnName is the name a figure gives a backend of the documents: the
// documents here predate the triword renaming (no names_revision), whose
// "triword" the reader relabels triword-b64const (package results,
// legacy.go).
func drawnName(o map[string]any) string {
	name := o["backend"].(string)
	if _, ok := o["names_revision"]; !ok && name == "triword" {
		return "triword-b64const"
	}
	return name
}

// knownBits are the precisions of the fixed backends, for documents that
// predate their "bits" field.
var knownBits = map[string]float64{"native": 53, "emu64": 53, "triword-b64const": 72, "triword-fullconst": 72}

// expectSeries collects, from the plain documents, the expected series
// of a sweep figure: per curve (swept formats) and per reference backend
// (fixed ones, drawn at the precision their document records).
func expectSeries(t *testing.T, raw []map[string]any, path ...string) (curves map[string]plotter.XYs, refs map[string]plotter.XYs) {
	curves, refs = map[string]plotter.XYs{}, map[string]plotter.XYs{}
	for _, o := range raw {
		name := o["backend"].(string)
		v, ok := num(o, path...)
		if !ok {
			continue
		}
		if strings.HasPrefix(name, "vprec:") {
			curves[curveOf(name)] = append(curves[curveOf(name)], plotter.XY{X: formatBits(t, name), Y: v})
		} else {
			name = drawnName(o)
			bits, ok := num(o, "bits")
			if !ok {
				bits = knownBits[name]
			}
			refs[name] = append(refs[name], plotter.XY{X: bits, Y: v})
		}
	}
	return curves, refs
}

// The security figure's series are the documents' Renyi fields: worst
// case bits_lost_at_2^64 and max_queries_log2, average case
// bits_lost_at_2^64_average and max_queries_log2_average, for the curves
// and the fixed backends.
func TestSecurityNumbers(t *testing.T) {
	c, raw := readFormats(t)
	f, err := Draw(KindSecurity, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct{ key, field string }{
		{"lost worst", "bits_lost_at_2^64"}, {"lost average", "bits_lost_at_2^64_average"},
		{"queries worst", "max_queries_log2"}, {"queries average", "max_queries_log2_average"},
	} {
		curves, refs := expectSeries(t, raw, "renyi", q.field)
		if len(curves) != 2 || len(refs) != 3 {
			t.Fatalf("%s: %d curves, %d references in the document", q.field, len(curves), len(refs))
		}
		for k, want := range curves {
			samePoints(t, k+" "+q.key, f.drawn[k+" "+q.key], want)
		}
		for name, want := range refs {
			samePoints(t, name+" "+q.key, f.drawn["ref "+name+" 512 "+q.key], want)
		}
	}
	svg, err := f.Bytes("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"256 = all 256 bits lost", "λ = 256 bits", "worst case: solid", "average case: dashed", "(of λ = 256)"} {
		if !strings.Contains(string(svg), escapeXML(want)) {
			t.Errorf("no %q in the figure", want)
		}
	}
}

// The precision figure draws per_signature.sum.max_log2 (worst) and
// per_leaf.sum.median_log2 (median) of every format and fixed backend.
func TestPrecisionNumbers(t *testing.T) {
	c, raw := readFormats(t)
	f, err := Draw(KindPrecision, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []struct {
		key  string
		path []string
	}{{"worst", []string{"per_signature", "sum", "max_log2"}}, {"median", []string{"per_leaf", "sum", "median_log2"}}} {
		curves, refs := expectSeries(t, raw, q.path...)
		for k, want := range curves {
			samePoints(t, k+" "+q.key, f.drawn[k+" "+q.key], want)
		}
		for name, want := range refs {
			samePoints(t, name+" "+q.key, f.drawn["ref "+name+" 512 "+q.key], want)
		}
	}
	// P* by hand from the document: the least P from which every larger
	// swept P has a per-signature worst <= 2^-46.
	curves, _ := expectSeries(t, raw, "per_signature", "sum", "max_log2")
	svg, _ := f.Bytes("svg")
	for k, v := range curves {
		sort.Slice(v, func(i, j int) bool { return v[i].X < v[j].X })
		star := -1.0
		for i := len(v) - 1; i >= 0 && v[i].Y <= -46; i-- {
			star = v[i].X
		}
		want := fmt.Sprintf("P* (worst) = %d bits: %s", int(star), k)
		if !strings.Contains(string(svg), escapeXML(want)) {
			t.Errorf("no %q in the figure", want)
		}
	}
}

// The KAT figure draws 100 passed / records, 100 keygen_failed / records
// (for curves where some key generation failed) and 100 failed / total
// signing attempts of each sweep point.
func TestKATNumbers(t *testing.T) {
	c := readCampaign(t)
	raw := objects(t, rawDoc(t, filepath.Join(campaignDir, "sweep-512.json")))
	f, err := Draw(KindKAT, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pass, keygen, failed := map[string]plotter.XYs{}, map[string]plotter.XYs{}, map[string]plotter.XYs{}
	for _, o := range raw {
		name := o["format"].(string)
		bits, _ := num(o, "bits")
		recs, _ := num(o, "kat", "records")
		passed, _ := num(o, "kat", "passed")
		kf, _ := num(o, "kat", "keygen_failed")
		tot, _ := num(o, "attempts", "total")
		fa, _ := num(o, "attempts", "failed")
		if !strings.HasPrefix(name, "vprec:") {
			samePoints(t, name, f.drawn["ref "+name+" 512 reproduced"], plotter.XYs{{X: bits, Y: 100 * passed / recs}})
			continue
		}
		k := curveOf(name)
		pass[k] = append(pass[k], plotter.XY{X: bits, Y: 100 * passed / recs})
		keygen[k] = append(keygen[k], plotter.XY{X: bits, Y: 100 * kf / recs})
		failed[k] = append(failed[k], plotter.XY{X: bits, Y: 100 * fa / tot})
	}
	for k := range pass {
		samePoints(t, k+" pass", f.drawn[k+" reproduced (pk, sk, sm)"], pass[k])
		samePoints(t, k+" failed", f.drawn[k+" failed attempts"], failed[k])
		anyKeygen := false
		for _, p := range keygen[k] {
			anyKeygen = anyKeygen || p.Y > 0
		}
		if anyKeygen {
			samePoints(t, k+" keygen", f.drawn[k+" key generation failed"], keygen[k])
		} else if len(f.drawn[k+" key generation failed"]) > 0 {
			t.Errorf("%s: a key generation series of zeros is drawn", k)
		}
	}
}

// One KAT record: points only (no 0..100 % line); no failed attempt: no
// attempts panel, and the title says so.
func TestKATOneRecord(t *testing.T) {
	one := func(bits int, passed int) results.Point {
		p := results.Point{Format: fmt.Sprintf("vprec:%d:e11", bits), Bits: bits, KAT: &results.KAT{Records: 1, Passed: &passed}}
		p.Compare = results.Compare{Backend: p.Format, Params: 512, Signatures: 10, Attempts: &results.Attempts{Total: 10}}
		return p
	}
	f, err := KAT([]results.Point{one(40, 0), one(48, 1), one(56, 1)})
	if err != nil {
		t.Fatal(err)
	}
	if f.Panels() != 1 {
		t.Errorf("%d panels, want 1 (no attempt failed)", f.Panels())
	}
	svg, _ := f.Bytes("svg")
	if !strings.Contains(string(svg), "1 record per format); no signing attempt failed") {
		t.Error("the title does not say that no attempt failed")
	}
	samePoints(t, "pass", f.drawn["Falcon-512 rn e11 reproduced (pk, sk, sm)"], plotter.XYs{{X: 40, Y: 0}, {X: 48, Y: 100}, {X: 56, Y: 100}})
	// Markers only: with ten records the same points are joined by a
	// line, a path through the three points that the one-record figure
	// lacks.
	ten := func(bits, passed int) results.Point {
		p := one(bits, passed*10)
		p.KAT.Records = 10
		return p
	}
	g, err := KAT([]results.Point{ten(40, 0), ten(48, 1), ten(56, 1)})
	if err != nil {
		t.Fatal(err)
	}
	lined, _ := g.Bytes("svg")
	if a, b := strings.Count(string(svg), "<path"), strings.Count(string(lined), "<path"); a >= b {
		t.Errorf("one record: %d paths, ten records: %d; want fewer without lines", a, b)
	}
}

// The ops figure draws max_rel_err_log2, median_rel_err_log2 and the
// below-range maximum of each backend and operation that has them, and
// leaves out the columns exact in every backend.
func TestOpsNumbers(t *testing.T) {
	c, err := results.Read("../results/testdata/real")
	if err != nil {
		t.Fatal(err)
	}
	raw := objects(t, rawDoc(t, "../results/testdata/real/arith-errors.json"))
	f, err := Draw(KindOps, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Columns: operations in document order that some backend has a
	// number for.
	var cols []string
	has := map[string]bool{}
	for _, o := range raw {
		for _, k := range []string{"max_rel_err_log2", "median_rel_err_log2", "bound_log2", "below_range_max_rel_err_log2"} {
			if _, ok := num(o, k); ok {
				has[o["op"].(string)] = true
			}
		}
	}
	seen := map[string]bool{}
	for _, o := range raw {
		op := o["op"].(string)
		if has[op] && !seen[op] {
			seen[op] = true
			cols = append(cols, op)
		}
	}
	col := func(op string) float64 {
		for i, c := range cols {
			if c == op {
				return float64(i)
			}
		}
		return -1
	}
	n := 0
	for _, o := range raw {
		b, op := o["backend"].(string), o["op"].(string)
		for _, q := range []struct{ name, field string }{{"max", "max_rel_err_log2"}, {"median", "median_rel_err_log2"}, {"below", "below_range_max_rel_err_log2"}} {
			v, ok := num(o, q.field)
			if !ok {
				if len(f.drawn[b+" "+op+" "+q.name]) > 0 {
					t.Errorf("%s %s %s: drawn without a value", b, op, q.name)
				}
				continue
			}
			samePoints(t, b+" "+op+" "+q.name, f.drawn[b+" "+op+" "+q.name], plotter.XYs{{X: col(op), Y: v}})
			n++
		}
	}
	if n < 50 {
		t.Errorf("%d values checked", n)
	}
	if got := f.drawn["triword mul below"]; len(got) != 1 || got[0].Y > -39 || got[0].Y < -40 {
		t.Errorf("triword's below-range mul error: %v, want about 2^-39.9", got)
	}
	svg, _ := f.Bytes("svg")
	for _, want := range []string{"exact in every backend, not drawn: rint, floor, trunc", "oracle: exact in every operation, nothing drawn", "×: results below 2^-78"} {
		if !strings.Contains(string(svg), escapeXML(want)) {
			t.Errorf("no %q in the figure", want)
		}
	}
	for _, op := range []string{">rint<", ">floor<", ">trunc<"} {
		if strings.Contains(string(svg), op) {
			t.Errorf("an empty column %s is drawn", op)
		}
	}
}

// The stages figure draws max_rel_log2 and median_rel_log2 of each stage
// of each backend, by the stage's row in signing order.
func TestStagesNumbers(t *testing.T) {
	c, err := results.Read("../results/testdata/real")
	if err != nil {
		t.Fatal(err)
	}
	raw := objects(t, rawDoc(t, "../results/testdata/real/compare-512.json"))
	f, err := Draw(KindStages, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Rows: (stage, level) in order of first appearance.
	row := map[string]int{}
	for _, o := range raw {
		for _, s := range o["stages"].([]any) {
			sm := s.(map[string]any)
			k := fmt.Sprint(sm["stage"], sm["level"])
			if _, ok := row[k]; !ok {
				row[k] = len(row)
			}
		}
	}
	for _, o := range raw {
		b := drawnName(o)
		for _, q := range []struct{ name, field string }{{"max", "max_rel_log2"}, {"median", "median_rel_log2"}} {
			var want plotter.XYs
			for _, s := range o["stages"].([]any) {
				sm := s.(map[string]any)
				if v, ok := sm[q.field].(float64); ok {
					want = append(want, plotter.XY{X: float64(row[fmt.Sprint(sm["stage"], sm["level"])]), Y: v})
				}
			}
			samePoints(t, b+" "+q.name, f.drawn[b+" "+q.name], want)
		}
	}
}

// The pareto figure draws every evaluated plan at (cost / 10^6, error)
// by whether it meets the target, the uniform start and the chosen plan,
// and the chosen plan's widths.
func TestParetoNumbers(t *testing.T) {
	c, err := results.Read(filepath.Join("testdata", "tune-result.json"))
	if err != nil {
		t.Fatal(err)
	}
	doc := rawDoc(t, filepath.Join("testdata", "tune-result.json")).(map[string]any)
	f, err := Draw(KindPareto, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var meets, misses plotter.XYs
	for _, e := range doc["evaluations"].([]any) {
		em := e.(map[string]any)
		v, ok := em["error_log2"].(float64)
		if !ok {
			continue
		}
		xy := plotter.XY{X: em["cost"].(float64) / 1e6, Y: v}
		if em["meets_target"].(bool) {
			meets = append(meets, xy)
		} else {
			misses = append(misses, xy)
		}
	}
	samePoints(t, "meets", f.drawn["meets"], meets)
	samePoints(t, "misses", f.drawn["misses"], misses)
	var marks plotter.XYs
	for _, k := range []string{"uniform", "chosen"} {
		m := doc[k].(map[string]any)
		marks = append(marks, plotter.XY{X: m["cost"].(float64) / 1e6, Y: m["error_log2"].(float64)})
	}
	samePoints(t, "uniform and chosen", f.drawn["marks"], marks)
	var widths plotter.XYs
	for i, w := range doc["chosen"].(map[string]any)["widths"].([]any) {
		widths = append(widths, plotter.XY{X: float64(i), Y: w.(float64)})
	}
	samePoints(t, "widths", f.drawn["widths"], widths)
	svg, _ := f.Bytes("svg")
	margin := doc["margin_bits"].(float64)
	want := fmt.Sprintf("target − margin (%g bits): 2^%g", margin, doc["target_log2"].(float64)-margin)
	if !strings.Contains(string(svg), escapeXML(want)) {
		t.Errorf("no %q in the figure", want)
	}
}

// The expm figure draws each grid point's error except the exact ones.
func TestExpmNumbers(t *testing.T) {
	curves := []results.ExpmCurve{{Backend: "a", X: []float64{0, 0.2, 0.4}, ErrLog2: []float64{-60, math.Inf(-1), -58}, CCS: []float64{1}}}
	f, err := Expm(curves)
	if err != nil {
		t.Fatal(err)
	}
	samePoints(t, "a", f.drawn["a"], plotter.XYs{{X: 0, Y: -60}, {X: 0.4, Y: -58}})
}

// The accel figures draw percentages of each phase's baseline and log10
// of the RIPST times.
func TestAccelNumbers(t *testing.T) {
	f, err := FPRUnit([]FPRUnitPhase{{Phase: "sign", Baseline: 1000, Published: 600, SoftFPR: 300, SoftNorm64: 100, ExtFPR: 20, ExtNorm64: 5}}, 512, "")
	if err != nil {
		t.Fatal(err)
	}
	// Bars: baseline, estimate, published. Other work is 1000-300-100.
	samePoints(t, "other", f.drawn["other"], plotter.XYs{{X: 0, Y: 60}, {X: 1, Y: 60}, {X: 2, Y: 0}})
	samePoints(t, "fpr", f.drawn["fpr"], plotter.XYs{{X: 0, Y: 30}, {X: 1, Y: 2}, {X: 2, Y: 0}})
	samePoints(t, "norm64", f.drawn["norm64"], plotter.XYs{{X: 0, Y: 10}, {X: 1, Y: 0.5}, {X: 2, Y: 0}})
	samePoints(t, "published", f.drawn["published"], plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 2, Y: 60}})
	r, err := RIPST([]RIPSTBar{{Design: "p", Ns: 100, SimNs: 1000, HasSimulation: true}, {Design: "s", Ns: 10}}, "")
	if err != nil {
		t.Fatal(err)
	}
	samePoints(t, "formula", r.drawn["formula"], plotter.XYs{{X: 0, Y: 2}, {X: 1, Y: 1}})
	samePoints(t, "simulated", r.drawn["simulated"], plotter.XYs{{X: 0, Y: 3}, {X: 1, Y: 0}})
}

// SVG text names the Liberation family with metric-compatible and generic
// fallbacks, never the bare family alone.
func TestSVGFontFallback(t *testing.T) {
	f, err := Draw(KindHistogram, readCampaign(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	svg, _ := f.Bytes("svg")
	if strings.Contains(string(svg), "font-family:Liberation Serif;") {
		t.Error("a text element names only Liberation Serif")
	}
	if !strings.Contains(string(svg), "font-family:'Liberation Serif','Times New Roman',Tinos,Times,serif;") {
		t.Error("no fallback font-family list")
	}
}

// A histogram whose bins are all empty draws an empty axis, not an
// infinite one.
func TestHistogramAllEmpty(t *testing.T) {
	c := results.Compare{Backend: "b", Params: 512, Signatures: 1}
	c.PerLeaf.Sum.Histogram = []results.Bin{{Log2: -50, Count: 0}}
	f, err := Histogram([]results.Compare{c})
	if err != nil {
		t.Fatal(err)
	}
	svg, err := f.Bytes("svg")
	if err != nil || !strings.Contains(string(svg), "b: no nonzero value, nothing to draw") {
		t.Errorf("empty histogram: %v", err)
	}
}
