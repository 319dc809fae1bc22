package report

import (
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

// TestBuild checks the page of the example campaign: what was run, the
// tables, every figure, the P* answers, the skipped file, and nothing
// that would load from elsewhere.
func TestBuild(t *testing.T) {
	page := buildExample(t)
	for _, want := range []string{
		"Example campaign (hand-written test data, not measurements)",
		"fprlab compare --backend native,emu64,triword --params 512 --signatures 100 --keys 10 --seed 1 --json",
		"Compare: compare-512.json", "Sweep: sweep-512.json",
		"<td>triword</td>", "<td>vprec:40:e11:rz</td>", "<td>-59.70</td>",
		"<td>Falcon-512 rn e11</td><td>per-signature worst δc&#43;δσ ≤ 2^-46</td><td>64 bits</td>",
		"<td>Falcon-512 rz e11</td><td>no decision flip in the sample</td><td>64 bits</td>",
		"<td>Falcon-512 rn e11</td><td>no decision flip in the sample</td><td>56 bits</td>",
		"notes.json: not a JSON array of objects",
		`id="report-status"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, k := range plot.Kinds {
		if k.Kind == plot.KindOps { // no arith errors document in the example
			if !strings.Contains(page, "<li>ops: needs arith errors documents") {
				t.Error("the missing ops figure is not listed")
			}
			continue
		}
		if k.Kind == plot.KindPareto { // nor a tune result
			if !strings.Contains(page, "<li>pareto: needs a tune result") {
				t.Error("the missing pareto figure is not listed")
			}
			continue
		}
		if !strings.Contains(page, `<div id="figure-`+string(k.Kind)+`"><svg class="figure"`) {
			t.Errorf("no inline figure %s", k.Kind)
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
