package main

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/fprlab/fprlab/analysis"
)

// errorsCheckpoint is the resumable state of `arith errors --checkpoint`:
// the run's parameters and the operations finished so far. It is written
// atomically after every operation, so an interrupted run loses at most
// the operation in progress. Gob keeps the infinite log2 values (exact
// results) that JSON cannot hold.
type errorsCheckpoint struct {
	Backend        string
	N              int
	Seed           uint64
	MinExp, MaxExp int
	Done           []analysis.OpError
}

// sameRun reports whether c was made by a run with the same parameters.
func (c *errorsCheckpoint) sameRun(o *errorsCheckpoint) bool {
	return c.Backend == o.Backend && c.N == o.N && c.Seed == o.Seed && c.MinExp == o.MinExp && c.MaxExp == o.MaxExp
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

// loadCheckpoint reads the checkpoint at path for the run described by
// want. A missing file starts a new run; a file from a run with other
// parameters, or one that does not decode, is an error naming the file
// (it is never overwritten silently).
func loadCheckpoint(path string, want *errorsCheckpoint) (*errorsCheckpoint, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		c := *want
		return &c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading checkpoint: %w", err)
	}
	var c errorsCheckpoint
	if err := gob.NewDecoder(bytes.NewReader(data)).Decode(&c); err != nil {
		return nil, fmt.Errorf("checkpoint %s is not an `arith errors` checkpoint: %v", path, err)
	}
	if !c.sameRun(want) {
		return nil, fmt.Errorf("checkpoint %s belongs to another run (backend %s, n %d, seed %d, exponents %d..%d); remove it or choose another file",
			path, c.Backend, c.N, c.Seed, c.MinExp, c.MaxExp)
	}
	return &c, nil
}

// save writes the checkpoint atomically.
func (c *errorsCheckpoint) save(path string) error {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(c); err != nil {
		return err
	}
	return writeOutput(path, buf.Bytes(), false)
}
