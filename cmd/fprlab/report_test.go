package main

import (
	"encoding/json"
	"fmt"
	"html"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/fprlab/fprlab/internal/headless"
)

// verdictRows returns the rows (cells as text) of the verdict blocks of a
// kind in a page's DOM, and the blocks' text.
func verdictRows(t *testing.T, dom, kind string) ([][]string, string) {
	t.Helper()
	box := dom
	if i, j := strings.Index(dom, `<section id="verdict">`), strings.Index(dom, "</section>"); i >= 0 && j > i {
		box = dom[i:j]
	}
	tags := regexp.MustCompile(`<[^>]*>`)
	var rows [][]string
	var text strings.Builder
	blocks := strings.Split(box, `<div class="verdict" `)
	for _, block := range blocks[1:] {
		if !strings.HasPrefix(block, `data-kind="`+kind+`"`) {
			continue
		}
		text.WriteString(html.UnescapeString(tags.ReplaceAllString(block, " ")))
		for _, r := range regexp.MustCompile(`(?s)<tr>(.*?)</tr>`).FindAllStringSubmatch(block, -1) {
			var cells []string
			for _, c := range regexp.MustCompile(`(?s)<t[dh][^>]*>(.*?)</t[dh]>`).FindAllStringSubmatch(r[1], -1) {
				cells = append(cells, html.UnescapeString(tags.ReplaceAllString(c[1], " ")))
			}
			rows = append(rows, cells)
		}
	}
	if text.Len() == 0 {
		t.Fatalf("no %s verdict in the page", kind)
	}
	return rows, text.String()
}

// rowOf returns the row whose first cell is name.
func rowOf(t *testing.T, rows [][]string, name string) []string {
	t.Helper()
	for _, r := range rows {
		if len(r) > 0 && r[0] == name {
			return r
		}
	}
	t.Fatalf("no verdict row %q in %q", name, rows)
	return nil
}

// power writes a JSON log2 value as the verdict box shows it.
func power(v *float64) string {
	if v == nil {
		return "0 (exact)"
	}
	return fmt.Sprintf("2^%.2f", *v)
}

// runOK runs the CLI and fails the test on a non-zero exit.
func runOK(t *testing.T, args ...string) string {
	t.Helper()
	code, out, errOut := runCLI(t, args...)
	if code != 0 {
		t.Fatalf("fprlab %s: exit %d: %s", strings.Join(args, " "), code, errOut)
	}
	return out
}

// reportInBrowser builds the page of a campaign directory (extra flags
// appended), loads it in headless Chromium and returns its DOM, failing on
// a script error or a blank page. Every page must open with the verdict
// box, keep its status element hidden, list no file fprlab wrote as
// skipped, and break no header over more than two lines.
func reportInBrowser(t *testing.T, b *headless.Browser, dir string, extra ...string) string {
	t.Helper()
	page := dir + ".html"
	runOK(t, append([]string{"report", "--in", dir, "--out", page, "--points", "8"}, extra...)...)
	dom, problems, err := b.Check(page, 1400, 2400)
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) > 0 {
		t.Errorf("%s: %s", page, strings.Join(problems, "; "))
	}
	if v, r := strings.Index(dom, `id="verdict"`), strings.Index(dom, `id="run"`); v < 0 || r < 0 || v > r {
		t.Errorf("%s: the verdict box does not open the page", page)
	}
	if !regexp.MustCompile(`<p id="report-status" data-status="ok" hidden="">`).MatchString(dom) {
		t.Errorf("%s: the status element is not hidden once the page is ok", page)
	}
	if strings.Contains(dom, "Files skipped") {
		t.Errorf("%s lists files as skipped (fprlab wrote every file of the directory)", page)
	}
	for _, th := range regexp.MustCompile(`(?s)<th[^>]*>(.*?)</th>`).FindAllStringSubmatch(dom, -1) {
		if n := strings.Count(th[1], "<br>"); n > 1 {
			t.Errorf("%s: a header of %d lines: %q", page, n+1, th[1])
		}
	}
	if !strings.Contains(dom, `<nav id="contents">`) {
		t.Errorf("%s has no table of contents", page)
	}
	return dom
}

