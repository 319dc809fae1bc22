package campaign

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
	"github.com/fprlab/fprlab/arith/plan"
	"github.com/fprlab/fprlab/falcon"
	"github.com/fprlab/fprlab/internal/shard"
	"github.com/fprlab/fprlab/scheme"
)

// CompareIdentity is what determines a compare campaign's results (its
// run.json): a directory is resumed, and shards are merged, only under the
// same identity.
type CompareIdentity struct {
	Command    string   `json:"command"`
	Version    string   `json:"version"`
	Backends   []string `json:"backends"`
	Params     int      `json:"params"`
	Signatures int      `json:"signatures,omitempty"`
	Keys       int      `json:"keys,omitempty"`
	Seed       string   `json:"seed,omitempty"`
	KATRecords string   `json:"kat_records,omitempty"`
	Shadow     string   `json:"shadow"`
	OracleBits uint     `json:"oracle_bits,omitempty"`
	ExactSigma string   `json:"exact_sigma"`
	// Acceptance is the sampler's acceptance test when it is not the
	// reference's BerExp.
	Acceptance string `json:"acceptance,omitempty"`
	// Scheme is "fn-dsa" for an FN-DSA campaign (absent: round 3).
	Scheme string `json:"scheme,omitempty"`
	// KeySource is "fn-dsa" for an FN-DSA campaign signing with FN-DSA's
	// own keys; absent: round 3's keys (an FN-DSA campaign with
	// --key-source falcon, and every one written before the field).
	KeySource string `json:"key_source,omitempty"`
	// Mode is "tree" for a campaign signing by the reference's
	// falcon_sign_tree (absent: falcon_sign_dyn, as every campaign made
	// before the choice).
	Mode string `json:"mode,omitempty"`
	// Shard is "I/N" for one shard of a campaign split over N processes.
	Shard string `json:"shard,omitempty"`
	// TriwordNames is the meaning of the triword backend names
	// (TriwordNames; absent: the old names, see CheckResumable).
	TriwordNames int `json:"triword_names,omitempty"`
	// Plugins are the plugin libraries of the backends with their
	// SHA-256 (PluginLibraries).
	Plugins []string `json:"plugins,omitempty"`
}

// NewCompareIdentity is the identity of the compare campaign cfg over the
// backends named, written by version; katRecords is the --kat-records
// value as given ("FROM:TO"), which a KAT campaign's identity keeps.
func NewCompareIdentity(cfg shadow.Config, backends []string, katRecords, version string) (CompareIdentity, error) {
	id := CompareIdentity{Command: "compare", Version: version, Params: 1 << cfg.LogN,
		Signatures: cfg.Signatures, Keys: cfg.Keys, Seed: cfg.Seed, Shadow: string(cfg.Shadow), OracleBits: cfg.OracleBits, ExactSigma: string(cfg.Sigma)}
	if cfg.Acceptance != nil {
		id.Acceptance = cfg.Acceptance.Name()
	}
	id.Scheme = cfg.SchemeName()
	id.KeySource = KeySource(cfg)
	id.Mode = cfg.ModeName()
	if cfg.KATMode() {
		id.Seed, id.Keys, id.KATRecords = "", 0, katRecords
	}
	if cfg.Shadow != shadow.ShadowOracle {
		id.OracleBits = 0 // not used by the dd shadow
	}
	id.Shard = ShardName(cfg.Shard, cfg.Shards)
	id.Backends = backends
	id.TriwordNames = TriwordNames(id.Backends)
	var err error
	id.Plugins, err = PluginLibraries(id.Backends)
	return id, err
}

// ShardName is "I/N" for shard i of n > 1, "" for a campaign run whole
// (shard.Name).
func ShardName(i, n int) string { return shard.Name(i, n) }

