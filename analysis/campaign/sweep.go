package campaign

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/internal/safefile"
)

// A sweep directory holds one compare campaign per format (FormatDir),
// each format's finished result (PointFile) and the sweep document
// (sweep.json, SweepDocument).

// PointFile is a format's finished result in a sweep directory: a
// checkpoint (internal/checkpoint: checksummed, bound to the format and
// to the sweep directory's run.json), so that a damaged or edited result
// is refused instead of reported.
const PointFile = "point.json"

// FormatDir is the compare directory of a format in a sweep directory.
func FormatDir(out, format string) string {
	return filepath.Join(out, strings.NewReplacer(":", "_", "=", "_", ",", "_", "/", "_").Replace(format))
}

// pointIdentity is the checkpoint identity of a format's result in the
// sweep whose run.json has the SHA-256 sweepRun.
func pointIdentity(format, sweepRun, version string) checkpoint.Identity {
	return checkpoint.Identity{Command: "sweep", Flags: map[string]string{"format": format, "sweep-run-sha256": sweepRun}, Version: version}
}

// LoadPoint reads a format's finished result in its directory dir, if
// there is one.
func LoadPoint(dir, format, sweepRun, version string) (*shadow.Point, bool, error) {
	var pt shadow.Point
	ok, err := checkpoint.Load(filepath.Join(dir, PointFile), pointIdentity(format, sweepRun, version), &pt)
	if err != nil || !ok {
		return nil, false, err
	}
	if pt.Summary == nil || pt.Format != format {
		return nil, false, fmt.Errorf("%s/%s does not hold the result of %s (remove it to measure the format again)", dir, PointFile, format)
	}
	return &pt, true, nil
}

// SavePoint writes a format's finished result into its directory dir.
func SavePoint(dir string, pt *shadow.Point, sweepRun, version string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return checkpoint.Save(filepath.Join(dir, PointFile), pointIdentity(pt.Format, sweepRun, version), pt)
}

// readerPoints converts measured points to the reader's form (package
// results), through their JSON.
func readerPoints(points []shadow.Point) ([]results.Point, error) {
	data, err := json.Marshal(points)
	if err != nil {
		return nil, err
	}
	var rp []results.Point
	if err := json.Unmarshal(data, &rp); err != nil {
		return nil, err
	}
	return rp, nil
}

// SweepDocument is the JSON text of sweep --json and of DIR/sweep.json
// (results.SweepDocument): the points and their P*. A shard's document
// names its shard and has no P*, which needs every format.
func SweepDocument(points []shadow.Point, shard string) ([]byte, error) {
	doc := struct {
		Formats []shadow.Point       `json:"formats"`
		PStar   []results.PStarEntry `json:"pstar"`
		Shard   string               `json:"shard,omitempty"`
	}{Formats: points, PStar: []results.PStarEntry{}, Shard: shard}
	if doc.Formats == nil {
		doc.Formats = []shadow.Point{}
	}
	if shard == "" {
		rp, err := readerPoints(points)
		if err != nil {
			return nil, err
		}
		doc.PStar = results.PStarEntries(rp)
	}
	data, err := json.MarshalIndent(doc, "", "  ")
	return append(data, '\n'), err
}

// PStars is P* of the points past the first refs (the reference
// backends), as results computes it from the sweep document.
func PStars(points []shadow.Point, refs int) ([]results.PStar, error) {
	rp, err := readerPoints(points)
	if err != nil {
		return nil, err
	}
	return results.PStars(rp[refs:]), nil
}

// WriteFile writes a campaign file (safefile's atomic write), creating
// its directory.
func WriteFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return safefile.WriteFiles(io.Discard, safefile.File{Path: path, Data: data})
}

// Sweep measures the formats of a sweep in turn: each is one compare
// campaign (Measure, in the format's directory FormatDir when Dir is
// set), then, when KAT > 0, the NIST KAT conformance of its first KAT
// records; a format whose finished result is in its directory
// (LoadPoint) is taken from there, and each new result is saved there
// before the next format starts.
type Sweep struct {
	Config shadow.Config
	// Backends are the formats measured, the References reference
	// backends first.
	Backends   []arith.Backend
	References int
	KAT        int
	// Dir is the sweep directory ("" for none) and Run the SHA-256 of its
	// run.json, to which each format's result is bound.
	Dir, Run string
	Version  string
	// ShardI and ShardN: the formats measured are those whose index is
	// ShardI modulo ShardN (every one when ShardN <= 1).
	ShardI, ShardN int
	// Measure runs the compare campaign of backend b with cfg in the
	// directory dir ("" for none) and returns its summary.
	Measure func(ctx context.Context, cfg shadow.Config, b arith.Backend, dir string) (*shadow.Summary, error)
	// Measured, if set, hears each format's point as it is finished (i is
	// the format's index in Backends).
	Measured func(i int, pt *shadow.Point)
}

// Points measures the sweep's formats and returns their points, in the
// order of Backends.
func (s *Sweep) Points(ctx context.Context) ([]shadow.Point, error) {
	var points []shadow.Point
	for i, b := range s.Backends {
		if s.ShardN > 1 && i%s.ShardN != s.ShardI {
			continue
		}
		pt, err := s.point(ctx, b, i < s.References)
		if err != nil {
			return nil, fmt.Errorf("format %s: %w", b.Name, err)
		}
		if s.Measured != nil {
			s.Measured(i, pt)
		}
		points = append(points, *pt)
	}
	return points, nil
}

// point measures one format (or reference backend).
func (s *Sweep) point(ctx context.Context, b arith.Backend, reference bool) (*shadow.Point, error) {
	rounding := FormatRounding(b.Name)
	if reference {
		rounding = "reference"
	}
	pt := &shadow.Point{Format: b.Name, Bits: b.Bits, ExpBits: b.ExpBits, Rounding: rounding}
	var dir string
	if s.Dir != "" {
		dir = FormatDir(s.Dir, b.Name)
		if cached, ok, err := LoadPoint(dir, b.Name, s.Run, s.Version); err != nil || ok {
			return cached, err
		}
	}
	sum, err := s.Measure(ctx, s.Config, b, dir)
	if err != nil {
		return nil, err
	}
	pt.Summary = sum
	if s.KAT > 0 {
		t0 := time.Now()
		k, err := shadow.KATConformance(ctx, b, s.Config.LogN, s.KAT)
		if err != nil {
			return nil, err
		}
		pt.KAT = k
		pt.Seconds += time.Since(t0).Seconds()
	}
	if dir != "" {
		if err := SavePoint(dir, pt, s.Run, s.Version); err != nil {
			return nil, err
		}
	}
	return pt, nil
}
