package report

import (
	"html"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/analysis/results"
)

// TestDivergePage builds the page of two measured diverge documents
// (../plot/testdata/diverge): the verdict table with each pair's counts,
// rate as "1 in N" with its interval and the shadow's verdicts, the table
// of differing pairs, and the diverge figure.
func TestDivergePage(t *testing.T) {
	c, err := results.Read("../plot/testdata/diverge")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(c, Options{Plot: plot.Options{ExpmPoints: 16}})
	if err != nil {
		t.Fatal(err)
	}
	page := html.UnescapeString(string(b))
	for _, want := range []string{
		// native vs vprec:24: 9 of 40 differ (1 in 4.4), all judged right on A.
		`<td class="t">native</td><td class="t">vprec:24</td><td>512</td><td>40</td><td>9</td><td class="t">1 in 4 (1 in 3 to 8)</td><td>0</td><td class="t">9 / 0 / 0 / 0</td>`,
		// native vs emu64: none of 200; the interval's upper end 0.0188.
		`<td class="t">0 (below 1 in 53)</td>`, `<td class="t">not judged</td>`,
		"No differing pair revealed the secret key in these samples.",
		`<h2 id="diverge-0">Diverge: native-emu64.json, native-vprec24.json</h2>`,
		`<td class="t">native vs vprec:24, n = 512</td>`,
		`<figure id="figure-diverge">`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if n := strings.Count(page, `<td class="t">native vs vprec:24, n = 512</td>`); n != 9 {
		t.Errorf("%d rows of differing pairs, want 9", n)
	}
}
