package shadow

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/fprlab/fprlab/internal/safefile"
)

// A campaign directory holds a shadowed run's results as they are made, so
// that an interrupted run (Ctrl-C, kill -9, a lost machine) continues
// without losing or recomputing a finished unit:
//
//	DIR/run.json                 the run's identity (what determines the results)
//	DIR/records-BACKEND.jsonl    one JSON line per finished signature or key
//	DIR/summary.json             the summary, rewritten at the end of a run
//
// Lines are appended and synced one at a time, each with its backend and
// the SHA-256 of its record; a last line cut short by a crash is dropped on
// reading (its unit is computed again), any other bad line -- damaged,
// edited, or another backend's -- is an error naming the file and line.

// Campaign is an open campaign directory.
type Campaign struct {
	dir string
	mu  sync.Mutex
	fs  map[string]*os.File
}

// OpenCampaign opens (creating if needed) the campaign directory dir for a
// run with the given identity. A directory made by a run with another
// identity is refused.
func OpenCampaign(dir string, identity any) (*Campaign, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("campaign directory: %w", err)
	}
	id, err := json.MarshalIndent(identity, "", "  ")
	if err != nil {
		return nil, err
	}
	id = append(id, '\n')
	path := filepath.Join(dir, "run.json")
	old, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := safefile.WriteFiles(io.Discard, safefile.File{Path: path, Data: id}); err != nil {
			return nil, fmt.Errorf("campaign directory: %w", err)
		}
	case err != nil:
		return nil, fmt.Errorf("campaign directory: %w", err)
	case !bytes.Equal(old, id):
		return nil, fmt.Errorf("%s was made by another run (its run.json differs: %s); use another --out directory or the same command and flags", dir, firstDiff(old, id))
	}
	return &Campaign{dir: dir, fs: map[string]*os.File{}}, nil
}

// firstDiff names the first line where two identities differ.
func firstDiff(a, b []byte) string {
	al, bl := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("%q there, %q here", strings.TrimSpace(al[i]), strings.TrimSpace(bl[i]))
		}
	}
	return "different length"
}

// recordsFile is the records file of a backend.
func (c *Campaign) recordsFile(backend string) string {
	r := strings.NewReplacer(":", "_", ",", "_", "/", "_")
	return filepath.Join(c.dir, "records-"+r.Replace(backend)+".jsonl")
}

// recordKey identifies a unit of a campaign.
func recordKey(kind string, index int) string { return fmt.Sprintf("%s/%d", kind, index) }

// errNoCampaign is what the methods of a nil *Campaign return.
var errNoCampaign = errors.New("shadow: campaign not open (use OpenCampaign)")

// Load returns the finished records of backend, by unit.
func (c *Campaign) Load(backend string) (map[string]*Record, error) {
	if c == nil {
		return nil, errNoCampaign
	}
	path := c.recordsFile(backend)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]*Record{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[string]*Record{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	complete := len(data) > 0 && data[len(data)-1] == '\n'
	var lines [][]byte
	for sc.Scan() {
		lines = append(lines, append([]byte(nil), sc.Bytes()...))
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i, l := range lines {
		line = i + 1
		r, err := decodeLine(l, backend)
		if err != nil {
			if i == len(lines)-1 && !complete {
				break // cut short by a crash: computed again
			}
			return nil, fmt.Errorf("%s line %d: %v (remove the line or the directory)", path, line, err)
		}
		k := recordKey(r.Kind, r.Index)
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("%s line %d: %s %d recorded twice", path, line, r.Kind, r.Index)
		}
		out[k] = r
	}
	if !complete && len(data) > 0 {
		// Drop the partial line so that appends start on a new line.
		cut := bytes.LastIndexByte(data, '\n') + 1
		if err := os.Truncate(path, int64(cut)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Append writes one finished record of backend and syncs it to disk.
func (c *Campaign) Append(backend string, r *Record) error {
	if c == nil {
		return errNoCampaign
	}
	line, err := encodeLine(backend, r)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	f := c.fs[backend]
	if f == nil {
		f, err = os.OpenFile(c.recordsFile(backend), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			return err
		}
		c.fs[backend] = f
	}
	if _, err := f.Write(append(line, '\n')); err != nil {
		return err
	}
	return f.Sync()
}

// recordLine is one line of a records file: the record, the backend it
// measures and the SHA-256 of the record's bytes, so that a line edited,
// damaged or copied from another backend's file is refused.
type recordLine struct {
	Backend string          `json:"backend"`
	SHA256  string          `json:"sha256"`
	Record  json.RawMessage `json:"record"`
}

func encodeLine(backend string, r *Record) ([]byte, error) {
	rec, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(rec)
	return json.Marshal(recordLine{Backend: backend, SHA256: hex.EncodeToString(sum[:]), Record: rec})
}

func decodeLine(l []byte, backend string) (*Record, error) {
	var rl recordLine
	if err := json.Unmarshal(l, &rl); err != nil {
		return nil, err
	}
	if rl.Backend != backend {
		return nil, fmt.Errorf("a record of backend %q in the file of %q", rl.Backend, backend)
	}
	sum := sha256.Sum256(rl.Record)
	if hex.EncodeToString(sum[:]) != rl.SHA256 {
		return nil, errors.New("the record does not match its checksum (damaged or edited)")
	}
	var r Record
	if err := json.Unmarshal(rl.Record, &r); err != nil {
		return nil, err
	}
	if (r.Kind != "signature" && r.Kind != "keygen") || r.DeltaC == nil || r.Index < 0 {
		return nil, errors.New("not a record")
	}
	return &r, nil
}

// WriteSummary writes DIR/summary.json atomically.
func (c *Campaign) WriteSummary(v any) error {
	if c == nil {
		return errNoCampaign
	}
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(c.dir, "summary.json")
	return safefile.WriteFiles(io.Discard, safefile.File{Path: path, Data: append(data, '\n')})
}

// Close closes the records files.
func (c *Campaign) Close() error {
	if c == nil {
		return errNoCampaign
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var errs []error
	for _, f := range c.fs {
		errs = append(errs, f.Close())
	}
	c.fs = map[string]*os.File{}
	return errors.Join(errs...)
}

// Have adapts loaded records to Config.Have.
func Have(recs map[string]*Record) func(kind string, index int) (*Record, bool) {
	return func(kind string, index int) (*Record, bool) {
		r, ok := recs[recordKey(kind, index)]
		return r, ok
	}
}
