// Command fprlab runs Falcon over interchangeable floating-point arithmetics
// and measures each against an exact oracle.
//
// # Layout of the commands (for the next command's author)
//
// Each command lives in its own file and has three parts, as in the GitHub
// CLI:
//
//   - an options struct (xOptions) holding every flag's value;
//   - a constructor newXCmd(s *streams) *cobra.Command of at most ~60
//     lines that binds the flags to the struct (help text in a const) and
//     whose RunE only records which flags were set (cmd.Flags().Changed,
//     for flags whose zero value is meaningful) and calls runX;
//   - runX(ctx context.Context, opts *xOptions, s *streams) error, which
//     does the work; tests call it directly with buffers in streams.
//
// The constructor is added to the list in commands (root.go). Results go
// to s.Out, progress to s.Err; --json output goes through printJSON; output
// files through s.writeOutputs (atomic, "-" = stdout, links written
// through, devices written into) after safefile.Distinct has checked that
// no output names an input or another output; inputs through readInput
// with a size cap. A long run checks ctx between units of work, saves them
// with internal/checkpoint and returns interrupted(checkpointPath) when
// ctx is cancelled. Errors are returned, never printed: run maps them to
// the exit codes (0 ok, 1 "no" via exitError{exitFalse}, 2 bad input or a
// failed write, 130 interrupted).
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			// Let a second Ctrl-C end the process at once: the first
			// only asks the run to stop after its current step.
			stop()
			fmt.Fprintln(os.Stderr, "fprlab: interrupt: stopping after the current step (Ctrl-C again to stop at once; checkpoints on disk are always complete)")
		case <-done:
		}
	}()
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	close(done)
	stop()
	os.Exit(code)
}
