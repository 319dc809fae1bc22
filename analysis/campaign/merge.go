package campaign

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
)

// Merged is the result of Merge and MergeSweep: the united campaign's
// configuration, its summaries (one per backend, or per format) and the
// number of shards.
type Merged struct {
	Config    shadow.Config
	Summaries []*shadow.Summary
	Shards    int
	// Sweep only: the points of every format, the number of reference
	// backends among them, and the sweep document written to out.
	Points     []shadow.Point
	References int
	Document   []byte
}

// IsSweep reports whether dir holds a sweep (its run.json says so); a
// directory whose run.json cannot be read is taken for a compare
// campaign, which Merge then refuses with a message.
func IsSweep(dir string) bool {
	var head struct {
		Command string `json:"command"`
	}
	data, err := shadow.ReadRunFile(dir)
	return err == nil && json.Unmarshal(data, &head) == nil && head.Command == "sweep"
}

// SameDir returns the directory of dirs that out names (the same path, or
// the same directory reached another way), "" if none.
func SameDir(out string, dirs []string) string {
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

// Merge unites the compare campaign directories of the shards of one run
// into the new directory out: their identities must agree but for the
// shard, the shards cover 0..N-1 once each, no unit is recorded twice and
// none is missing. The merged directory receives each shard's segments
// bound to its own run, and the summaries (written to out) are their
// merged aggregates -- field for field those of one process running the
// whole campaign, apart from the measured time. lookup resolves the
// backend names of the identity.
func Merge(dirs []string, out string, lookup func(string) (arith.Backend, error)) (*Merged, error) {
	var ref CompareIdentity
	var shardStr []string
	for i, d := range dirs {
		id, err := ReadCompareIdentity(d)
		if err != nil {
			return nil, err
		}
		shardStr = append(shardStr, id.Shard)
		bare := id
		bare.Shard = ""
		if i == 0 {
			ref = bare
		} else if jsonText(ref) != jsonText(bare) {
			return nil, fmt.Errorf("%s belongs to another run than %s (%s)", d, dirs[0], IdentityDiff(bare, ref))
		}
	}
	shards, err := CheckShards(dirs, shardStr)
	if err != nil {
		return nil, err
	}
	cfg, err := ref.Config()
	if err != nil {
		return nil, err
	}
	// The shards are read under their shared locks (a shard still being
	// written is refused) and one segment at a time.
	var shardCamps []*shadow.Campaign
	defer func() {
		for _, c := range shardCamps {
			c.Close()
		}
	}()
	for _, d := range dirs {
		c, _, err := shadow.ReadCampaign(d)
		if err != nil {
			return nil, err
		}
		shardCamps = append(shardCamps, c)
	}
	oc, err := shadow.OpenCampaign(out, ref)
	if err != nil {
		return nil, err
	}
	defer oc.Close()
	m := &Merged{Config: cfg, Shards: shards}
	for _, name := range ref.Backends {
		b, err := lookup(name)
		if err != nil {
			return nil, err
		}
		if have, err := oc.Load(name); err != nil || have.Keygens.Len()+have.Signatures.Len() > 0 {
			if err != nil {
				return nil, err
			}
			return nil, fmt.Errorf("%s already holds records of %s: merge into a new directory", out, name)
		}
		all := &shadow.Finished{Aggregate: shadow.NewAggregate()}
		for _, c := range shardCamps {
			err := c.Segments(name, func(seg *shadow.Segment) error {
				if err := all.Add(seg); err != nil {
					return fmt.Errorf("%s: %v (the second time in %s)", name, err, c.Dir())
				}
				return oc.WriteSegment(name, seg)
			})
			if err != nil {
				return nil, err
			}
		}
		if err := CheckComplete(cfg, &all.Signatures); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		sum := all.Aggregate.Summary(name, cfg)
		Finish(sum, cfg, b)
		if sum.Certified, err = shardsCertified(dirs, name); err != nil {
			return nil, err
		}
		m.Summaries = append(m.Summaries, sum)
	}
	if err := oc.Flush(); err != nil {
		return nil, err
	}
	return m, oc.WriteSummary(m.Summaries)
}

// shardsCertified returns the certificate (compare --certify) of backend
// in the shards' summaries: a certificate depends on the campaign's keys
// and the backend alone, so every shard of a run with --certify holds the
// same one, which the merged summary keeps. A run without --certify (no
// shard has one) gives nil; shards that disagree are an error. A shard
// without summary.json (removed, or never finished and merged from its
// records) says nothing either way.
func shardsCertified(dirs []string, backend string) (*shadow.Certified, error) {
	var first *shadow.Certified
	seen := false
	for _, d := range dirs {
		sums, err := shadow.ReadSummaryFile(d)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var c *shadow.Certified
		for _, s := range sums {
			if s.Backend == backend {
				c = s.Certified
			}
		}
		switch {
		case !seen:
			first, seen = c, true
		case (first == nil) != (c == nil) || (c != nil && *c != *first):
			return nil, fmt.Errorf("%s: the certified bound of %s (compare --certify) differs from the other shards': merge shards of one run", d, backend)
		}
	}
	return first, nil
}

// MergeSweep unites the formats of a sweep's shards into the new
// directory out and writes its sweep.json. Each format's result is read
// from the checksummed point.json of the shard that measures it (format i
// belongs to shard i mod N), bound to that shard's run.json; the shards'
// sweep.json documents are not read. version is the program's, which the
// points' checkpoints name.
func MergeSweep(dirs []string, out, version string) (*Merged, error) {
	var ref SweepIdentity
	var shardStr []string
	runs := map[string]string{} // shard I/N -> the SHA-256 of its run.json
	dirOf := map[string]string{}
	for i, d := range dirs {
		c, data, err := shadow.ReadCampaign(d)
		if err != nil {
			return nil, err
		}
		defer c.Close()
		var id SweepIdentity
		dec := json.NewDecoder(strings.NewReader(string(data)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&id); err != nil || id.Command != "sweep" {
			return nil, fmt.Errorf("%s/run.json is not a sweep's identity", d)
		}
		shardStr = append(shardStr, id.Shard)
		runs[id.Shard], dirOf[id.Shard] = c.Run().String(), d
		id.Shard = ""
		if i == 0 {
			ref = id
		} else if a, b := jsonText(ref), jsonText(id); a != b {
			return nil, fmt.Errorf("%s belongs to another sweep than %s (%s)", d, dirs[0], IdentityDiff(id, ref))
		}
	}
	n, err := CheckShards(dirs, shardStr)
	if err != nil {
		return nil, err
	}
	m := &Merged{Shards: n, References: ref.References}
	for i, f := range ref.Formats {
		sh := fmt.Sprintf("%d/%d", i%n, n)
		p, ok, err := LoadPoint(FormatDir(dirOf[sh], f), f, runs[sh], version)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("format %s has no result in %s (shard %s did not finish: rerun its command)", f, dirOf[sh], sh)
		}
		m.Points = append(m.Points, *p)
	}
	oc, err := shadow.OpenCampaign(out, ref)
	if err != nil {
		return nil, err
	}
	defer oc.Close()
	if m.Document, err = SweepDocument(m.Points, ""); err != nil {
		return nil, err
	}
	if err := WriteFile(filepath.Join(out, "sweep.json"), m.Document); err != nil {
		return nil, err
	}
	// The configuration, as a sweep run in one process describes it in
	// its manifest: report --in reads the merged directory like any other.
	if m.Config, err = ref.Compare().Config(); err != nil {
		return nil, err
	}
	for i := range m.Points {
		m.Summaries = append(m.Summaries, m.Points[i].Summary)
	}
	return m, nil
}
