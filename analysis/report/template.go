package report

import "html/template"

// pageTemplate is the whole page. The script comes first in <head> so
// that it sees every later error; it writes "ok" or the first error into
// #report-status and never loads anything.
var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
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
    if (el) { el.textContent = text; el.setAttribute("data-status", failed ? "error" : "ok"); }
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
body { font-family: "Liberation Serif", "Times New Roman", serif; margin: 2em auto; max-width: 1100px; color: #111; background: #fff; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.3em; margin-top: 2em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; }
th { background: #eef; } td:first-child, th:first-child { text-align: left; }
code { font-size: 0.9em; background: #f4f4f4; padding: 0 0.2em; }
svg.figure { width: 100%; height: auto; display: block; margin: 1em 0; }
.note { color: #555; font-size: 0.9em; }
#report-status { color: #888; font-size: 0.8em; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p id="report-status" data-status="pending">scripts not run</p>
{{with .Campaign.Manifest}}
<h2>What was run</h2>
<p>Version: <code>{{.Version}}</code></p>
{{if .Notes}}<p class="note">{{.Notes}}</p>{{end}}
<table>
<tr><th>command</th><th>output</th><th>version</th><th>seed</th><th>signatures</th><th>KAT records</th><th>seconds</th><th>note</th></tr>
{{range .Runs}}<tr><td><code>{{.Command}}</code></td><td>{{.Output}}</td><td>{{.Version}}</td><td>{{.Seed}}</td><td>{{if .Signatures}}{{.Signatures}}{{end}}</td><td>{{.KATRecords}}</td><td>{{if .Seconds}}{{printf "%.1f" .Seconds}}{{end}}</td><td>{{.Note}}</td></tr>
{{end}}</table>
{{else}}
<p class="note">This directory has no manifest.json: the commands, versions and seeds of these results are not recorded.</p>
{{end}}
{{if .PStars}}
<h2>P*: the least significand precision that suffices</h2>
<p class="note">P* is the least swept precision at which the criterion holds there and at every larger swept precision of the same curve (Falcon degree, rounding, exponent width). "≤ P" means it already holds at the lowest precision swept.</p>
<table>
<tr><th>curve</th><th>criterion</th><th>P*</th><th>swept</th><th>signatures per format</th></tr>
{{range .PStars}}<tr><td>{{.Curve}}</td><td>{{.Criterion.Describe}}</td><td>{{.}}</td><td>{{.MinBits}}..{{.MaxBits}} bits</td><td>{{.Signatures}}</td></tr>
{{end}}</table>
{{end}}
{{range .CompareTables}}
<h2>Compare: {{.File}}</h2>
<p class="note">Errors are log2 of δc + δσ against the exact shadow (double-double or the big-float oracle, as each document's "shadow" field says); "per-call" statistics are over all sampler calls (the contract's per_leaf), "per-signature" over the maximum of each signature's calls.</p>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{range .SweepTables}}
<h2>Sweep: {{.File}}</h2>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
{{range .OpTables}}
<h2>Operation errors: {{.File}}</h2>
<table><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</table>
{{end}}
<h2>Figures</h2>
{{range .Figures}}<div id="figure-{{.Kind}}">{{.SVG}}</div>
{{end}}
{{if .Missing}}<p class="note">Figures the documents do not support:</p><ul class="note">{{range .Missing}}<li>{{.}}</li>{{end}}</ul>{{end}}
{{with .Campaign.Renamed}}<p class="note">Backends written under the old triword names:</p><ul class="note">{{range .}}<li>{{.String}}</li>{{end}}</ul>{{end}}
{{with .Campaign.Skipped}}<p class="note">Files skipped:</p><ul class="note">{{range .}}<li>{{.File}}: {{.Reason}}</li>{{end}}</ul>{{end}}
</body>
</html>
`))
