package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
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

// runRecordsDump streams the segments of a directory as JSON, each file
// read through the checks a resume makes (shadow.Campaign.LoadEach).
func runRecordsDump(ctx context.Context, opts *recordsDumpOptions, s *streams) error {
	c, id, err := shadow.ReadCampaign(opts.Dir)
	if err != nil {
		return err
	}
	defer c.Close()
	backends, err := campaignBackends(id)
	if err != nil {
		return fmt.Errorf("%s: %w", opts.Dir, err)
	}
	if err := c.StrayRecords(backends); err != nil {
		return err
	}
	if opts.Backend != "" {
		// The campaign's own names answer what --backend may be; a
		// name is canonicalised only when it parses.
		name := opts.Backend
		if b, err := lookupBackend(name); err == nil {
			name = b.Name
		}
		if !slices.Contains(backends, name) {
			return fmt.Errorf("%s: the campaign has no backend %s (its backends: %s)", opts.Dir, opts.Backend, strings.Join(backends, ", "))
		}
		backends = []string{name}
	}
	// The files in name order, as the directory lists them.
	slices.SortFunc(backends, func(a, b string) int { return strings.Compare(c.RecordsFile(a), c.RecordsFile(b)) })
	w := bufio.NewWriter(s.Out)
	fmt.Fprintf(w, "{\"dir\": %s,\n \"run\": %s,\n \"files\": [", quoteJSON(opts.Dir), strings.TrimSpace(string(compactJSON(id))))
	nf := 0
	for _, b := range backends {
		f := c.RecordsFile(b)
		if _, err := os.Lstat(f); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if nf > 0 {
			w.WriteString(",")
		}
		nf++
		fmt.Fprintf(w, "\n  {\"file\": %s, \"segments\": [", quoteJSON(filepath.Base(f)))
		n := 0
		_, err := c.LoadEach(b, func(seg *shadow.Segment) error {
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

// campaignBackends are the backends of the campaign whose run.json is id
// (compare's "backends", sweep's "formats").
func campaignBackends(id []byte) ([]string, error) {
	var run struct {
		Backends []string `json:"backends"`
		Formats  []string `json:"formats"`
	}
	if err := json.Unmarshal(id, &run); err != nil {
		return nil, fmt.Errorf("%s is damaged: %v", shadow.RunFile, err)
	}
	return append(run.Backends, run.Formats...), nil
}
