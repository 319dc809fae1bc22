package plot

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"

	"github.com/fprlab/fprlab/analysis/results"
)

var (
	update = flag.Bool("update", false, "rewrite the golden SVG files in testdata/golden")
	pngDir = flag.String("png", "", "also write every figure as PNG into this directory, to look at")
)

// campaignDir is the hand-written example campaign (compare and sweep
// documents following their JSON contracts).
const campaignDir = "../results/testdata/campaign"

func readCampaign(t *testing.T) *results.Campaign {
	t.Helper()
	c, err := results.Read(campaignDir)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// expmOptions keep the expm figure small and fast: four backends whose
// expm_p63 are deterministic, 48 grid points.
var expmOptions = Options{ExpmBackends: []string{"native", "emu64", "vprec:24:e11", "oracle"}, ExpmPoints: 48}

// TestGolden draws every kind from the example campaign and compares the
// SVG with the golden file byte for byte (-update rewrites them; look at
// the PNGs written with -png before committing new ones).
func TestGolden(t *testing.T) {
	c := readCampaign(t)
	for _, k := range Kinds {
		if k.Kind == KindOps || k.Kind == KindPareto || k.Kind == KindCost || k.Kind == KindDiverge {
			continue // the example campaign has no arith errors document (TestGoldenReal), tune result (TestPareto), costs (TestCost) nor diverge document (TestDiverge)
		}
		t.Run(string(k.Kind), func(t *testing.T) {
			f, err := Draw(k.Kind, c, expmOptions)
			if err != nil {
				t.Fatal(err)
			}
			// Twice: the output must not depend on anything but the input.
			f2, err := Draw(k.Kind, c, expmOptions)
			if err != nil {
				t.Fatal(err)
			}
			a, err := f.Bytes("svg")
			if err != nil {
				t.Fatal(err)
			}
			if b, err := f2.Bytes("svg"); err != nil || !bytes.Equal(a, b) {
				t.Fatalf("two drawings of the same input differ (%v)", err)
			}
			checkGolden(t, f, string(k.Kind))
		})
	}
}

// TestGoldenReal draws the figures of documents as the compare and arith
// errors commands wrote them (testdata/real of package results) and
// compares them with their golden SVG.
func TestGoldenReal(t *testing.T) {
	c, err := results.Read("../results/testdata/real")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []Kind{KindHistogram, KindStages, KindOps} {
		f, err := Draw(k, c, Options{})
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		checkGolden(t, f, string(k)+"-real")
	}
	// Stages repeated per tree level are labelled with their level.
	var svg bytes.Buffer
	f, _ := Draw(KindStages, c, Options{})
	if err := f.Write(&svg, "svg"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(svg.String(), "ffldl level 9") || strings.Contains(svg.String(), "gram level") {
		t.Error("stage labels: want levels on repeated stages only")
	}
}

// TestGoldenRealFormats draws the precision and security figures from a
// real compare run over vprec:53..64:e11 in both roundings (20 signatures
// each), the way a sweep will draw, and checks the P* lines it marks.
func TestGoldenRealFormats(t *testing.T) {
	c, _ := readFormats(t)
	for _, k := range []Kind{KindPrecision, KindSecurity, KindHistogram, KindStages} {
		f, err := Draw(k, c, Options{})
		if err != nil {
			t.Fatalf("%s: %v", k, err)
		}
		name := string(k) + "-real"
		if k == KindHistogram || k == KindStages {
			name = string(k) + "-formats" // the -real ones are TestGoldenReal's
		}
		checkGolden(t, f, name)
	}
	f, _ := Draw(KindPrecision, c, Options{})
	svg, err := f.Bytes("svg")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"P* (worst) = 59 bits: Falcon-512 rn e11", "P* (worst) = 61 bits: Falcon-512 rz e11", "P* (median) = 55 bits: Falcon-512 rn e11", "triword-fullconst (Falcon-512, 72 bits)", "20 signatures per format, 24 formats swept"} {
		if !strings.Contains(string(svg), escapeXML(want)) {
			t.Errorf("no %q", want)
		}
	}
}

// checkGolden compares the figure's SVG with testdata/golden/NAME.svg
// (rewritten with -update) and writes a PNG with -png.
func checkGolden(t *testing.T, f *Figure, name string) {
	t.Helper()
	var svg bytes.Buffer
	if err := f.Write(&svg, "svg"); err != nil {
		t.Fatal(err)
	}
	if *pngDir != "" {
		if err := f.Save(filepath.Join(*pngDir, name+".png")); err != nil {
			t.Fatal(err)
		}
	}
	golden := filepath.Join("testdata", "golden", name+".svg")
	if *update {
		if err := os.WriteFile(golden, svg.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(svg.Bytes(), want) {
		t.Errorf("SVG differs from %s; rerun with -update after checking the PNG", golden)
	}
}

// TestTitlesSayWhat checks that each figure's SVG names what was measured
// and the sample size read from the input.
func TestTitlesSayWhat(t *testing.T) {
	c := readCampaign(t)
	for kind, want := range map[Kind][]string{
		KindHistogram: {"δc + δσ", "256-bit oracle", "Falcon-512", "100 signatures", "51,200 leaves", "2^-46", "native"},
		KindStages:    {"signing stage", "100 signatures", "ffSampling merge", "filled: maximum, hollow: median", "triword"},
		KindPrecision: {"significand precision P (bits)", "100 signatures per format", "P* (worst) = 64 bits: Falcon-512 rn e11, Falcon-512 rz e11", "native (Falcon-512, 53 bits)", "triword (Falcon-512, 72 bits)"},
		KindSecurity:  {"security bits lost", "log2(max signing queries)", "100 signatures per format"},
		KindKAT:       {"10 records per format", "failed signing attempts (%)"},
		KindExpm:      {"48 points", "vprec:24:e11", "oracle: exact at all 48 points"},
	} {
		f, err := Draw(kind, c, expmOptions)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		var svg bytes.Buffer
		if err := f.Write(&svg, "svg"); err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(svg.String(), escapeXML(w)) {
				t.Errorf("%s: no %q in the SVG", kind, w)
			}
		}
	}
}

func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "'", "&#39;", "\"", "&#34;").Replace(s)
}

