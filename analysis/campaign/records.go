package campaign

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fprlab/fprlab/analysis/shadow"
)

// DumpRecords writes the record segments of the campaign directory dir
// (compare --out DIR, a sweep's DIR/FORMAT, a merged directory) to w as
// one JSON document, as `fprlab records dump` prints it:
//
//	{"dir": DIR, "run": <run.json>, "files": [{"file": "records-B.seg",
//	  "segments": [<shadow.Segment>, ...]}, ...]}
//
// the files in name order, only backend's when backend is not "". Each
// file is read through the checks a resume makes (shadow.Campaign.LoadEach:
// checksum, the directory's run, its backend), under the directory's
// shared lock, and records files of no backend of the campaign are
// refused (shadow.Campaign.StrayRecords). The document is written as it is
// read: its size follows the directory's, memory does not.
//
// The campaign's own names say what backend may be; canonical, when not
// nil, maps a name the user gave to its canonical form when it parses as
// a backend (ok false otherwise: the name is then taken as given), so that
// an alias or a differently spelled name of a measured backend finds its
// records. The reading of a directory is the campaign's business; the
// command only parses its flags and calls this.
func DumpRecords(ctx context.Context, w io.Writer, dir, backend string, canonical func(name string) (string, bool)) error {
	c, id, err := shadow.ReadCampaign(dir)
	if err != nil {
		return err
	}
	defer c.Close()
	backends, err := campaignBackends(id)
	if err != nil {
		return fmt.Errorf("%s: %w", dir, err)
	}
	if err := c.StrayRecords(backends); err != nil {
		return err
	}
	if backend != "" {
		name := backend
		if canonical != nil {
			if cn, ok := canonical(name); ok {
				name = cn
			}
		}
		if !slices.Contains(backends, name) {
			return fmt.Errorf("%s: the campaign has no backend %s (its backends: %s)", dir, backend, strings.Join(backends, ", "))
		}
		backends = []string{name}
	}
	// The files in name order, as the directory lists them.
	slices.SortFunc(backends, func(a, b string) int { return strings.Compare(c.RecordsFile(a), c.RecordsFile(b)) })
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\"dir\": %s,\n \"run\": %s,\n \"files\": [", quoteJSON(dir), strings.TrimSpace(string(compactJSON(id))))
	nf := 0
	for _, b := range backends {
		f := c.RecordsFile(b)
		if _, err := os.Lstat(f); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if nf > 0 {
			bw.WriteString(",")
		}
		nf++
		fmt.Fprintf(bw, "\n  {\"file\": %s, \"segments\": [", quoteJSON(filepath.Base(f)))
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
				bw.WriteString(",")
			}
			n++
			bw.WriteString("\n   ")
			_, err = bw.Write(data)
			return err
		})
		if err != nil {
			return err
		}
		bw.WriteString("]}")
	}
	bw.WriteString("]}\n")
	return bw.Flush()
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
