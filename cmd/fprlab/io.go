package main

import (
	"fmt"
	"strings"

	"github.com/fprlab/fprlab/analysis/results"
	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/internal/checkpoint"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/scheme"
)

// maxMessage caps message files: Falcon hashes a message in one pass, so a
// cap only stops a mistaken /dev/zero or disk image from exhausting
// memory; 64 MiB is far above any test vector.
const maxMessage = 64 << 20

// The largest encodings of every linked scheme's keys and signatures over
// every degree (the 2026 draft's signing key, 2369 bytes at 1024, is the
// longest): no key or signature file can be longer, so reading stops
// there.
var maxPublicKey, maxPrivateKey, maxSignature = scheme.MaxEncodedSizes()

// lookupBackend resolves a --backend value; the error lists the choices.
func lookupBackend(name string) (arith.Backend, error) {
	b, err := arith.Lookup(name)
	if _, ok := arith.LegacyName(name); err != nil && !ok {
		err = fmt.Errorf("%w\n(%v)", err, arith.LegacyNameError(name))
	}
	return b, err
}

// noteRenamed says on stderr which backends of the documents read were
// written under the old triword names and what they are called now.
func noteRenamed(s *cli.Streams, c *results.Campaign) {
	for _, r := range c.Renamed {
		fmt.Fprintf(s.Err, "note: %s\n", r)
	}
}

// backendsOrAll resolves the --backend of arith errors and kat: one
// name, or "all" for every registered backend (not the name:P families).
func backendsOrAll(name string) ([]arith.Backend, error) {
	switch name {
	case "":
		return nil, fmt.Errorf("missing --backend NAME (available: all, %s)", strings.Join(arith.Names(), ", "))
	case "all":
		return arith.List(), nil
	}
	b, err := lookupBackend(name)
	if err != nil {
		return nil, err
	}
	return []arith.Backend{b}, nil
}

// lockCheckpoint takes the lock of a --checkpoint FILE (checkpoint.Lock):
// a second run with the same file is refused while this one runs, rather
// than each saving its progress over the other's. release frees it; both
// do nothing without a checkpoint. A run with a checkpoint stops on the
// first Ctrl-C after its current step (s.StopOnInterrupt), from here on,
// so that the lock is released as the run returns.
func lockCheckpoint(s *cli.Streams, path string) (release func(), err error) {
	if path == "" {
		return func() {}, nil
	}
	s.StopOnInterrupt()
	l, err := checkpoint.Lock(path)
	if err != nil {
		return nil, err
	}
	return func() { l.Unlock() }, nil
}
