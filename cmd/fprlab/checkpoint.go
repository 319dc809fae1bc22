package main

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/fprlab/fprlab/analysis"
	"github.com/fprlab/fprlab/falcon"
)

// Long runs (`arith errors`, `kat`) take --checkpoint FILE: their finished
// work is saved to FILE atomically as it completes, and the same command
// run again after an interruption takes it from FILE instead of computing
// it again. Gob is used because it keeps the infinite log2 values (exact
// results) that JSON cannot hold; the file is an internal state file, not
// an output format.

// loadCheckpoint reads the checkpoint of kind at path into a copy of fresh.
// A missing file starts from fresh; a file that does not decode, or that
// same rejects (another run's parameters), is an error naming the file,
// which is never overwritten silently.
func loadCheckpoint[T any](path, kind string, fresh T, same func(*T) error) (*T, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &fresh, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading checkpoint: %w", err)
	}
	var st T
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&st); err != nil {
		return nil, fmt.Errorf("checkpoint %s is not %s checkpoint: %v", path, kind, err)
	}
	if err := same(&st); err != nil {
		return nil, fmt.Errorf("checkpoint %s belongs to another run (%v); remove it or choose another file", path, err)
	}
	return &st, nil
}

// saveCheckpoint writes st to path atomically.
func saveCheckpoint[T any](path string, st *T) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(st); err != nil {
		return err
	}
	return writeOutput(path, buf.Bytes(), false)
}

// errorsCheckpoint is the state of `arith errors`: the run's parameters
// and the operations finished so far.
type errorsCheckpoint struct {
	Backend        string
	N              int
	Seed           uint64
	MinExp, MaxExp int
	Done           []analysis.OpError
}

// sameRun checks that c was made by a run with the parameters of o.
func (c *errorsCheckpoint) sameRun(o *errorsCheckpoint) error {
	if c.Backend == o.Backend && c.N == o.N && c.Seed == o.Seed && c.MinExp == o.MinExp && c.MaxExp == o.MaxExp {
		return nil
	}
	return fmt.Errorf("backend %s, n %d, seed %d, exponents %d..%d", c.Backend, c.N, c.Seed, c.MinExp, c.MaxExp)
}

// find returns the finished result of op, if any.
func (c *errorsCheckpoint) find(op string) (analysis.OpError, bool) {
	for _, r := range c.Done {
		if r.Op == op {
			return r, true
		}
	}
	return analysis.OpError{}, false
}

// katCheckpoint is the state of `kat`: the records generated so far for
// each (signing backend, key backend) pair. A record depends only on its
// index, the degree and the backends, so the state serves any --records.
type katCheckpoint struct {
	Params int
	Done   map[string][]falcon.KATRecord
}

// katKey names a (signing backend, key backend) pair in a katCheckpoint.
func katKey(sign, keys string) string { return sign + " keys:" + keys }
