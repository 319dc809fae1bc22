package campaign

import (
	"context"
	"time"

	"fmt"

	"github.com/fprlab/fprlab/analysis/shadow"
	"github.com/fprlab/fprlab/arith"
)

// Compare is a compare campaign: Config measured over each of Backends in
// turn, in the campaign directory Dir when it is set (created, or resumed
// without losing a finished unit).
type Compare struct {
	Config   shadow.Config
	Backends []arith.Backend
	// Dir is the campaign directory, "" to keep nothing. KATRecords is
	// the --kat-records value as given and Version the program's, for the
	// directory's identity (NewCompareIdentity); SegmentUnits the size of
	// its segments (0: shadow.DefaultSegmentUnits).
	Dir          string
	KATRecords   string
	Version      string
	SegmentUnits int
	// Progress, when not nil, gives the progress function of a
	// backend's run (shadow.Config.Progress) and a function called when
	// the run ends.
	Progress func(backend string) (progress func(done, total int), stop func())
	// Annotate, when not nil, adds to each backend's summary before it is
	// written (compare --certify's bound).
	Annotate func(sum *shadow.Summary, b arith.Backend) error
	// Notice, when not nil, hears what resuming the directory repaired
	// (shadow.Campaign.Notice).
	Notice func(msg string)
	// Measured, when not nil, is called with each backend's summary, the
	// number of its signatures signed in this run (the others were read
	// from the directory's earlier runs) and the time the run took.
	Measured func(sum *shadow.Summary, signed int, elapsed time.Duration)
}

// Run runs the campaign and returns one summary per backend, each folded
// from the records as they arrive (and from the directory's aggregates on
// a resume): memory does not grow with the number of signatures. With a
// directory the summaries are written to it too. An interrupted run (ctx
// cancelled) returns an error once the records finished so far are on
// disk.
func (c *Compare) Run(ctx context.Context) ([]*shadow.Summary, error) {
	var camp *shadow.Campaign
	if c.Dir != "" {
		var names []string
		for _, b := range c.Backends {
			names = append(names, b.Name)
		}
		id, err := NewCompareIdentity(c.Config, names, c.KATRecords, c.Version)
		if err != nil {
			return nil, err
		}
		if err := CheckResumable(c.Dir, c.Config); err != nil {
			return nil, err
		}
		if camp, err = shadow.OpenCampaign(c.Dir, id); err != nil {
			return nil, err
		}
		if c.SegmentUnits > 0 {
			camp.SegmentUnits = c.SegmentUnits
		}
		camp.Notice = c.Notice
		defer camp.Close()
	}
	var sums []*shadow.Summary
	for _, b := range c.Backends {
		sum, err := c.measure(ctx, camp, b)
		if err != nil {
			return nil, err
		}
		sums = append(sums, sum)
	}
	if camp != nil {
		if err := camp.WriteSummary(sums); err != nil {
			return nil, err
		}
	}
	return sums, nil
}

// measure runs the campaign over one backend.
func (c *Compare) measure(ctx context.Context, camp *shadow.Campaign, b arith.Backend) (*shadow.Summary, error) {
	cfg := c.Config
	agg := shadow.NewAggregate()
	if camp != nil {
		fin, err := camp.Load(b.Name)
		if err != nil {
			return nil, err
		}
		agg = fin.Aggregate
		cfg.Have = fin.Have
	}
	signed := 0
	cfg.Done = func(r *shadow.Record) error { // serialised by Stream
		agg.Add(r)
		if r.Kind == "signature" {
			signed++
		}
		if camp != nil {
			return camp.Append(b.Name, r)
		}
		return nil
	}
	stop := func() {}
	if c.Progress != nil {
		cfg.Progress, stop = c.Progress(b.Name)
	}
	t0 := time.Now()
	err := shadow.Stream(ctx, b, cfg)
	stop()
	if err != nil {
		return nil, fmt.Errorf("backend %s: %w", b.Name, err)
	}
	if camp != nil {
		if err := camp.Flush(); err != nil {
			return nil, err
		}
	}
	sum := agg.Summary(b.Name, c.Config)
	Finish(sum, c.Config, b)
	if c.Measured != nil {
		c.Measured(sum, signed, time.Since(t0))
	}
	if c.Annotate != nil {
		if err := c.Annotate(sum, b); err != nil {
			return nil, fmt.Errorf("backend %s: %w", b.Name, err)
		}
	}
	return sum, nil
}
