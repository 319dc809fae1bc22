// Package report builds the HTML page of a precision campaign: one
// self-contained file (styles, figures as inline SVG and a small script
// inline; nothing loaded from the network) with what was run, the tables
// of every compare and sweep document, every figure the documents
// support, and the P* answers.
//
// The page carries a status element (#report-status) that its inline
// script sets to "ok" once the page has loaded, or to the first script
// error; the browser test reads it from headless Chromium's DOM.
package report

import (
	"bytes"
	"errors"
	"fmt"
	"html/template"
	"math"
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
}

// Build renders the campaign's page.
func Build(c *results.Campaign, o Options) ([]byte, error) {
	if c.Manifest == nil && o.RequireManifest {
		return nil, fmt.Errorf("%s: no %s saying what was run (command, version, seeds, sample sizes)", c.Dir, results.ManifestName)
	}
	if len(c.Compares)+len(c.Sweeps)+len(c.OpErrors)+len(c.Tunes) == 0 {
		return nil, fmt.Errorf("%s: %w: no compare, sweep or arith errors documents", c.Dir, results.ErrNoData)
	}
	page := pageData{Campaign: c, Title: "fprlab campaign"}
	if c.Manifest != nil && c.Manifest.Title != "" {
		page.Title = c.Manifest.Title
	}
	for _, d := range c.Compares {
		page.CompareTables = append(page.CompareTables, compareTable(d))
	}
	for _, d := range c.Sweeps {
		page.SweepTables = append(page.SweepTables, sweepTable(d))
	}
	for _, d := range c.OpErrors {
		page.OpTables = append(page.OpTables, opTable(d))
	}
	page.PStars = results.PStars(c.PrecisionPoints())
	for _, k := range plot.Kinds {
		f, err := plot.Draw(k.Kind, c, o.Plot)
		if errors.Is(err, results.ErrNoData) {
			page.Missing = append(page.Missing, fmt.Sprintf("%s: needs %s", k.Kind, k.Needs))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("figure %s: %w", k.Kind, err)
		}
		var svg bytes.Buffer
		if err := f.Write(&svg, "svg"); err != nil {
			return nil, err
		}
		page.Figures = append(page.Figures, figure{Kind: string(k.Kind), SVG: template.HTML(inlineSVG(svg.String()))})
	}
	var out bytes.Buffer
	if err := pageTemplate.Execute(&out, page); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
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
	Kind string
	SVG  template.HTML
}

type table struct {
	File   string
	Header []string
	Rows   [][]string
}

type pageData struct {
	Title         string
	Campaign      *results.Campaign
	CompareTables []table
	SweepTables   []table
	OpTables      []table
	PStars        []results.PStar
	Figures       []figure
	Missing       []string
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

func compareTable(d results.CompareDoc) table {
	t := table{File: d.File, Header: []string{"backend", "keys from", "params", "signatures", "leaves", "attempts (failed)", "per-call median", "per-call q99", "per-call max", "per-signature median", "per-signature worst", "≤ 2^-46", "log2 d (worst)", "log2 max queries", "bits lost at 2^64", "flips", "seconds"}}
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
	return t
}

func opTable(d results.OpErrorDoc) table {
	t := table{File: d.File, Header: []string{"backend", "operation", "samples", "max rel. error (log2)", "median (log2)", "proven bound (log2)", "below range", "above range"}}
	for _, o := range d.Ops {
		bound := "–"
		if o.BoundLog2 != nil {
			bound = fmt.Sprintf("%.2f", *o.BoundLog2)
		}
		t.Rows = append(t.Rows, []string{o.Backend, o.Op, results.Thousands(o.Samples), l2(o.MaxRelErrLog2), l2(o.MedianRelErrLog2), bound, results.Thousands(o.BelowRange), results.Thousands(o.AboveRange)})
	}
	return t
}

func sweepTable(d results.SweepDoc) table {
	t := table{File: d.File, Header: []string{"format", "bits", "params", "signatures", "per-call median", "per-signature worst", "≤ 2^-46", "flips", "log2 max queries", "bits lost at 2^64", "KAT reproduced", "failed attempts", "seconds"}}
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
	return t
}
