package tune

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith/oracle"
	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/internal/safefile"
	"github.com/fprlab/fprlab/internal/shellword"
	"github.com/fprlab/fprlab/scheme"
)

// A search's output directory holds its checkpoint (every finished
// evaluation, so that an interrupted search resumes without measuring a
// plan twice), its result and the manifest report reads.
const (
	CheckpointName = "evaluations.json"
	ResultName     = "result.json"
)

// dirFiles are the files a search keeps in its directory.
var dirFiles = []string{CheckpointName, ResultName, results.ManifestName}

// dirCheckpoint is the payload of the checkpoint.
type dirCheckpoint struct {
	Evaluations []*Evaluation `json:"evaluations"`
}

// Resume makes dir the output directory of the search cfg describes, run
// by a program of version version, and returns the path of its
// checkpoint. It refuses a directory holding files a search does not write
// (checkDir) and a checkpoint of another search, naming the difference;
// otherwise it sets cfg.Have to the evaluations the checkpoint holds and
// cfg.Done to add each new one to it, so that Search resumes where an
// earlier run of the same search stopped.
func Resume(dir string, cfg *Config, version string) (string, error) {
	if err := checkDir(dir); err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("--out %s: %w", dir, err)
	}
	path := filepath.Join(dir, CheckpointName)
	if err := checkKeySource(dir, path, *cfg); err != nil {
		return "", err
	}
	id := Identity(*cfg, version)
	ck := &dirCheckpoint{}
	if _, err := checkpoint.Load(path, id, ck); err != nil {
		return "", err
	}
	have := map[string]*Evaluation{}
	for _, e := range ck.Evaluations {
		if e == nil {
			return "", fmt.Errorf("%s: an empty evaluation", path)
		}
		have[e.Key()] = e
	}
	cfg.Have = func(k string) (*Evaluation, bool) { e, ok := have[k]; return e, ok }
	cfg.Done = func(e *Evaluation) error {
		ck.Evaluations = append(ck.Evaluations, e)
		return checkpoint.Save(path, id, ck)
	}
	return path, nil
}

// Save writes the search's result to dir (ResultName, the document
// --json prints, returned) and the manifest `fprlab report --in DIR` reads
// to say what was run, as compare and sweep write theirs: the command argv
// of the search cfg, run by a program of version version, with its sample
// sizes and measured time. With dir empty nothing is written.
func Save(dir string, res *Result, cfg Config, argv []string, version string) ([]byte, error) {
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil || dir == "" {
		return append(data, '\n'), err
	}
	data = append(data, '\n')
	if err := campaign.WriteFile(filepath.Join(dir, ResultName), data); err != nil {
		return nil, err
	}
	run := results.Run{Command: shellword.Join(argv), Argv: argv, Output: ResultName, Version: version, Seed: cfg.Seed,
		Signatures: int64(cfg.Signatures), Seconds: res.MeasuredSeconds,
		Note:      fmt.Sprintf("%d plans on %d signatures each, %d confirmations on %d fresh signatures", len(res.Evaluations), res.Signatures, res.Confirmations, res.Confirm),
		KeySource: res.KeySource}
	if !scheme.IsDefault(cfg.Scheme) {
		run.Scheme = res.Scheme
	}
	return data, campaign.WriteRunManifest(dir, "fprlab tune, "+scheme.KeysTitle(res.Scheme, res.Params, res.KeySource), run)
}

// Identity names the search a directory belongs to. The scheme is in it
// for FN-DSA only, so that a round-3 directory written before --scheme
// existed still resumes, and neither scheme's directory resumes as the
// other's; the key source likewise for FN-DSA's own keys only (as in a
// comparison's run.json, campaign.KeySource), so that an FN-DSA directory
// of round-3 keys written before --key-source existed resumes with
// --key-source falcon.
func Identity(cfg Config, version string) checkpoint.Identity {
	flags := map[string]string{
		"params": strconv.Itoa(1 << cfg.LogN), "target": strconv.FormatFloat(cfg.TargetLog2, 'g', -1, 64), "margin": strconv.FormatFloat(cfg.MarginBits, 'g', -1, 64),
		"statistic": string(cfg.Statistic), "seed": cfg.Seed, "keys": strconv.Itoa(cfg.Keys), "format": cfg.Format,
	}
	if !scheme.IsDefault(cfg.Scheme) {
		flags["scheme"] = cfg.Scheme.Name()
	}
	if ks := keySource(cfg); ks != "" {
		flags["key_source"] = ks
	}
	return checkpoint.Identity{Command: "tune", Flags: flags, Version: version}
}

// keySource is the key source of the identity: campaign.KeySource of the
// search's campaigns.
func keySource(cfg Config) string {
	return campaign.KeySource(shadow.Config{Scheme: cfg.Scheme, KeySource: cfg.KeySource})
}

// checkKeySource refuses to resume the directory dir whose checkpoint
// (path) signs FN-DSA with keys from another source than cfg's, naming the
// --key-source that resumes it, as a comparison does
// (campaign.KeySourceRefusal); checkpoint.Load would refuse it with a bare
// difference of flags. A missing or unreadable checkpoint is left to
// checkpoint.Load.
func checkKeySource(dir, path string, cfg Config) error {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	data, err := safefile.ReadJSON(nil, path, checkpoint.MaxSize)
	if err != nil {
		return nil
	}
	var env struct {
		Identity checkpoint.Identity `json:"identity"`
	}
	if json.Unmarshal(data, &env) != nil || env.Identity.Command != "tune" {
		return nil
	}
	f := env.Identity.Flags
	return campaign.KeySourceRefusal(dir, filepath.Base(path), f["scheme"], f["key_source"], cfg.Scheme, keySource(cfg))
}

// checkDir refuses a directory holding anything a search does not write
// there (a compare or sweep campaign, say): the search would add its
// files beside that campaign's, and report would then read both as one. A
// missing or empty directory, or one of an earlier search, is fine.
func checkDir(dir string) error {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("--out %s: %w", dir, err)
	}
	for _, e := range ents {
		name := e.Name()
		if slices.Contains(dirFiles, name) || (strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp")) {
			continue
		}
		return fmt.Errorf("--out %s holds %s, which tune does not write (a compare or sweep directory?): give tune a directory of its own", dir, name)
	}
	return nil
}

// FormatTemplate is the stage format template of a search (Config.Format,
// "vprec:%d" and a suffix) for the exponent width exp (0: unbounded) and
// rounding (rn, rz or sr=SEED) of --exp and --rounding.
func FormatTemplate(exp int, rounding string) (string, error) {
	if _, _, err := oracle.ParseRounding(rounding); err != nil {
		return "", fmt.Errorf("--rounding: %w", err)
	}
	if exp != 0 && (exp < oracle.MinExpBits || exp > oracle.MaxExpBits) {
		return "", fmt.Errorf("--exp %d: want %d <= E <= %d", exp, oracle.MinExpBits, oracle.MaxExpBits)
	}
	return "vprec:%d" + campaign.VprecSuffix(exp, rounding), nil
}
