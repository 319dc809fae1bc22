package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/shadow"
)

// mergeOptions holds the flags of merge.
type mergeOptions struct {
	Dirs []string
	Out  string
	JSON bool
}

const mergeLong = `merge combines the campaign directories of the shards of one compare or
sweep run (compare|sweep --shard I/N --out DIR_I, I from 0 to N-1) into one
new directory. For compare it holds the summary a single process would have
computed: the summary depends only on the records, so the merged result
equals, field for field, that of one process running the whole campaign with
the same flags (apart from "seconds", the sum of the measured times). For
sweep it holds every format's point, each from the shard that measured it.
The shards must come from the same command, flags and version (their
run.json); missing and duplicated shards are named by index, a unit recorded
by two shards or missing from all is an error, and nothing is counted twice.
--out must not be one of the shard directories.`

func newMergeCmd(s *streams) *cobra.Command {
	opts := &mergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge DIR... --out DIR",
		Short: "Combine the shard directories of a compare or sweep campaign into one",
		Long:  mergeLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dirs = args
			return runMerge(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Out, "out", "", "the merged campaign `DIR` (new or empty)")
	f.BoolVar(&opts.JSON, "json", false, "print the merged result as compare --json or sweep --json does")
	return cmd
}

// readIdentity reads a campaign directory's run.json.
func readIdentity(dir string) (compareIdentity, error) {
	var id compareIdentity
	data, err := os.ReadFile(filepath.Join(dir, "run.json"))
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

// configOf rebuilds the campaign configuration from its identity.
func configOf(id compareIdentity) (shadow.Config, error) {
	logn, err := katDegreeLogn(strconv.Itoa(id.Params))
	if err != nil {
		return shadow.Config{}, err
	}
	cfg := shadow.Config{LogN: logn, Signatures: id.Signatures, Keys: id.Keys, Seed: id.Seed,
		OracleBits: id.OracleBits, Shadow: shadow.ShadowKind(id.Shadow), Sigma: shadow.ExactSigma(id.ExactSigma),
		Scheme: shadow.Scheme(id.Scheme), KeySource: shadow.KeySource(id.KeySource)}
	if cfg.OracleBits == 0 {
		cfg.OracleBits = 256
	}
	if id.Acceptance != "" {
		if cfg.Acceptance, err = parseAcceptance(id.Acceptance); err != nil {
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

// runMerge checks the shards, unites their records and writes the result.
func runMerge(ctx context.Context, opts *mergeOptions, s *streams) error {
	if opts.Out == "" {
		return errors.New("missing --out DIR")
	}
	if d := sameDir(opts.Out, opts.Dirs); d != "" {
		return fmt.Errorf("--out %s is the input directory %s: merge into a new directory", opts.Out, d)
	}
	var head struct {
		Command string `json:"command"`
	}
	if data, err := os.ReadFile(filepath.Join(opts.Dirs[0], "run.json")); err == nil && json.Unmarshal(data, &head) == nil && head.Command == "sweep" {
		return runMergeSweep(opts, s)
	}
	var ref compareIdentity
	var shardStr []string
	for i, d := range opts.Dirs {
		id, err := readIdentity(d)
		if err != nil {
			return err
		}
		shardStr = append(shardStr, id.Shard)
		bare := id
		bare.Shard = ""
		if i == 0 {
			ref = bare
		} else if jsonText(ref) != jsonText(bare) {
			return fmt.Errorf("%s belongs to another run than %s (%s)", d, opts.Dirs[0], identityDiff(bare, ref))
		}
	}
	shards, err := shardSet(opts.Dirs, shardStr)
	if err != nil {
		return err
	}
	cfg, err := configOf(ref)
	if err != nil {
		return err
	}
	// The shards are read under their shared locks (a shard still being
	// written is refused) and one segment at a time: the merged directory
	// receives each shard's segments bound to its own run, and the summary
	// is their merged aggregate.
	var shardCamps []*shadow.Campaign
	defer func() {
		for _, c := range shardCamps {
			c.Close()
		}
	}()
	for _, d := range opts.Dirs {
		c, _, err := shadow.ReadCampaign(d)
		if err != nil {
			return err
		}
		shardCamps = append(shardCamps, c)
	}
	out, err := shadow.OpenCampaign(opts.Out, ref)
	if err != nil {
		return err
	}
	defer out.Close()
	var sums []*shadow.Summary
	for _, name := range ref.Backends {
		b, err := lookupBackend(name)
		if err != nil {
			return err
		}
		if have, err := out.Load(name); err != nil || have.Keygens.Len()+have.Signatures.Len() > 0 {
			if err != nil {
				return err
			}
			return fmt.Errorf("%s already holds records of %s: merge into a new directory", opts.Out, name)
		}
		all := &shadow.Finished{Aggregate: shadow.NewAggregate()}
		for _, c := range shardCamps {
			err := c.Segments(name, func(seg *shadow.Segment) error {
				if err := all.Add(seg); err != nil {
					return fmt.Errorf("%s: %v (the second time in %s)", name, err, c.Dir())
				}
				return out.WriteSegment(name, seg)
			})
			if err != nil {
				return err
			}
		}
		if err := checkComplete(cfg, &all.Signatures); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		sum := all.Aggregate.Summary(name, cfg)
		sum.KeygenBackend = cfg.KeygenBackendOf(b)
		sum.Bits, sum.ExpBits = b.Bits, b.ExpBits
		markWeakShadow(sum)
		sums = append(sums, sum)
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if err := out.WriteSummary(sums); err != nil {
		return err
	}
	if err := writeManifestArgv(opts.Out, "compare (merged from "+strconv.Itoa(shards)+" shards)", s.commandArgv("merge"), "summary.json", cfg, sums); err != nil {
		return err
	}
	if opts.JSON {
		return printJSON(s.Out, sums)
	}
	return printCompare(s.Out, sums)
}

// sameDir returns the directory of dirs that out names (the same path, or
// the same directory reached another way), "" if none.
func sameDir(out string, dirs []string) string {
	oa, _ := filepath.Abs(out)
	ost, oerr := os.Stat(out)
	for _, d := range dirs {
		if da, _ := filepath.Abs(d); da == oa {
			return d
		}
		if st, err := os.Stat(d); err == nil && oerr == nil && os.SameFile(st, ost) {
			return d
		}
	}
	return ""
}

// checkComplete reports signatures of the campaign that no shard
// recorded.
func checkComplete(cfg shadow.Config, have *shadow.UnitSet) error {
	var want []int
	if cfg.KATMode() {
		for i := cfg.KATFrom; i < cfg.KATTo; i++ {
			want = append(want, i)
		}
	} else {
		for i := range cfg.Signatures {
			want = append(want, i)
		}
	}
	var miss []string
	for _, i := range want {
		if !have.Has(i) {
			miss = append(miss, strconv.Itoa(i))
		}
	}
	if len(miss) > 0 {
		if len(miss) > 10 {
			miss = append(miss[:10], "...")
		}
		return fmt.Errorf("%d signatures missing (a shard did not finish: rerun it with the same command): %s", len(miss), strings.Join(miss, ", "))
	}
	return nil
}

// shardSet checks that the shard strings "I/N" of dirs cover 0..N-1 once
// each, and returns N.
func shardSet(dirs, shards []string) (int, error) {
	n := -1
	seen := map[int][]string{}
	for i, sh := range shards {
		var si, sn int
		if _, err := fmt.Sscanf(sh, "%d/%d", &si, &sn); err != nil {
			return 0, fmt.Errorf("%s is not a shard (no --shard I/N in its run.json)", dirs[i])
		}
		if n >= 0 && sn != n {
			return 0, fmt.Errorf("%s is a shard of %d, %s of %d", dirs[i], sn, dirs[0], n)
		}
		n = sn
		seen[si] = append(seen[si], dirs[i])
	}
	var missing, dup []string
	for i := range n {
		switch len(seen[i]) {
		case 0:
			missing = append(missing, strconv.Itoa(i))
		case 1:
		default:
			dup = append(dup, fmt.Sprintf("%d (%s)", i, strings.Join(seen[i], ", ")))
		}
	}
	if len(dup) > 0 {
		return 0, fmt.Errorf("shards given twice: %s", strings.Join(dup, "; "))
	}
	if len(missing) > 0 {
		return 0, fmt.Errorf("missing shards of %d: %s", n, strings.Join(missing, ", "))
	}
	return n, nil
}

// runMergeSweep unites the formats of a sweep's shards. Each format's
// result is read from the checksummed point.json of the shard that
// measures it (format i belongs to shard i mod N), bound to that shard's
// run.json; the shards' sweep.json documents are not read.
func runMergeSweep(opts *mergeOptions, s *streams) error {
	var ref sweepIdentity
	var shardStr []string
	runs := map[string]string{} // shard I/N -> the SHA-256 of its run.json
	dirOf := map[string]string{}
	for i, d := range opts.Dirs {
		c, data, err := shadow.ReadCampaign(d)
		if err != nil {
			return err
		}
		defer c.Close()
		var id sweepIdentity
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&id); err != nil || id.Command != "sweep" {
			return fmt.Errorf("%s/run.json is not a sweep's identity", d)
		}
		shardStr = append(shardStr, id.Shard)
		runs[id.Shard], dirOf[id.Shard] = c.Run().String(), d
		id.Shard = ""
		if i == 0 {
			ref = id
		} else if a, b := jsonText(ref), jsonText(id); a != b {
			return fmt.Errorf("%s belongs to another sweep than %s (%s)", d, opts.Dirs[0], identityDiff(id, ref))
		}
	}
	n, err := shardSet(opts.Dirs, shardStr)
	if err != nil {
		return err
	}
	var points []shadow.Point
	for i, f := range ref.Formats {
		sh := fmt.Sprintf("%d/%d", i%n, n)
		p, ok, err := loadPoint(sweepFormatDir(dirOf[sh], f), f, runs[sh])
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("format %s has no result in %s (shard %s did not finish: rerun its command)", f, dirOf[sh], sh)
		}
		points = append(points, *p)
	}
	out, err := shadow.OpenCampaign(opts.Out, ref)
	if err != nil {
		return err
	}
	defer out.Close()
	doc, err := sweepDocument(points, "")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(opts.Out, "sweep.json"), doc); err != nil {
		return err
	}
	// The manifest, as a sweep run in one process writes it: report --in
	// reads the merged directory like any other.
	cfg, err := configOf(compareIdentity{Command: "compare", Params: ref.Params, Signatures: ref.Signatures, Keys: ref.Keys, Seed: ref.Seed,
		KATRecords: ref.KATRecords, Shadow: ref.Shadow, OracleBits: ref.OracleBits, ExactSigma: ref.ExactSigma})
	if err != nil {
		return err
	}
	sums := make([]*shadow.Summary, len(points))
	for i := range points {
		sums[i] = points[i].Summary
	}
	if err := writeManifestArgv(opts.Out, "sweep (merged from "+strconv.Itoa(n)+" shards)", s.commandArgv("merge"), "sweep.json", cfg, sums); err != nil {
		return err
	}
	if opts.JSON {
		_, err := s.Out.Write(doc)
		return err
	}
	return printSweep(s.Out, points, ref.References)
}

// identityDiff names the flags in which the identity of a directory
// differs from the first directory's, with both values.
func identityDiff(dir, first any) string {
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
