// Package report builds the HTML page of a precision campaign: one
// self-contained file (styles, figures as inline SVG and a small script
// inline; nothing loaded from the network). It opens with a verdict box --
// what the documents answer: per compare backend the 2^-46 verdict, per
// sweep P*, per tune result the chosen plan, per arith errors document the
// bounds, against a baseline campaign what changed -- then a table of
// contents, what was run, the tables of every document and every figure
// the documents support, numbered and captioned.
//
// The page carries a hidden status element (#report-status) that its
// inline script sets to "ok" once the page has loaded, or to the first
// script error (shown then); the browser tests read it from headless
// Chromium's DOM.
package report

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"math"
	"regexp"
	"strings"

	"github.com/fprlab/fprlab/analysis/plot"
	"github.com/fprlab/fprlab/analysis/results"
)

// Options tune Build.
type Options struct {
	// Plot options (the expm figure's backends and grid).
	Plot plot.Options
	// RequireManifest makes a campaign without manifest.json an error.
	RequireManifest bool
	// Baseline, when set, is the campaign this one is compared with: the
	// page then opens with the diff (results.CompareCampaigns).
	Baseline *results.Campaign
	// CheckDiff, when set, is given the diff against Baseline before the
	// page is built: an error refuses the page (pairs measured under
	// other conditions), and it may mark pairs (DiffPair.Mismatch).
	CheckDiff func(*results.Diff) error
}