// TestFormats writes each output format and checks its signature bytes.
func TestFormats(t *testing.T) {
	c := readCampaign(t)
	f, err := Draw(KindHistogram, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for ext, magic := range map[string]string{".png": "\x89PNG", ".svg": "<?xml", ".pdf": "%PDF"} {
		p := filepath.Join(dir, "h"+ext)
		if err := f.Save(p); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte(magic)) {
			t.Errorf("%s: starts with %q", ext, b[:min(8, len(b))])
		}
		if ext == ".png" {
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if w := img.Bounds().Dx(); w != 8*PNGDPI {
				t.Errorf("PNG %d pixels wide, want %d", w, 8*PNGDPI)
			}
		}
	}
	if err := f.Save(filepath.Join(dir, "h.gif")); err == nil || !strings.Contains(err.Error(), ".png, .svg or .pdf") {
		t.Errorf("gif: %v", err)
	}
	if err := f.Save(dir); err == nil {
		t.Error("saving over a directory succeeded")
	}
}

// TestNoData: a kind without its documents says which documents it needs.
func TestNoData(t *testing.T) {
	empty := &results.Campaign{}
	for _, k := range []Kind{KindHistogram, KindStages, KindPrecision, KindSecurity, KindKAT, KindPareto} {
		if _, err := Draw(k, empty, Options{}); !errors.Is(err, results.ErrNoData) {
			t.Errorf("%s on an empty campaign: %v, want ErrNoData", k, err)
		}
	}
	if _, err := ParseKind("pie"); err == nil || !strings.Contains(err.Error(), "histogram") {
		t.Errorf("ParseKind(pie): %v", err)
	}
	if _, err := Draw(KindExpm, empty, Options{ExpmBackends: []string{"nosuch"}}); err == nil {
		t.Error("expm of an unknown backend drew")
	}
}

