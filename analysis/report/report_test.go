package report

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/analysis/results"
)

const campaignDir = "../results/testdata/campaign"

// smallPlots keeps the expm figure quick.
var smallPlots = Options{Plot: plot.Options{ExpmPoints: 32}, RequireManifest: true}

func buildExample(t *testing.T) string {
	t.Helper()
	c, err := results.Read(campaignDir)
	if err != nil {
		t.Fatal(err)
	}
	page, err := Build(c, smallPlots)
	if err != nil {
		t.Fatal(err)
	}
	return string(page)
}

// TestBuild checks the page of the example campaign: the verdict box
// first, what was run, the tables, every figure numbered and captioned,
// the P* answers, the skipped file, and nothing that would load from
// elsewhere.
func TestBuild(t *testing.T) {
	page := buildExample(t)
	for _, want := range []string{
		"Example campaign (hand-written test data, not measurements)",
		"fprlab compare --backend native,emu64,triword --params 512 --signatures 100 --keys 10 --seed 1 --json",
		"Compare: compare-512.json", "Sweep: sweep-512.json",
		// The verdict box: the example's triword alone is within 2^-46
		// (worst -59.70; native and emu64 -40.10).
		"Compare compare-512.json: 1 of 3 backends meet 2^-46 per signature",
		`<td class="t">triword</td><td class="t ok">✔ meets</td><td class="t">100 signatures, Falcon-512</td><td>2^-59.70</td>`,
		`<td class="t">native</td><td class="t bad">✘ fails</td>`,
		// P* of the example sweep (worked out in results.TestPStars).
		`<td class="t">Falcon-512 rn e11</td><td>64 bits</td><td>56 bits</td><td>56 bits</td><td class="t">100 signatures per format</td><td>24..64 bits</td>`,
		`<td class="t">Falcon-512 rz e11</td><td>64 bits</td><td>56 bits</td><td>64 bits</td>`,
		`<td class="t">triword</td>`, `<td class="t">vprec:40:e11:rz</td>`, "<td>-59.70</td>",
		`<td class="t">Falcon-512 rn e11</td><td class="t">per-signature worst δc&#43;δσ ≤ 2^-46</td><td>64 bits</td>`,
		"shadowed<br>seconds",
		"notes.json: a JSON object that is not a sweep",
		`<a href="#figures">Figures</a>`,
		`<p id="report-status" data-status="pending" hidden>`,
		"Not drawn, for want of the documents they need: ops, pareto, cost, diverge",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if v, d := strings.Index(page, `id="verdict"`), strings.Index(page, `id="run"`); v < 0 || v > d {
		t.Error("the verdict box does not come before the details")
	}
	n := 0
	for _, k := range plot.Kinds {
		if k.Kind == plot.KindOps || k.Kind == plot.KindPareto || k.Kind == plot.KindCost || k.Kind == plot.KindDiverge { // no arith errors document, tune result, costs nor diverge document in the example
			if strings.Contains(page, `id="figure-`+string(k.Kind)+`"`) {
				t.Errorf("figure %s drawn without its documents", k.Kind)
			}
			continue
		}
		n++
		if !strings.Contains(page, `<figure id="figure-`+string(k.Kind)+`"><svg class="figure"`) {
			t.Errorf("no inline figure %s", k.Kind)
		}
		if want := fmt.Sprintf("<figcaption><b>Figure %d.</b> %s</figcaption>", n, Caption(string(k.Kind), k.Needs)); !strings.Contains(html.UnescapeString(page), want) {
			t.Errorf("figure %s lacks its caption %q", k.Kind, want)
		}
	}
	if strings.Contains(page, "<?xml") {
		t.Error("an XML declaration was inlined")
	}
	// Self-contained: no element loads anything. (SVG's xmlns values are
	// namespace names, never fetched.)
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*"[^"#]`).FindString(page); m != "" {
		t.Errorf("page references an external resource: %s", m)
	}
	if regexp.MustCompile(`(?i)<(link|img|iframe|object|embed)\b`).MatchString(page) {
		t.Error("page has an element that loads a resource")
	}
}

// TestEscaping: names from the documents cannot inject markup.
func TestEscaping(t *testing.T) {
	dir := t.TempDir()
	doc := `[{"backend": "<script>alert(1)</script>", "params": 512, "signatures": 1, "leaves": 2, "per_leaf": {"sum": {"max_log2": -40, "histogram": [{"log2": -41, "count": 2}]}}}]`
	if err := os.WriteFile(filepath.Join(dir, "c.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	page, err := Build(c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "<script>alert") {
		t.Error("a backend name was written unescaped")
	}
	if !strings.Contains(string(page), "has no manifest.json") {
		t.Error("a campaign without manifest does not say so")
	}
	if _, err := Build(c, Options{RequireManifest: true}); err == nil || !strings.Contains(err.Error(), "manifest.json") {
		t.Errorf("RequireManifest: %v", err)
	}
	if _, err := Build(&results.Campaign{Dir: dir}, Options{}); err == nil {
		t.Error("an empty campaign built a page")
	}
}

// TestBuildBaseline: the example campaign against itself opens with the
// diff verdict, nothing worse, and the statistics side by side; a
// baseline without manifest is refused where the manifest is required.
func TestBuildBaseline(t *testing.T) {
	c, err := results.Read(campaignDir)
	if err != nil {
		t.Fatal(err)
	}
	o := smallPlots
	o.Baseline = c
	b, err := Build(c, o)
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{
		`<div class="verdict" data-kind="diff">`, "0 of 15 backends got worse than the baseline",
		`<td class="t">triword (Falcon-512)</td><td class="t">unchanged: meets</td><td class="t">2^-59.70 → 2^-59.70</td><td>&#43;0.00</td>`,
		`<a href="#diff">Against the baseline</a>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if d, v := strings.Index(page, `data-kind="diff"`), strings.Index(page, `data-kind="compare"`); d < 0 || d > v {
		t.Error("the diff verdict does not come first")
	}
	o.Baseline = &results.Campaign{Dir: "bare", Compares: c.Compares}
	if _, err := Build(c, o); err == nil || !strings.Contains(err.Error(), "baseline bare: no manifest.json") {
		t.Errorf("a baseline without manifest: %v", err)
	}
}

// TestCaption: a figure kind without a caption of its own (one package
// plot adds later) still gets a one-line caption naming it and its data.
func TestCaption(t *testing.T) {
	if got := Caption("violin", "compare documents"); got != "The violin figure, drawn from compare documents." {
		t.Errorf("fallback caption %q", got)
	}
	for _, k := range plot.Kinds {
		if c := Caption(string(k.Kind), k.Needs); !strings.Contains(c, "read") {
			t.Errorf("%s: caption %q does not say what to read", k.Kind, c)
		}
	}
}