// TestReportKindsInChromium runs every kind of measurement the report
// shows -- compare, sweep, tune, arith errors, and a diff of two compare
// campaigns -- fresh on small samples, builds each page and renders it in
// headless Chromium, and checks the verdict box against the commands'
// JSON output.
func TestReportKindsInChromium(t *testing.T) {
	if testing.Short() {
		t.Skip("signs a few hundred shadowed Falcon-512 signatures (tune over big-float formats)")
	}
	b := headless.ForTest(t)
	tmp := t.TempDir()

	t.Run("compare", func(t *testing.T) {
		dir := filepath.Join(tmp, "compare")
		out := runOK(t, "compare", "--backend", "native,triword", "--params", "512", "--signatures", "2", "--keys", "1", "--seed", "report-a", "--out", dir, "--json")
		var docs []struct {
			Backend      string `json:"backend"`
			Meets        *bool  `json:"meets_2^-46"`
			PerSignature struct {
				Sum struct {
					Max *float64 `json:"max_log2"`
				} `json:"sum"`
			} `json:"per_signature"`
			PerLeaf struct {
				Sum struct {
					Median *float64 `json:"median_log2"`
				} `json:"sum"`
			} `json:"per_leaf"`
			Flips struct {
				Total int64 `json:"total"`
			} `json:"flips"`
			Renyi struct {
				MaxQueries *float64 `json:"max_queries_log2"`
				Lost       *float64 `json:"bits_lost_at_2^64"`
				Lambda     int      `json:"lambda"`
			} `json:"renyi"`
		}
		if err := json.Unmarshal([]byte(out), &docs); err != nil || len(docs) != 2 {
			t.Fatalf("compare --json: %v: %.200s", err, out)
		}
		dom := reportInBrowser(t, b, dir)
		rows, text := verdictRows(t, dom, "compare")
		met := 0
		for _, d := range docs {
			r := rowOf(t, rows, d.Backend)
			want := "✘ fails"
			if *d.Meets {
				want = "✔ meets"
				met++
			}
			if r[1] != want || r[2] != "2 signatures, Falcon-512" || r[3] != power(d.PerSignature.Sum.Max) || r[4] != power(d.PerLeaf.Sum.Median) || r[5] != fmt.Sprint(d.Flips.Total) {
				t.Errorf("%s: verdict row %q; JSON meets %v, worst %s, median %s, flips %d", d.Backend, r, *d.Meets, power(d.PerSignature.Sum.Max), power(d.PerLeaf.Sum.Median), d.Flips.Total)
			}
			lost := fmt.Sprintf("loses %.3g bits", *d.Renyi.Lost)
			if *d.Renyi.Lost >= float64(d.Renyi.Lambda) {
				lost = fmt.Sprintf("all %d bits lost", d.Renyi.Lambda)
			}
			if q := fmt.Sprintf("2^%.1f signing queries", *d.Renyi.MaxQueries); !strings.Contains(r[6], q) || !strings.Contains(r[6], lost) {
				t.Errorf("%s: Rényi sentence %q lacks %q or %q", d.Backend, r[6], q, lost)
			}
		}
		if want := fmt.Sprintf("%d of 2 backends meet 2^-46 per signature", met); !strings.Contains(text, want) {
			t.Errorf("the compare verdict lacks %q: %s", want, text)
		}
	})

	t.Run("diff", func(t *testing.T) {
		a, bdir := filepath.Join(tmp, "compare"), filepath.Join(tmp, "compare-b")
		if _, err := os.Stat(a); err != nil {
			t.Skip("needs the compare campaign")
		}
		runOK(t, "compare", "--backend", "native,triword", "--params", "512", "--signatures", "2", "--keys", "1", "--seed", "report-b", "--out", bdir)
		var d struct {
			Pairs []struct {
				A       string `json:"a"`
				Params  int    `json:"params"`
				Verdict string `json:"verdict"`
				Flips   string `json:"flips"`
				MeetsA  *bool  `json:"meets_2^-46_a"`
				Stats   []struct {
					Name   string   `json:"name"`
					Change *float64 `json:"change_bits"`
				} `json:"stats"`
			} `json:"pairs"`
		}
		if err := json.Unmarshal([]byte(runOK(t, "diff", a, bdir, "--json")), &d); err != nil || len(d.Pairs) != 2 {
			t.Fatalf("diff --json: %v %+v", err, d)
		}
		dom := reportInBrowser(t, b, bdir, "--baseline", a)
		rows, _ := verdictRows(t, dom, "diff")
		for _, p := range d.Pairs {
			r := rowOf(t, rows, fmt.Sprintf("%s (Falcon-%d)", p.A, p.Params))
			verdict := p.Verdict
			if verdict == "unchanged" {
				verdict = map[bool]string{true: "unchanged: meets", false: "unchanged: fails"}[*p.MeetsA]
			}
			if p.Stats[0].Name != "per-signature worst δc+δσ" || p.Stats[0].Change == nil {
				t.Fatalf("%s: first statistic %+v", p.A, p.Stats[0])
			}
			if r[1] != verdict || r[3] != fmt.Sprintf("%+.2f", *p.Stats[0].Change) || r[5] != p.Flips {
				t.Errorf("%s: diff verdict row %q; JSON verdict %s, change %+.2f, flips %s", p.A, r, p.Verdict, *p.Stats[0].Change, p.Flips)
			}
		}
		if !strings.Contains(dom, `id="diff-stats"`) && !strings.Contains(dom, "Against the baseline") {
			t.Error("the diff page has no details of the comparison")
		}
	})

	t.Run("sweep", func(t *testing.T) {
		dir := filepath.Join(tmp, "sweep")
		out := runOK(t, "sweep", "--format", "vprec:{44..46}", "--reference", "native", "--params", "512", "--signatures", "2", "--kat", "0", "--out", dir, "--json")
		var doc struct {
			Formats []json.RawMessage `json:"formats"`
			PStar   []struct {
				Curve      string `json:"curve"`
				Criterion  string `json:"criterion"`
				Bits       *int   `json:"bits"`
				AtLowest   bool   `json:"at_lowest"`
				Known      bool   `json:"known"`
				Signatures int64  `json:"signatures"`
				MaxBits    int    `json:"max_bits"`
			} `json:"pstar"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Formats) != 4 || len(doc.PStar) != 3 {
			t.Fatalf("sweep --json: %v: %d formats, %d P*", err, len(doc.Formats), len(doc.PStar))
		}
		dom := reportInBrowser(t, b, dir)
		rows, _ := verdictRows(t, dom, "sweep")
		col := map[string]int{"worst": 1, "median": 2, "flips": 3}
		for _, p := range doc.PStar {
			r := rowOf(t, rows, p.Curve)
			want := fmt.Sprintf("none up to %d bits", p.MaxBits)
			switch {
			case !p.Known:
				want = "not in the data"
			case p.Bits != nil && p.AtLowest:
				want = fmt.Sprintf("≤ %d bits", *p.Bits)
			case p.Bits != nil:
				want = fmt.Sprintf("%d bits", *p.Bits)
			}
			if r[col[p.Criterion]] != want || r[4] != fmt.Sprintf("%d signatures per format", p.Signatures) {
				t.Errorf("%s %s: verdict row %q, JSON P* %q on %d signatures", p.Curve, p.Criterion, r, want, p.Signatures)
			}
		}
	})

	t.Run("tune", func(t *testing.T) {
		dir := filepath.Join(tmp, "tune")
		out := runOK(t, "tune", "--params", "512", "--signatures", "1", "--confirm-signatures", "1", "--start", "64", "--step", "32",
			"--floor", "32", "--target", "2^-40", "--out", dir, "--json", "--workers", "2")
		var r struct {
			Stages []string `json:"stages"`
			Chosen struct {
				Widths       []int   `json:"widths"`
				Cost         float64 `json:"cost"`
				Confirmation *struct {
					Meets bool  `json:"meets_target"`
					Flips int64 `json:"flips"`
				} `json:"confirmation"`
			} `json:"chosen"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil || r.Chosen.Confirmation == nil {
			t.Fatalf("tune --json: %v: %.200s", err, out)
		}
		dom := reportInBrowser(t, b, dir) // without --allow-no-manifest: tune --out wrote one
		rows, text := verdictRows(t, dom, "tune")
		head, widths := rowOf(t, rows, "stage"), rowOf(t, rows, "significand bits")
		for i, st := range r.Stages {
			if head[i+1] != st || widths[i+1] != fmt.Sprint(r.Chosen.Widths[i]) {
				t.Errorf("stage %s: verdict %s = %s, JSON %d bits", st, head[i+1], widths[i+1], r.Chosen.Widths[i])
			}
		}
		verdict := "misses"
		if r.Chosen.Confirmation.Meets && r.Chosen.Confirmation.Flips == 0 {
			verdict = "holds"
		}
		for _, want := range []string{fmt.Sprintf("Cost %.4g", r.Chosen.Cost), "fresh signatures: " + verdict} {
			if !strings.Contains(text, want) {
				t.Errorf("the tune verdict lacks %q: %s", want, text)
			}
		}
	})

	t.Run("ops", func(t *testing.T) {
		dir := filepath.Join(tmp, "ops")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		var ops []struct {
			Backend string   `json:"backend"`
			Op      string   `json:"op"`
			Max     *float64 `json:"max_rel_err_log2"`
		}
		for _, be := range []string{"native", "triword"} {
			out := runOK(t, "arith", "errors", "--backend", be, "--op", "add,mul,div", "--n", "300", "--seed", "7", "--json")
			if err := os.WriteFile(filepath.Join(dir, "arith-errors-"+be+".json"), []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
			var o []struct {
				Backend string   `json:"backend"`
				Op      string   `json:"op"`
				Max     *float64 `json:"max_rel_err_log2"`
			}
			if err := json.Unmarshal([]byte(out), &o); err != nil || len(o) != 3 {
				t.Fatalf("arith errors --json: %v: %.200s", err, out)
			}
			ops = append(ops, o...)
		}
		worst := map[string]float64{}
		for _, o := range ops {
			v := math.Inf(-1)
			if o.Max != nil {
				v = *o.Max
			}
			if w, ok := worst[o.Backend]; !ok || v > w {
				worst[o.Backend] = v
			}
		}
		dom := reportInBrowser(t, b, dir, "--allow-no-manifest") // arith errors writes no directory
		rows, _ := verdictRows(t, dom, "ops")
		for be, w := range worst {
			r := rowOf(t, rows, be)
			want := "0 (exact)"
			if !math.IsInf(w, -1) {
				want = fmt.Sprintf("2^%.2f", w)
			}
			if r[1] != "3" || r[2] != want {
				t.Errorf("%s: verdict row %q, JSON largest error %s over 3 operations", be, r, want)
			}
		}
	})
}
