package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/analysis/shadow"
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

func newRecordsCmd(s *streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "records",
		Short: "Read the records of campaign directories",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return fmt.Errorf("fprlab records needs a subcommand: dump")
		},
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

// runRecordsDump streams the segments of a directory as JSON.
func runRecordsDump(ctx context.Context, opts *recordsDumpOptions, s *streams) error {
	c, id, err := shadow.ReadCampaign(opts.Dir)
	if err != nil {
		return err
	}
	defer c.Close()
	var files []string
	if opts.Backend != "" {
		b, err := lookupBackend(opts.Backend)
		if err != nil {
			return err
		}
		if err := runHasBackend(id, b.Name); err != nil {
			return fmt.Errorf("%s: %w", opts.Dir, err)
		}
		files = []string{c.RecordsFile(b.Name)}
	} else if files, err = c.RecordsFiles(); err != nil {
		return err
	}
	if !json.Valid(id) {
		return fmt.Errorf("%s/%s is damaged: not JSON", opts.Dir, shadow.RunFile)
	}
	w := bufio.NewWriter(s.Out)
	fmt.Fprintf(w, "{\"dir\": %s,\n \"run\": %s,\n \"files\": [", quoteJSON(opts.Dir), strings.TrimSpace(string(compactJSON(id))))
	for i, f := range files {
		if i > 0 {
			w.WriteString(",")
		}
		fmt.Fprintf(w, "\n  {\"file\": %s, \"segments\": [", quoteJSON(filepath.Base(f)))
		n := 0
		err := c.DumpFile(f, opts.Backend, func(seg *shadow.Segment) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			data, err := json.Marshal(seg)
			if err != nil {
				return err
			}
			if n > 0 {
				w.WriteString(",")
			}
			n++
			w.WriteString("\n   ")
			_, err = w.Write(data)
			return err
		})
		if err != nil {
			return err
		}
		w.WriteString("]}")
	}
	w.WriteString("]}\n")
	return w.Flush()
}

// quoteJSON is s as a JSON string.
func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// compactJSON compacts valid JSON.
func compactJSON(b []byte) []byte {
	var v json.RawMessage = b
	out, err := json.Marshal(v)
	if err != nil {
		return b
	}
	return out
}

// runHasBackend checks that the campaign whose run.json is id measures
// backend (compare's "backends", sweep's "formats"): a dump of another
// backend would print an empty, valid-looking document.
func runHasBackend(id []byte, backend string) error {
	var run struct {
		Backends []string `json:"backends"`
		Formats  []string `json:"formats"`
	}
	if err := json.Unmarshal(id, &run); err != nil {
		return fmt.Errorf("%s is damaged: %v", shadow.RunFile, err)
	}
	have := append(run.Backends, run.Formats...)
	if !slices.Contains(have, backend) {
		return fmt.Errorf("the campaign has no backend %s (its backends: %s)", backend, strings.Join(have, ", "))
	}
	return nil
}