// The tune figure says how many plans on how many signatures, and shows
// the chosen plan's widths.
func TestPareto(t *testing.T) {
	c, err := results.Read(filepath.Join("testdata", "tune-result.json"))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join("testdata", "tune-result.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Evaluations []json.RawMessage `json:"evaluations"`
		Signatures  int               `json:"signatures"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	f, err := Draw(KindPareto, c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Panels() != 2 {
		t.Fatalf("%d panels, want 2", f.Panels())
	}
	var svg bytes.Buffer
	if err := f.Write(&svg, "svg"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("%d plans measured on %d signatures each", len(doc.Evaluations), doc.Signatures), "Chosen plan", "ffsampling", "binary64 (53 bits)", "target − margin (0.5 bits)", "(×10^6)"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	checkGolden(t, f, "pareto")
}

// A sweep alone feeds the histogram and stages figures: its reference
// backends and five of its formats by default, or the ones named.
func TestComparesForSweep(t *testing.T) {
	c, err := results.Read(filepath.Join(campaignDir, "sweep-512.json"))
	if err != nil {
		t.Fatal(err)
	}
	names := func(cs []results.Compare) string {
		var n []string
		for _, x := range cs {
			n = append(n, x.Backend)
		}
		return strings.Join(n, " ")
	}
	cs, err := ComparesFor(c, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Both curves (24..64 bits in steps of 8) meet 2^-46 at 64 bits only
	// (per_signature.sum.max_log2 of the document: -51 and -49.4 at 64,
	// above -46 at 56): their P* first, then the failing 56-bit formats,
	// then the lowest precision of the first curve; five in all.
	if got, want := names(cs), "native vprec:24:e11 vprec:56:e11 vprec:64:e11 vprec:56:e11:rz vprec:64:e11:rz"; got != want {
		t.Errorf("default choice %q, want %q", got, want)
	}
	cs, err = ComparesFor(c, []string{"vprec:48:e11:rz", "native"})
	if err != nil || names(cs) != "vprec:48:e11:rz native" {
		t.Errorf("selection: %q, %v", names(cs), err)
	}
	if _, err := ComparesFor(c, []string{"vprec:99"}); err == nil || !strings.Contains(err.Error(), "vprec:99") || !strings.Contains(err.Error(), "vprec:24:e11") {
		t.Errorf("unknown selection: %v", err)
	}
	// The committed sweep carries stage tables but no histograms.
	if _, err := Draw(KindStages, c, Options{}); err != nil && !errors.Is(err, results.ErrNoData) {
		t.Errorf("stages from a sweep: %v", err)
	}
}

// TestTicksBounded: the tickers that step one unit at a time lay out a
// bounded number of ticks over any range, and none over an infinite or
// absurd one (values the reader refuses, were they to reach a figure).
func TestTicksBounded(t *testing.T) {
	for _, tk := range []struct {
		name string
		t    gplot.Ticker
	}{{"bits", bitsTicks}, {"decade", decadeTicks}, {"int", intTicks}} {
		for _, r := range [][2]float64{{-1e308, 1e308}, {math.Inf(-1), 0}, {0, math.NaN()}, {-1 << 30, 1 << 30}} {
			if ts := tk.t.Ticks(r[0], r[1]); len(ts) != 0 {
				t.Errorf("%s ticks over %v: %d ticks, want none", tk.name, r, len(ts))
			}
		}
	}
	if ts := bitsTicks.Ticks(1, 60000); len(ts) > 30 {
		t.Errorf("bits ticks over 1..60000: %d ticks", len(ts))
	}
	if ts := bitsTicks.Ticks(20, 60); len(ts) != 41 {
		t.Errorf("bits ticks over 20..60: %d ticks, want one per bit", len(ts))
	}
}

// TestReferencesFromDocumentAlone checks that a fixed backend is placed by
// the precision its document records, whatever its name: a backend the
// registry does not know (a user's own) is drawn from its document alone.
func TestReferencesFromDocumentAlone(t *testing.T) {
	cs := []results.Compare{{Backend: "my-own-format", Bits: 61, ExpBits: 9, Params: 512}}
	refs := References(nil, cs)
	if len(refs) != 1 || refs[0].Backend != "my-own-format" || refs[0].Bits != 61 || refs[0].ExpBits != 9 {
		t.Errorf("references %+v, want my-own-format at 61 bits", refs)
	}
}

// An FN-DSA tune document: the figure names FN-DSA and labels the stage
// the search left alone "not tuned", without a bar.
func TestParetoFNDSA(t *testing.T) {
	c, err := results.Read(filepath.Join("testdata", "tune-result.json"))
	if err != nil {
		t.Fatal(err)
	}
	tu := c.Tunes[0].Tune
	tu.Scheme = "fn-dsa"
	tu.NotTuned = []results.TuneStageNote{{Stage: "expm", Reason: "integer"}}
	f, err := Pareto([]results.Tune{tu})
	if err != nil {
		t.Fatal(err)
	}
	var svg bytes.Buffer
	if err := f.Write(&svg, "svg"); err != nil {
		t.Fatal(err)
	}
	s := svg.String()
	if !strings.Contains(s, fmt.Sprintf("FN-DSA-%d (round-3 keys) precision plans", tu.Params)) || strings.Count(s, "not tuned") != 1 {
		t.Errorf("SVG: FN-DSA title %v, %d labels \"not tuned\"", strings.Contains(s, "FN-DSA"), strings.Count(s, "not tuned"))
	}
}

// TestCost draws the per-signature worst and median δc of the backends
// given a cost, at those costs, and refuses costs that name no document.
func TestCost(t *testing.T) {
	c, err := results.Read("../results/testdata/real")
	if err != nil {
		t.Fatal(err)
	}
	// The numbers are compare-512.json's (jq '.[] | .per_signature.delta_c');
	// its triword was written under the old names and reads renamed.
	tw := c.AllCompares()[1].Backend
	if !strings.HasPrefix(tw, "triword") {
		t.Fatalf("second backend %s", tw)
	}
	f, err := Draw(KindCost, c, Options{Cost: map[string]float64{"native": 24873, tw: 1000}, CostUnit: "cells"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]plotter.XYs{
		"worst":  {{X: 1000, Y: -42.23397256114144}, {X: 24873, Y: -40.39433962619047}},
		"median": {{X: 1000, Y: -42.71875}, {X: 24873, Y: -40.96875}},
	}
	for name, w := range want {
		if got := f.drawn[name]; !reflect.DeepEqual(got, w) {
			t.Errorf("%s: drew %v, want %v", name, got, w)
		}
	}
	var svg bytes.Buffer
	if err := f.Write(&svg, "svg"); err != nil {
		t.Fatal(err)
	}
	if s := svg.String(); !strings.Contains(s, "50 signatures") || !strings.Contains(s, "cells") || !strings.Contains(s, "2^-46") {
		t.Errorf("the figure does not say what it draws (signatures, unit, 2^-46)")
	}
	// Only native: one point per series.
	if f, err = Draw(KindCost, c, Options{Cost: map[string]float64{"native": 5}}); err != nil || len(f.drawn["worst"]) != 1 {
		t.Errorf("one backend: %v", err)
	}
	for _, cost := range []map[string]float64{nil, {"so:/nowhere.so": 1}} {
		if _, err := Draw(KindCost, c, Options{Cost: cost}); !errors.Is(err, results.ErrNoData) {
			t.Errorf("costs %v: error %v, want ErrNoData", cost, err)
		}
	}
}
