package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
)

// Documents and campaign directories record which meaning their triword
// backend names have (arith.TriwordNamesRevision): a run.json naming a triword
// backend carries "triword_names", a compare summary "names_revision".
// Without it, the names are revision 1's, where "triword" meant today's
// "triword-b64const" (see arith.LegacyName).

// triwordNames is the names revision a run.json records for these backend
// names: arith.TriwordNamesRevision when one of them is a triword backend, else
// 0 (omitted), so that the run.json of a campaign over other backends is
// what it was before the revision and such campaigns still resume.
func triwordNames(names []string) int {
	for _, n := range names {
		if strings.HasPrefix(n, "triword") {
			return arith.TriwordNamesRevision
		}
	}
	return 0
}

// checkResumable refuses to resume dir when its run.json was written
// before the triword names were revised and names a backend whose meaning
// changed: its records are of another arithmetic than today's backend of
// that name; and an FN-DSA campaign whose keys come from another source
// than cfg's (checkKeySource). A directory without run.json is new.
func checkResumable(dir string, cfg shadow.Config) error {
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("campaign directory: %w", err)
	}
	if err := legacyDirError(dir, data); err != nil {
		return err
	}
	return checkKeySource(dir, data, cfg)
}

// legacyDirError is checkResumable's test of a run.json's contents; nil
// when the names mean today what they meant when it was written (or the
// file is no identity at all: OpenCampaign then refuses it).
func legacyDirError(dir string, runJSON []byte) error {
	var id struct {
		Backends     []string `json:"backends"`
		Formats      []string `json:"formats"`
		TriwordNames int      `json:"triword_names"`
	}
	if json.Unmarshal(runJSON, &id) != nil || id.TriwordNames >= arith.TriwordNamesRevision {
		return nil
	}
	for _, n := range append(id.Backends, id.Formats...) {
		if err := arith.LegacyNameError(n); err != nil {
			return fmt.Errorf("%s cannot be resumed: its run.json has no triword_names, so it was written under the old names: %w; "+
				"its records stay readable with fprlab report, but new runs need another --out directory", dir, err)
		}
	}
	return nil
}

// noteRenamed says on stderr which backends of the documents read were
// written under the old triword names and what they are called now.
func noteRenamed(s *streams, c *results.Campaign) {
	for _, r := range c.Renamed {
		fmt.Fprintf(s.Err, "note: %s\n", r)
	}
}
