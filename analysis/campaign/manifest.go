package campaign

import (
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/internal/shellword"
	"github.com/fprlab/fprlab/scheme"
)

// A campaign directory's manifest (results.ManifestName) is what `fprlab
// report --in DIR` reads to say what was run: the command, the document it
// wrote, the sample sizes and the time. compare, sweep and merge describe
// their run from the campaign's configuration and summaries (WriteManifest);
// tune, whose result is no summary, fills in its run itself
// (WriteRunManifest). Both live here, beside the directories they
// describe, so that every command's manifest has the same form.

// WriteManifest writes dir's manifest for the command argv ("fprlab
// compare ...": its words are kept as they are, "argv", and as one line a
// shell splits back into them, "command", package shellword), titled
// "fprlab WHAT, KEYS": its output document, the program's version, the
// campaign's inputs (seed or KAT records, scheme, key source), the largest
// signature count of sums and the sum of their measured times.
func WriteManifest(dir, what string, argv []string, output, version string, cfg shadow.Config, sums []*shadow.Summary) error {
	run := results.Run{Command: shellword.Join(argv), Argv: argv, Output: output, Version: version, Seed: cfg.Seed}
	run.Scheme = cfg.SchemeName()
	run.KeySource = string(cfg.KeySourceOf())
	if cfg.KATMode() {
		run.Seed, run.KATRecords = "", fmt.Sprintf("%d:%d", cfg.KATFrom, cfg.KATTo)
	}
	for _, s := range sums {
		run.Signatures = max(run.Signatures, int64(s.Signatures))
		run.Seconds += s.Seconds
	}
	return WriteRunManifest(dir, fmt.Sprintf("fprlab %s, %s", what, scheme.KeysTitle(cfg.SchemeName(), 1<<cfg.LogN, run.KeySource)), run)
}

// WriteRunManifest writes dir's manifest holding the one run, under title;
// the manifest's version is the run's (run.Version, the program's).
func WriteRunManifest(dir, title string, run results.Run) error {
	m := results.Manifest{Title: title, Version: run.Version, Runs: []results.Run{run}}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteFile(filepath.Join(dir, results.ManifestName), append(data, '\n'))
}
