package report

import (
	"html/template"
	"strings"
)

// cellClass is the class of a table cell: "t" for a text column, with
// "ok" or "bad" added for a verdict ("✔ meets", "✘ fails", "now fails").
func cellClass(left bool, cell string) string {
	var c []string
	if left {
		c = append(c, "t")
	}
	switch {
	case strings.HasPrefix(cell, "✔"), cell == "now meets", cell == "vanished":
		c = append(c, "ok")
	case strings.HasPrefix(cell, "✘"), cell == "now fails", cell == "appeared":
		c = append(c, "bad")
	}
	return strings.Join(c, " ")
}

// pageTemplate is the whole page. The script comes first in <head> so
// that it sees every later error; it writes "ok" or the first error into
// the hidden #report-status element (for the browser test; a reader sees
// it only when a script failed) and never loads anything.
var pageTemplate = template.Must(template.New("page").Funcs(template.FuncMap{"cellClass": cellClass}).Parse(`{{define "table"}}<div class="scroll"><table>
<tr>{{range $i, $h := .Header}}<th{{if index $.Left $i}} class="t"{{end}}{{with index $.Titles $i}} title="{{.}}"{{end}}>{{range $j, $l := $h}}{{if $j}}<br>{{end}}{{$l}}{{end}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range $i, $c := .}}<td{{with cellClass (index $.Left $i) $c}} class="{{.}}"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</table></div>{{end}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<script>
(function () {
  var failed = null;
  function show(text) {
    var el = document.getElementById("report-status");
    if (el) {
      el.textContent = text;
      el.setAttribute("data-status", failed ? "error" : "ok");
      el.hidden = !failed;
    }
  }
  window.addEventListener("error", function (e) {
    if (!failed) { failed = "error: " + (e.message || "resource failed to load"); show(failed); }
  }, true);
  window.addEventListener("load", function () {
    if (!failed && document.querySelectorAll("svg.figure").length !== {{len .Figures}}) {
      failed = "error: figures missing";
    }
    show(failed || "ok");
  });
})();
</script>
<style>
body { font-family: "Liberation Serif", "Times New Roman", Times, serif; margin: 2em auto; max-width: 1360px; color: #111; background: #fff; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ccc; } h3 { font-size: 1.05em; margin: 1.2em 0 0.3em; }
.scroll { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 0.6em 0 1em; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; vertical-align: top; }
th { background: #eef; white-space: nowrap; font-weight: 600; }
th.t, td.t { text-align: left; }
td.t { max-width: 40em; overflow-wrap: anywhere; }
td.ok { color: #075; font-weight: bold; } td.bad { color: #b00; font-weight: bold; }
th[title] { text-decoration: underline dotted #889; cursor: help; }
code { font-size: 0.9em; background: #f4f4f4; padding: 0 0.2em; }
figure { margin: 1.5em 0; }
figcaption { font-size: 0.92em; color: #333; }
svg.figure { width: 100%; height: auto; display: block; margin: 0.5em 0; }
.note { color: #555; font-size: 0.9em; }
#verdict { border: 2px solid #557; background: #f6f7fb; padding: 0.4em 1.2em 0.8em; margin: 1em 0 2em; }
#verdict h2 { margin-top: 0.4em; border: none; }
#verdict table { background: #fff; }
nav ol { margin: 0.3em 0; } nav li { margin: 0.1em 0; }
#report-status { color: #a00; font-weight: bold; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p id="report-status" data-status="pending" hidden>scripts not run</p>
<section id="verdict">
<h2>Verdict</h2>
{{range .Verdicts}}<div class="verdict" data-kind="{{.Kind}}">
<h3>{{.Heading}}</h3>
{{if .Table.Rows}}{{template "table" .Table}}{{end}}
{{range .Sentences}}<p>{{.}}</p>
{{end}}</div>
{{end}}</section>
<nav id="contents"><h2>Contents</h2><ol>
{{range .TOC}}<li><a href="#{{.ID}}">{{.Text}}</a>{{with .Sub}}<ol>{{range .}}<li><a href="#{{.ID}}">{{.Text}}</a></li>{{end}}</ol>{{end}}</li>
{{end}}</ol></nav>
<h2 id="run">What was run</h2>
{{with .Campaign.Manifest}}
<p>Version: <code>{{.Version}}</code></p>
{{if .Notes}}<p class="note">{{.Notes}}</p>{{end}}
<div class="scroll"><table>
<tr><th class="t">command</th><th class="t">output</th><th class="t">version</th><th class="t">seed</th><th>signatures</th><th class="t">KAT records</th><th title="the run's measured time: for compare and sweep the sum of the per-signature times of shadowed signing">seconds</th><th class="t">note</th></tr>
{{range .Runs}}<tr><td class="t"><code>{{.Command}}</code></td><td class="t">{{.Output}}</td><td class="t">{{.Version}}</td><td class="t">{{.Seed}}</td><td>{{if .Signatures}}{{.Signatures}}{{end}}</td><td class="t">{{.KATRecords}}</td><td>{{if .Seconds}}{{printf "%.1f" .Seconds}}{{end}}</td><td class="t">{{.Note}}</td></tr>
{{end}}</table></div>
{{else}}
<p class="note">This directory has no manifest.json: the commands, versions and seeds of these results are not recorded.</p>
{{end}}
{{if .Diff}}
<h2 id="diff">Against the baseline</h2>
<p class="note">Baseline <code>{{.Diff.A}}</code>, this campaign <code>{{.Diff.B}}</code>. Changes are this campaign's log2 less the baseline's: a positive change is a larger error.</p>
{{range .DiffTables}}{{template "table" .}}{{end}}
{{end}}
{{if .PStars}}
<h2 id="pstar">P*: the least significand precision that suffices</h2>
<p class="note">P* is the least swept precision at which the criterion holds there and at every larger swept precision of the same curve (Falcon degree, rounding, exponent width). "≤ P" means it already holds at the lowest precision swept.</p>
<div class="scroll"><table>
<tr><th class="t">curve</th><th class="t">criterion</th><th>P*</th><th>swept</th><th>signatures per format</th></tr>
{{range .PStars}}<tr><td class="t">{{.Curve}}</td><td class="t">{{.Criterion.Describe}}</td><td>{{.}}</td><td>{{.MinBits}}..{{.MaxBits}} bits</td><td>{{.Signatures}}</td></tr>
{{end}}</table></div>
{{end}}
{{range .CompareTables}}
<h2 id="{{.ID}}">Compare: {{.File}}</h2>
<p class="note">Errors are log2 of δc + δσ against the exact shadow (double-double or the big-float oracle, as each document's "shadow" field says); "per-call" statistics are over all sampler calls (the contract's per_leaf), "per-sig." over the maximum of each signature's calls. The Rényi columns are worst-case figures for λ = 256; "shadowed seconds" adds up the per-signature times of shadowed signing.</p>
{{template "table" .}}
{{end}}
{{range .SweepTables}}
<h2 id="{{.ID}}">Sweep: {{.File}}</h2>
{{template "table" .}}
{{end}}
{{range .TuneTables}}
<h2 id="{{.ID}}">Tune: {{.File}}</h2>
<p class="note">The plans of the Pareto front (cost, error) that meet the target, and the uniform plan the descent started from, with their widths per stage.</p>
{{template "table" .}}
{{end}}
{{range .DivergeTables}}
<h2 id="{{.ID}}">Diverge: {{.File}}</h2>
<p class="note">Every differing pair: where the two runs first part (signing attempt, sampler call, decision), the structure of the s2 difference (c x^k f or c x^k F is the secret key: <code>fprlab leak</code> recovers it), and which side signed as exact arithmetic would.</p>
{{template "table" .}}
{{end}}
{{range .OpTables}}
<h2 id="{{.ID}}">Operation errors: {{.File}}</h2>
{{template "table" .}}
{{end}}
{{if .Figures}}<h2 id="figures">Figures</h2>
{{range .Figures}}<figure id="figure-{{.Kind}}">{{.SVG}}<figcaption><b>Figure {{.Number}}.</b> {{.Caption}}</figcaption></figure>
{{end}}{{end}}
{{if .MissingNote}}<p class="note">{{.MissingNote}}</p>{{end}}
{{with .Campaign.Renamed}}<p class="note">Backends written under the old triword names:</p><ul class="note">{{range .}}<li>{{.String}}</li>{{end}}</ul>{{end}}
{{with .Campaign.Skipped}}<p class="note">Files skipped:</p><ul class="note">{{range .}}<li>{{.File}}: {{.Reason}}</li>{{end}}</ul>{{end}}
</body>
</html>
`))