// Build renders the campaign's page: the verdict box first (what the
// documents answer), then what was run, P*, the tables and the figures.
func Build(c *results.Campaign, o Options) ([]byte, error) {
	if c.Manifest == nil && o.RequireManifest {
		return nil, fmt.Errorf("%s: no %s saying what was run (command, version, seeds, sample sizes)", c.Dir, results.ManifestName)
	}
	if o.Baseline != nil && o.Baseline.Manifest == nil && o.RequireManifest {
		return nil, fmt.Errorf("baseline %s: no %s saying what was run (command, version, seeds, sample sizes)", o.Baseline.Dir, results.ManifestName)
	}
	if c.Documents() == 0 {
		return nil, fmt.Errorf("%s: %w: no compare, sweep, tune, diverge or arith errors documents", c.Dir, results.ErrNoData)
	}
	page := pageData{Campaign: c, Title: "fprlab campaign"}
	if c.Manifest != nil && c.Manifest.Title != "" {
		page.Title = c.Manifest.Title
	}
	if o.Baseline != nil {
		d, err := results.CompareCampaigns(o.Baseline, c)
		if err != nil {
			return nil, err
		}
		if o.CheckDiff != nil {
			if err := o.CheckDiff(d); err != nil {
				return nil, err
			}
		}
		page.Diff = d
		page.Verdicts = append(page.Verdicts, diffVerdict(d))
		page.DiffTables = diffTables(d)
	}
	for i, d := range c.Compares {
		page.Verdicts = append(page.Verdicts, compareVerdict(d))
		page.CompareTables = append(page.CompareTables, compareTable(i, d))
	}
	for i, d := range c.Sweeps {
		page.Verdicts = append(page.Verdicts, sweepVerdict(d))
		page.SweepTables = append(page.SweepTables, sweepTable(i, d))
	}
	for i, d := range c.Tunes {
		page.Verdicts = append(page.Verdicts, tuneVerdict(d))
		page.TuneTables = append(page.TuneTables, tuneTable(i, d))
	}
	if len(c.Diverges) > 0 {
		page.Verdicts = append(page.Verdicts, divergeVerdict(c.Diverges))
		page.DivergeTables = append(page.DivergeTables, divergePairsTable(c.Diverges))
	}
	for i, d := range c.OpErrors {
		page.Verdicts = append(page.Verdicts, opVerdict(d))
		page.OpTables = append(page.OpTables, opTable(i, d))
	}
	page.PStars = results.PStars(c.PrecisionPoints())
	var missing []string
	for _, k := range plot.Kinds {
		f, err := plot.Draw(k.Kind, c, o.Plot)
		if errors.Is(err, results.ErrNoData) {
			missing = append(missing, string(k.Kind))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", k.Kind, err)
		}
		var svg bytes.Buffer
		if err := f.Write(&svg, "svg"); err != nil {
			return nil, err
		}
		n := len(page.Figures) + 1
		page.Figures = append(page.Figures, figure{Kind: string(k.Kind), Number: n, Caption: Caption(string(k.Kind), k.Needs), SVG: template.HTML(inlineSVG(svg.String()))})
	}
	if len(missing) > 0 {
		page.MissingNote = fmt.Sprintf("Not drawn, for want of the documents they need: %s (fprlab plot --help says what each kind reads).", strings.Join(missing, ", "))
	}
	page.TOC = page.contents()
	var out bytes.Buffer
	if err := pageTemplate.Execute(&out, page); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// captions say, per figure kind, what to read from the figure. A kind
// without an entry (one added to package plot later) gets a caption
// built from what it draws from (Caption).
var captions = map[string]string{
	"histogram": "How the error δc+δσ is distributed per backend: read where each curve lies against the 2^-46 line (left of it is within the specification's bound) and how far its right tail reaches.",
	"precision": "Error against significand precision: read where the per-signature worst crosses 2^-46; that precision is P*, marked.",
	"security":  "Security consequence of the measured errors (Rényi argument, λ = 256): read how many bits a format loses at 2^64 signing queries and up to how many queries it keeps all of them.",
	"stages":    "Error of the values each signing stage produces, per backend: read which stage the error is born in (the largest).",
	"expm":      "expm_p63's relative error over [0, ln 2) per backend, measured when this page was built: read each backend's peak against binary64's.",
	"kat":       "NIST KAT records reproduced and failed signing attempts against precision: read the least precision that reproduces every record.",
	"ops":       "Largest and median relative error of each operation per backend, with the proven bounds: read whether each backend stays below its bound.",
	"cost":      "Per-signature worst and median δc of each backend against its hardware cost (Yosys cells, LUTs, cycles: measured outside fprlab and given per backend): read the cheapest variant whose worst stays below 2^-46.",
	"diverge":   "How often two arithmetics sign the same key, message and randomness differently, with the 95 % interval, and how often the difference is the secret key: read each pair's rate against the reference C's (dyn against tree once in 27,000-34,000 signatures at n = 512) and whether any pair reveals the key.",
	"pareto":    "Cost against error of every precision plan tune measured: read the Pareto front, the chosen plan on it, and the chosen plan's width per stage.",
}

// Caption is the one-line caption of a figure of the kind, which draws
// from what needs says.
func Caption(kind, needs string) string {
	if c, ok := captions[kind]; ok {
		return c
	}
	return fmt.Sprintf("The %s figure, drawn from %s.", kind, needs)
}

// inlineSVG drops the XML declaration and comment that start a standalone
// SVG file and lets the figure scale with the page.
func inlineSVG(s string) string {
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return strings.Replace(s, "<svg ", `<svg class="figure" preserveAspectRatio="xMidYMid meet" `, 1)
}

type figure struct {
	Kind    string
	Number  int
	Caption string
	SVG     template.HTML
}

// table is one table of the page. Header cells may hold "\n", a line
// break (headers wrap there and nowhere else); Left marks the text
// columns, which are left-aligned (numbers are right-aligned).
type table struct {
	ID     string
	File   string
	Header [][]string
	Titles []string // per header cell, a tooltip ("" for none)
	Rows   [][]string
	Left   []bool
}

// newTable makes a table of the header cells; " | " in a cell separates
// its label from its tooltip.
func newTable(id, file string, header ...string) table {
	t := table{ID: id, File: file}
	for _, h := range header {
		label, tip, _ := strings.Cut(h, " | ")
		t.Header = append(t.Header, strings.Split(label, "\n"))
		t.Titles = append(t.Titles, tip)
	}
	return t
}

// numeric matches the cells that are numbers (right-aligned): digits,
// signs, separators, "–" (no value), "∞", "0 (exact)", "2^-46.1", "64 bits",
// "24..64 bits", "3 / 10", "1,000 (12)".
var numeric = regexp.MustCompile(`^(–|∞|[-+≤]?\s?(2\^)?-?[0-9][0-9.,]*( bits| / [0-9,]+)?( \(.*\))?)$`)

// align sets Left: a column is text when one of its cells is not a number.
func (t *table) align() {
	t.Left = make([]bool, len(t.Header))
	for _, r := range t.Rows {
		for i, c := range r {
			if i < len(t.Left) && !numeric.MatchString(c) {
				t.Left[i] = true
			}
		}
	}
}

// verdict is one block of the verdict box: a heading, sentences and a
// table.
type verdict struct {
	Kind      string // compare, sweep, tune, ops, diff
	Heading   string
	Sentences []string
	Table     table
}

type tocEntry struct {
	ID, Text string
	Sub      []tocEntry
}

type pageData struct {
	Title         string
	Campaign      *results.Campaign
	Verdicts      []verdict
	Diff          *results.Diff
	DiffTables    []table
	CompareTables []table
	SweepTables   []table
	TuneTables    []table
	DivergeTables []table
	OpTables      []table
	PStars        []results.PStar
	Figures       []figure
	MissingNote   string
	TOC           []tocEntry
}

// contents is the table of contents: one entry per section the page has.
func (p *pageData) contents() []tocEntry {
	toc := []tocEntry{{ID: "verdict", Text: "Verdict"}, {ID: "run", Text: "What was run"}}
	if p.Diff != nil {
		toc = append(toc, tocEntry{ID: "diff", Text: "Against the baseline"})
	}
	if len(p.PStars) > 0 {
		toc = append(toc, tocEntry{ID: "pstar", Text: "P*"})
	}
	for _, ts := range [][]table{p.CompareTables, p.SweepTables, p.TuneTables, p.DivergeTables, p.OpTables} {
		for _, t := range ts {
			toc = append(toc, tocEntry{ID: t.ID, Text: tableHeading(t)})
		}
	}
	if len(p.Figures) > 0 {
		f := tocEntry{ID: "figures", Text: "Figures"}
		for _, x := range p.Figures {
			f.Sub = append(f.Sub, tocEntry{ID: "figure-" + x.Kind, Text: fmt.Sprintf("Figure %d: %s", x.Number, x.Kind)})
		}
		toc = append(toc, f)
	}
	return toc
}

// tableHeading is the section heading of a document's table.
func tableHeading(t table) string {
	kind, _, _ := strings.Cut(t.ID, "-")
	names := map[string]string{"compare": "Compare", "sweep": "Sweep", "tune": "Tune", "diverge": "Diverge", "ops": "Operation errors"}
	return names[kind] + ": " + t.File
}

func l2(v results.Log2) string {
	switch f := float64(v); {
	case math.IsNaN(f):
		return "–"
	case math.IsInf(f, -1):
		return "0 (exact)"
	case math.IsInf(f, 1):
		return "∞"
	default:
		return fmt.Sprintf("%.2f", f)
	}
}

func num(v results.Log2) string {
	if f := float64(v); !math.IsNaN(f) && !math.IsInf(f, 0) {
		return fmt.Sprintf("%.3g", f)
	}
	return l2(v)
}

func flips(c *results.Compare) string {
	if n, ok := c.FlipsTotal(); ok {
		return results.Thousands(n)
	}
	return "–"
}

func meets(c *results.Compare) string {
	switch {
	case c.Meets246 == nil:
		return "–"
	case *c.Meets246:
		return "yes"
	}
	return "no"
}

func renyi(c *results.Compare) []string {
	if c.Renyi == nil {
		return []string{"–", "–", "–"}
	}
	return []string{l2(c.Renyi.DWorstLog2), l2(c.Renyi.MaxQueriesLog2), num(c.Renyi.BitsLostAt264)}
}

// backendCell is the name of a table row's backend, with a warning when
// its shadow was too narrow to measure it alone (--allow-weak-shadow).
// bits is the backend's precision (a sweep point's own "bits").
func backendCell(name string, bits int, c *results.Compare) string {
	if !c.WeakShadow {
		return name
	}
	return fmt.Sprintf("%s ⚠ WEAK SHADOW: the %d-bit shadow is not 24 bits wider than the backend's %d; these figures include the shadow's own error", name, c.ShadowBits, c.Bits)
}

// noSignatureRow is the row of a backend of which no signature was
// measured (a shard that holds none of the campaign's units): its
// statistics, empty, would otherwise read as an exact backend's ("0
// (exact)", no bits lost). lead are its first cells, the rest say "–".
func noSignatureRow(cells int, name string, lead ...string) []string {
	row := append([]string{name + " — no signature measured (this shard holds none of the campaign's units)"}, lead...)
	row = append(row, "0")
	for len(row) < cells {
		row = append(row, "–")
	}
	return row
}

// secondsHeader labels compare's seconds: the per-signature times of the
// shadowed signing, added up (with several workers, more than the run's
// wall-clock time).
const secondsHeader = "shadowed\nseconds | the sum of the per-signature times of shadowed signing (with several workers, more than the run's wall-clock time)"

func compareTable(i int, d results.CompareDoc) table {
	t := newTable(fmt.Sprintf("compare-%d", i), d.File, "backend", "keys\nfrom", "params", "signa-\ntures", "leaves", "attempts\n(failed)",
		"per-call\nmedian | log2 of the median over all sampler calls", "per-call\nq99", "per-call\nmax",
		"per-sig.\nmedian | log2 of the median over signatures of each signature's largest error", "per-sig.\nworst | log2 of the largest error of any signature",
		"≤ 2^-46\nper sig.", "log2 d\n(worst) | log2 of the worst-case relative error of the signature distribution (Rényi argument)",
		"log2 max\nqueries | log2 of the signing queries that keep λ = 256 bits (worst case)", "bits lost\nat 2^64 | worst case, of λ = 256", "flips", secondsHeader)
	for i := range d.Backends {
		c := &d.Backends[i]
		keys, attempts := c.KeygenBackend, "–"
		if keys == "" {
			keys = "–"
		}
		if c.Attempts != nil {
			attempts = fmt.Sprintf("%s (%s)", results.Thousands(c.Attempts.Total), results.Thousands(c.Attempts.Failed))
		}
		if c.Signatures == 0 {
			t.Rows = append(t.Rows, noSignatureRow(len(t.Header), c.Backend, keys, fmt.Sprint(c.Params)))
			continue
		}
		row := []string{backendCell(c.Backend, c.Bits, c), keys, fmt.Sprint(c.Params), results.Thousands(c.Signatures), results.Thousands(c.Leaves), attempts,
			l2(c.PerLeaf.Sum.Median), l2(c.PerLeaf.Sum.Q99), l2(c.PerLeaf.Sum.Max), l2(c.PerSignature.Sum.Median), l2(c.PerSignature.Sum.Max), meets(c)}
		row = append(row, renyi(c)...)
		row = append(row, flips(c), fmt.Sprintf("%.1f", c.Seconds))
		t.Rows = append(t.Rows, row)
	}
	t.align()
	return t
}

func opTable(i int, d results.OpErrorDoc) table {
	t := newTable(fmt.Sprintf("ops-%d", i), d.File, "backend", "operation", "samples", "max rel. error\n(log2)", "median\n(log2)", "proven bound\n(log2)", "below\nrange", "above\nrange")
	for _, o := range d.Ops {
		bound := "–"
		if o.HasBound {
			bound = fmt.Sprintf("%.2f", o.BoundLog2)
		}
		t.Rows = append(t.Rows, []string{o.Backend, o.Op, results.Thousands(int64(o.Samples)), l2(results.Log2(o.MaxRelErrLog2)), l2(results.Log2(o.MedianRelErrLog2)), bound,
			results.Thousands(int64(o.BelowRange)), results.Thousands(int64(o.AboveRange))})
	}
	t.align()
	return t
}

func sweepTable(i int, d results.SweepDoc) table {
	t := newTable(fmt.Sprintf("sweep-%d", i), d.File, "format", "bits", "params", "signa-\ntures", "per-call\nmedian", "per-sig.\nworst", "≤ 2^-46\nper sig.", "flips",
		"log2 max\nqueries | worst case, λ = 256", "bits lost\nat 2^64 | worst case, of λ = 256", "KAT\nreproduced", "failed\nattempts", secondsHeader+"; with KAT conformance, its time added")
	for i := range d.Points {
		p := &d.Points[i]
		kat, failed := "–", "–"
		if p.KAT != nil {
			kat = fmt.Sprintf("%d / %d", int(math.Round(p.KAT.PassRate()*float64(p.KAT.Records))), p.KAT.Records)
			if p.KAT.KeygenFailed > 0 {
				kat += fmt.Sprintf(" (keygen failed %d)", p.KAT.KeygenFailed)
			}
		}
		if p.Attempts != nil {
			failed = fmt.Sprintf("%s / %s", results.Thousands(p.Attempts.Failed), results.Thousands(p.Attempts.Total))
		}
		if p.Signatures == 0 {
			t.Rows = append(t.Rows, noSignatureRow(len(t.Header), p.Format, fmt.Sprint(p.Bits), fmt.Sprint(p.Params)))
			continue
		}
		r := renyi(&p.Compare)
		t.Rows = append(t.Rows, []string{backendCell(p.Format, p.Bits, &p.Compare), fmt.Sprint(p.Bits), fmt.Sprint(p.Params), results.Thousands(p.Signatures),
			l2(p.PerLeaf.Sum.Median), l2(p.PerSignature.Sum.Max), meets(&p.Compare), flips(&p.Compare), r[1], r[2], kat, failed, fmt.Sprintf("%.1f", p.Seconds)})
	}
	t.align()
	return t
}

// tuneTable lists the plans of a tune document's Pareto front and the
// uniform plan, their widths per stage, the plan's backend name last.
func tuneTable(i int, d results.TuneDoc) table {
	r := &d.Tune
	hdr := []string{"plan", "cost | " + r.CostUnit, "error\n(log2) | " + r.Statistic + " on the search's signatures", "meets\ntarget", "flips", "confirmation\n(fresh signatures)"}
	hdr = append(hdr, r.Stages...)
	hdr = append(hdr, "backend name")
	t := newTable(fmt.Sprintf("tune-%d", i), d.File, hdr...)
	plans := append([]*results.TunePlan{}, r.Pareto...)
	if r.Uniform != nil {
		plans = append(plans, r.Uniform)
	}
	for _, p := range plans {
		name := "Pareto front"
		switch {
		case p == r.Uniform:
			name = "uniform (start)"
		case r.Chosen != nil && p.Plan == r.Chosen.Plan:
			name = "chosen"
		}
		row := []string{name, fmt.Sprintf("%.4g", p.Cost), l2(p.ErrorLog2), yesNo(p.Meets), results.Thousands(p.Flips), confirmation(p)}
		for _, w := range p.Widths {
			row = append(row, fmt.Sprint(w))
		}
		t.Rows = append(t.Rows, append(row, p.Plan))
	}
	t.align()
	return t
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// confirmation says how a plan fared on the fresh signatures.
func confirmation(p *results.TunePlan) string {
	c := p.Confirmation
	if c == nil {
		return "not confirmed"
	}
	v := "holds"
	if !c.Meets || c.Flips > 0 {
		v = "misses"
	}
	return fmt.Sprintf("%s: %s on %s, %s flips", v, pow2(c.ErrorLog2), results.Thousands(int64(c.Signatures)), results.Thousands(c.Flips))
}
