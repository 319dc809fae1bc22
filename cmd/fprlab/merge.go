package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/analysis/diverge"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/version"
	"github.com/spf13/cobra"
)

// mergeOptions holds the flags of merge.
type mergeOptions struct {
	Dirs []string
	Out  string
	JSON bool
}

const mergeLong = `merge combines the campaign directories of the shards of one compare,
sweep or diverge run (compare|sweep|diverge --shard I/N --out DIR_I, I from 0 to N-1) into one
new directory. For compare it holds the summary a single process would have
computed: the summary depends only on the records, so the merged result
equals, field for field, that of one process running the whole campaign with
the same flags (apart from "seconds", the sum of the measured times). For
sweep it holds every format's point, each from the shard that measured it;
for diverge, the counts, rate and differing pairs of the whole campaign.
The shards must come from the same command, flags and version (their
run.json); missing and duplicated shards are named by index, a unit recorded
by two shards or missing from all is an error, and nothing is counted twice.
--out must not be one of the shard directories.`

func newMergeCmd(s *cli.Streams) *cobra.Command {
	opts := &mergeOptions{}
	cmd := &cobra.Command{
		Use:   "merge DIR... --out DIR",
		Short: "Combine the shard directories of a compare, sweep or diverge campaign into one",
		Long:  mergeLong,
		Args:  cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dirs = args
			return runMerge(cmd.Context(), opts, s)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Out, "out", "", "the merged campaign `DIR` (new or empty)")
	f.BoolVar(&opts.JSON, "json", false, "print the merged result as compare --json, sweep --json or diverge --json does")
	return cmd
}

// runMerge checks the shards, unites their records and writes the result.
func runMerge(_ context.Context, opts *mergeOptions, s *cli.Streams) error {
	if opts.Out == "" {
		return errors.New("missing --out DIR")
	}
	if d := campaign.SameDir(opts.Out, opts.Dirs); d != "" {
		return fmt.Errorf("--out %s is the input directory %s: merge into a new directory", opts.Out, d)
	}
	if diverge.IsDir(opts.Dirs[0]) {
		return mergeDiverge(opts, s)
	}
	if campaign.IsSweep(opts.Dirs[0]) {
		m, err := campaign.MergeSweep(opts.Dirs, opts.Out, version.Release())
		if err != nil {
			return err
		}
		if err := campaign.WriteManifest(opts.Out, "sweep (merged from "+strconv.Itoa(m.Shards)+" shards)", s.CommandArgv("merge"), "sweep.json", version.Release(), m.Config, m.Summaries); err != nil {
			return err
		}
		if opts.JSON {
			_, err := s.Out.Write(m.Document)
			return err
		}
		return campaign.WriteSweepText(s.Out, m.Points, m.References)
	}
	m, err := campaign.Merge(opts.Dirs, opts.Out, lookupBackend)
	if err != nil {
		return err
	}
	if err := campaign.WriteManifest(opts.Out, "compare (merged from "+strconv.Itoa(m.Shards)+" shards)", s.CommandArgv("merge"), "summary.json", version.Release(), m.Config, m.Summaries); err != nil {
		return err
	}
	if opts.JSON {
		return cli.PrintJSON(s.Out, m.Summaries)
	}
	return campaign.WriteCompareText(s.Out, m.Summaries)
}
