package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/scheme"
)

// CheckResumable refuses to resume dir when its run.json was written
// before the triword names were revised and names a backend whose meaning
// changed: its records are of another arithmetic than today's backend of
// that name; and an FN-DSA campaign whose keys come from another source
// than cfg's. A directory without run.json is new.
func CheckResumable(dir string, cfg shadow.Config) error {
	data, err := shadow.ReadRunFile(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("campaign directory: %w", err)
	}
	if err := LegacyDirError(dir, data); err != nil {
		return err
	}
	var id struct {
		Scheme    string `json:"scheme"`
		KeySource string `json:"key_source"`
	}
	if json.Unmarshal(data, &id) != nil {
		return nil
	}
	return KeySourceRefusal(dir, "run.json", id.Scheme, id.KeySource, cfg.SchemeOf(), KeySource(cfg))
}

// LegacyDirError is CheckResumable's test of a run.json's contents; nil
// when the names mean today what they meant when it was written (or the
// file is no identity at all: shadow.OpenCampaign then refuses it).
func LegacyDirError(dir string, runJSON []byte) error {
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

// KeySourceRefusal refuses to resume dir, whose identity file (run.json,
// evaluations.json) records scheme and key source have, with key source
// want (KeySource's form: the scheme's name for its own keys, "" for
// round 3's), and says which --key-source resumes it
// (shadow.OpenCampaign would refuse it too, with a bare difference of
// identities); nil unless both are runs of sc, a scheme with key
// generation of its own, whose key sources differ.
func KeySourceRefusal(dir, file, schemeName, have string, sc scheme.Scheme, want string) error {
	switch {
	case scheme.IsDefault(sc) || schemeName != sc.Name() || sc.KeySeedSize() == 0 || have == want:
		return nil
	case have == "":
		return fmt.Errorf("%s signs %s with round 3's keys (its %s has no key_source, as every %s run made before %s key generation): resume it with --key-source falcon, or use another --out for %s's keys",
			dir, sc.Description(), file, sc.Description(), sc.Description(), sc.Description())
	case have == string(shadow.KeysOf(sc)):
		return fmt.Errorf("%s signs %s with %s's own keys (key_source %s in its %s): resume it without --key-source falcon (or with --key-source %s), or use another --out for round 3's keys",
			dir, sc.Description(), sc.Description(), have, file, have)
	}
	return fmt.Errorf("%s has key_source %q in its %s, which this version does not know: use another --out directory", dir, have, file)
}