// ReadCompareIdentity reads a compare campaign directory's run.json.
func ReadCompareIdentity(dir string) (CompareIdentity, error) {
	var id CompareIdentity
	data, err := shadow.ReadRunFile(dir)
	if err != nil {
		return id, fmt.Errorf("%s is not a compare campaign directory: %w", dir, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&id); err != nil || id.Command != "compare" {
		return id, fmt.Errorf("%s/run.json is not a compare campaign's identity", dir)
	}
	return id, nil
}

// Config rebuilds the campaign configuration from its identity.
func (id CompareIdentity) Config() (shadow.Config, error) {
	var logn uint
	switch id.Params {
	case 512:
		logn = 9
	case 1024:
		logn = 10
	default:
		return shadow.Config{}, fmt.Errorf("--params %d: want 512 or 1024 (the NIST KAT exists for these degrees only)", id.Params)
	}
	sc, err := scheme.Lookup(id.Scheme)
	if err != nil {
		return shadow.Config{}, err
	}
	cfg := shadow.Config{LogN: logn, Signatures: id.Signatures, Keys: id.Keys, Seed: id.Seed,
		OracleBits: id.OracleBits, Shadow: shadow.Kind(id.Shadow), Sigma: shadow.ExactSigma(id.ExactSigma),
		Scheme: sc, KeySource: shadow.KeySource(id.KeySource)}
	if cfg.OracleBits == 0 {
		cfg.OracleBits = 256
	}
	if id.Mode != "" {
		if cfg.Mode, err = falcon.ParseMode(id.Mode); err != nil || cfg.Mode == falcon.Dyn {
			return shadow.Config{}, fmt.Errorf("mode %q: want tree (or no mode, dyn)", id.Mode)
		}
	}
	if id.Acceptance != "" {
		var err error
		if cfg.Acceptance, err = ParseAcceptance(id.Acceptance); err != nil {
			return shadow.Config{}, err
		}
	}
	if id.KATRecords != "" {
		a, b, _ := strings.Cut(id.KATRecords, ":")
		cfg.KATFrom, _ = strconv.Atoi(a)
		cfg.KATTo, _ = strconv.Atoi(b)
	}
	return cfg, cfg.Check()
}

// SweepIdentity is what determines a sweep directory's results (its
// run.json).
type SweepIdentity struct {
	Command    string   `json:"command"`
	Version    string   `json:"version"`
	Formats    []string `json:"formats"`
	References int      `json:"references"`
	KAT        int      `json:"kat"`
	Params     int      `json:"params"`
	Signatures int      `json:"signatures,omitempty"`
	Keys       int      `json:"keys,omitempty"`
	Seed       string   `json:"seed,omitempty"`
	KATRecords string   `json:"kat_records,omitempty"`
	Shadow     string   `json:"shadow"`
	OracleBits uint     `json:"oracle_bits,omitempty"`
	ExactSigma string   `json:"exact_sigma"`
	Shard      string   `json:"shard,omitempty"`
	// TriwordNames: as CompareIdentity's.
	TriwordNames int `json:"triword_names,omitempty"`
	// Scheme is "fn-dsa" for an FN-DSA sweep (absent: round 3, so that
	// the run.json of a round-3 sweep is what it was before FN-DSA).
	Scheme string `json:"scheme,omitempty"`
	// KeySource: as CompareIdentity's.
	KeySource string `json:"key_source,omitempty"`
	// Plugins: as CompareIdentity's (of the formats and references).
	Plugins []string `json:"plugins,omitempty"`
}

// NewSweepIdentity is the identity of a sweep of the formats (the first
// references of them the reference backends) under cfg, with kat KAT
// records of conformance per format, shard shardI of shardN (the format
// shards; cfg itself is not sharded), written by version; katRecords as
// NewCompareIdentity's.
func NewSweepIdentity(cfg shadow.Config, formats []string, references, kat, shardI, shardN int, katRecords, version string) (SweepIdentity, error) {
	id := SweepIdentity{Command: "sweep", Version: version, KAT: kat, References: references, Params: 1 << cfg.LogN, Signatures: cfg.Signatures, Keys: cfg.Keys,
		Seed: cfg.Seed, KATRecords: katRecords, Shadow: string(cfg.Shadow), ExactSigma: string(cfg.Sigma)}
	id.Shard = ShardName(shardI, shardN)
	id.Scheme = cfg.SchemeName()
	id.KeySource = KeySource(cfg)
	if cfg.Shadow == shadow.ShadowOracle {
		id.OracleBits = cfg.OracleBits
	}
	if cfg.KATMode() {
		id.Signatures, id.Keys, id.Seed = 0, 0, ""
	}
	id.Formats = formats
	id.TriwordNames = TriwordNames(id.Formats)
	var err error
	id.Plugins, err = PluginLibraries(id.Formats)
	return id, err
}

// Compare is the identity of the compare campaign each format of the
// sweep is measured as, for the configuration its manifest describes.
func (id SweepIdentity) Compare() CompareIdentity {
	return CompareIdentity{Command: "compare", Params: id.Params, Signatures: id.Signatures, Keys: id.Keys, Seed: id.Seed,
		KATRecords: id.KATRecords, Shadow: id.Shadow, OracleBits: id.OracleBits, ExactSigma: id.ExactSigma}
}

// KeySource is the key_source of a campaign directory's run.json:
// the scheme's name for its own keys ("fn-dsa" for FN-DSA's), ""
// (absent) for round 3's, which keeps the run.json of a round-3 campaign,
// and of an FN-DSA campaign with round-3 keys, what it was before the
// field existed.
func KeySource(cfg shadow.Config) string {
	if ks := cfg.KeySourceOf(); ks != shadow.KeysFalcon {
		return string(ks)
	}
	return ""
}

// TriwordNames is the names revision a run.json records for these backend
// names: arith.TriwordNamesRevision when one of them is a triword backend,
// else 0 (omitted), so that the run.json of a campaign over other backends
// is what it was before the revision and such campaigns still resume.
//
// Documents and campaign directories record which meaning their triword
// backend names have: a run.json naming a triword backend carries
// "triword_names", a compare summary "names_revision". Without it, the
// names are revision 1's, where "triword" meant today's
// "triword-b64const" (see arith.LegacyName).
func TriwordNames(names []string) int {
	for _, n := range names {
		if strings.HasPrefix(n, "triword") {
			return arith.TriwordNamesRevision
		}
	}
	return 0
}

// PluginLibraries lists the plugin libraries the backends named load -- a
// so: backend, or a so: stage of a plan -- each as "so:ARG sha256:HEX", the
// SHA-256 of its file now, sorted. A campaign directory's identity holds
// them (run.json's "plugins"): a library rebuilt or replaced since is
// another arithmetic, whose runs must not be resumed into, or reported
// as, the records of the old one.
func PluginLibraries(names []string) ([]string, error) {
	var out []string
	for _, name := range names {
		var args []string
		switch {
		case strings.HasPrefix(name, "so:"):
			args = []string{name}
		case strings.HasPrefix(name, "plan:"):
			p, err := plan.Parse(strings.TrimPrefix(name, "plan:"))
			if err != nil {
				return nil, err
			}
			if args, err = p.Foreign(); err != nil {
				return nil, err
			}
		}
		for _, a := range args {
			arg, ok := strings.CutPrefix(a, "so:")
			if !ok {
				continue
			}
			sum, err := cabi.LibraryDigest(arg)
			if err != nil {
				return nil, err
			}
			out = append(out, a+" sha256:"+sum)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// IdentityDiff names the flags in which the identity of a directory
// differs from the first directory's, with both values.
func IdentityDiff(dir, first any) string {
	d, err := shadow.IdentityDiff([]byte(jsonText(dir)), []byte(jsonText(first)))
	if err != nil {
		return "command, flags or version differ"
	}
	return strings.NewReplacer("this run", "the first").Replace(d)
}

// jsonText is the JSON text of an identity (which always marshals).
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
