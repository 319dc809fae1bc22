package analysis

import (
	"strconv"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/internal/checkpoint"
)

// OpErrorCheckpoint is the file of finished operation measurements that
// lets an interrupted `arith errors` run resume without measuring an
// operation twice. Its records are keyed by backend and operation, so one
// file serves every backend of a run alike, each in the form of the --json
// document (results.OpError).
type OpErrorCheckpoint struct {
	path string
	id   checkpoint.Identity
	data opCheckpointData
}

// opCheckpointData is the checkpoint's payload.
type opCheckpointData struct {
	Done []results.OpError `json:"done"`
}

// opCheckpointIdentity is the identity of a checkpoint: what determines
// the statistics (the backend keys the records), and the form of its
// records ("records": "document", results.OpError's JSON; a checkpoint of
// the earlier record form is refused, not misread).
func opCheckpointIdentity(cfg OpErrorConfig, version string) checkpoint.Identity {
	return checkpoint.Identity{Command: "arith errors", Flags: map[string]string{
		"n": strconv.Itoa(cfg.N), "seed": strconv.FormatUint(cfg.Seed, 10),
		"emin": strconv.Itoa(cfg.MinExp), "emax": strconv.Itoa(cfg.MaxExp),
		"records": "document",
	}, Version: version}
}

// LoadOpErrorCheckpoint opens the checkpoint at path of measurements under
// cfg by a program of version version: a missing file starts an empty
// one; a file of another configuration or version, or not a checkpoint,
// is refused (checkpoint.Load). cfg's exponent range must be explicit (the
// defaults are not filled in here).
func LoadOpErrorCheckpoint(path string, cfg OpErrorConfig, version string) (*OpErrorCheckpoint, error) {
	c := &OpErrorCheckpoint{path: path, id: opCheckpointIdentity(cfg, version)}
	if _, err := checkpoint.LoadFile(path, c.id, &c.data); err != nil {
		return nil, err
	}
	return c, nil
}

// Len is the number of operations measured so far.
func (c *OpErrorCheckpoint) Len() int { return len(c.data.Done) }

// Have returns the have function of MeasureOpErrorsFrom for backend.
func (c *OpErrorCheckpoint) Have(backend string) func(op string) (results.OpError, bool) {
	return func(op string) (results.OpError, bool) {
		for _, r := range c.data.Done {
			if r.Backend == backend && r.Op == op {
				return r, true
			}
		}
		return results.OpError{}, false
	}
}

// Add records a finished measurement and saves the checkpoint (atomically:
// an interrupted save leaves the previous file).
func (c *OpErrorCheckpoint) Add(r results.OpError) error {
	c.data.Done = append(c.data.Done, r)
	return checkpoint.Save(c.path, c.id, &c.data)
}
