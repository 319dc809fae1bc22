package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/campaign"
	"github.com/fprlab/fprlab/internal/cli"
)

// recordsDumpOptions holds the flags of records dump.
type recordsDumpOptions struct {
	Dir     string
	Backend string
}

const recordsDumpLong = `records dump prints the records of a compare campaign directory (compare
--out DIR, a sweep's DIR/FORMAT, a merged directory) as one JSON document:

  {"dir": DIR, "run": <run.json>, "files": [{"file": "records-B.seg",
    "segments": [{"run_sha256", "backend", "keygen_units", "signature_units",
                  "aggregate": {...}}, ...]}, ...]}

Each segment is the aggregate of the units it lists: the exact histograms
(bins of 1/16 bit as [bin, count] pairs, exact log2 extremes), counts,
smallest margins, the first flips with their units and positions, and the
stage statistics with their first appearance (the layout is documented in
analysis/shadow/segment.go). Every segment is checked as a resume would
check it -- checksum, the directory's run, its backend -- and the directory
is read under a shared lock. The output is written as it is read: its size
follows the directory's, memory does not.`

func newRecordsCmd(s *cli.Streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "records",
		Short: "Read the records of campaign directories",
		// Run without a subcommand: see cli.RequireSubcommand.
	}
	opts := &recordsDumpOptions{}
	dump := &cobra.Command{
		Use:   "dump DIR [--backend B]",
		Short: "Print a campaign directory's record segments as JSON",
		Long:  recordsDumpLong,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dir = args[0]
			return runRecordsDump(cmd.Context(), opts, s)
		},
	}
	dump.Flags().StringVar(&opts.Backend, "backend", "", "only this backend's records (default: every records file)")
	cmd.AddCommand(dump)
	return cmd
}

// runRecordsDump prints the directory's segments as JSON
// (campaign.DumpRecords); a --backend is canonicalised when it parses.
func runRecordsDump(ctx context.Context, opts *recordsDumpOptions, s *cli.Streams) error {
	return campaign.DumpRecords(ctx, s.Out, opts.Dir, opts.Backend, func(name string) (string, bool) {
		b, err := lookupBackend(name)
		return b.Name, err == nil
	})
}
