// Command fprlab runs Falcon over interchangeable floating-point arithmetics
// and measures each against an exact oracle.
//
// The package holds the commands and nothing else: each parses its flags,
// calls the library that does the work (accel, analysis/..., scheme) and
// prints the result; the plumbing they share -- streams, exit codes,
// inputs, progress, interrupts -- is internal/cli. Each command lives in
// its own file, named after it (accel NAME in accel_NAME.go; kat's and
// accel's arms for a scheme's own test in kat_scheme.go and
// accel_counter.go; what several share in root.go, io.go, params.go,
// scheme.go and expm.go) and has three parts, as in the GitHub CLI: an
// options struct (xOptions), a constructor newXCmd(s *cli.Streams) that
// binds the flags (help text in a const) and whose RunE only records which
// flags were set and calls runX, and runX(ctx, opts, s), which tests call
// directly with buffers. The constructor goes into the list in commands
// (root.go). A command never asks which scheme --scheme named: it asks
// the scheme and its optional capabilities, so a new scheme needs no edit
// here. docs/testing.md ("Adding a command") has the rules in full and a
// sketch.
package main

import (
	"os"
	"syscall"

	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/isolate"
)

func main() {
	args := os.Args[1:]
	switch {
	case isolate.IsWorker():
		os.Exit(workerMain(args))
	case isolate.Needed(args):
		// A plugin runs in a worker process (isolate.go).
		os.Exit(supervise(args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(cli.RunMain(os.Stdin, os.Stdout, os.Stderr, args, newRootCmd, os.Exit, os.Interrupt, syscall.SIGTERM))
}
