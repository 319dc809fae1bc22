// Command fprlab runs Falcon over interchangeable floating-point arithmetics
// and measures each against an exact oracle.
//
// # Layout of the commands (for the next command's author)
//
// Each command lives in its own file, named after it (a subcommand of
// accel in accel_NAME.go; a group with one subcommand, such as arith
// errors or records dump, shares the group's file; the arm of kat for a
// scheme's own known-answer test is kat_scheme.go, that of accel counts and
// cycles for a scheme with an accel.Counter accel_counter.go; what several
// commands share is in root.go, io.go, params.go, scheme.go and expm.go),
// and has three parts, as in the GitHub CLI:
//
//   - an options struct (xOptions) holding every flag's value;
//   - a constructor newXCmd(s *streams) *cobra.Command of at most ~60
//     lines that binds the flags to the struct (help text in a const) and
//     whose RunE only records which flags were set (cmd.Flags().Changed,
//     for flags whose zero value is meaningful) and calls runX;
//   - runX(ctx context.Context, opts *xOptions, s *streams) error, which
//     parses what the flags mean, calls the library that does the work
//     (accel, analysis/campaign, analysis/bench, analysis/shadow, ...)
//     and prints its result; tests call it directly with buffers in
//     streams. An experiment's loop, its result types and its document
//     schemas belong to the library, next to their readers
//     (analysis/results), not here.
//
// The constructor is added to the list in commands (root.go). Results go
// to s.Out, progress to s.Err; --json output goes through printJSON; output
// files through s.writeOutputs (atomic, "-" = stdout, links written
// through, devices written into) after safefile.Distinct has checked that
// no output names an input or another output; inputs through readInput
// with a size cap. A long run saves its finished steps with
// internal/checkpoint, calls s.stopOnInterrupt() (Ctrl-C then cancels ctx
// instead of ending the process), checks ctx between steps and returns
// interrupted(checkpointPath) when it is cancelled. A command never asks
// which scheme --scheme named: it asks the scheme (scheme.Scheme) and its
// optional capabilities (scheme.ContextSigner, scheme.KATReplayer,
// scheme.Formatter, accel.Counter), so a new scheme needs no edit here.
// Errors are returned,
// never printed: run maps them to the exit codes (0 ok, 1 "no" via
// exitError{exitFalse}, 2 bad input or a failed write, 3 a plugin failed
// (exitPlugin: it ended, crashed or hung its worker process, returned an
// error status or wrote past its memory), 130 interrupted).
//
// A sketch (compare.go):
//
//	type compareOptions struct {
//		Backend, Out string
//		JSON         bool
//	}
//
//	func newCompareCmd(s *streams) *cobra.Command {
//		opts := &compareOptions{}
//		cmd := &cobra.Command{
//			Use: "compare --backend NAME", Short: "...", Long: compareLong, Args: cobra.NoArgs,
//			RunE: func(cmd *cobra.Command, _ []string) error { return runCompare(cmd.Context(), opts, s) },
//		}
//		cmd.Flags().StringVar(&opts.Backend, "backend", "", "`NAME` of the backend")
//		cmd.Flags().StringVar(&opts.Out, "out", "", "write the table to `FILE` (- for standard output)")
//		cmd.Flags().BoolVar(&opts.JSON, "json", false, "print {...}")
//		return cmd
//	}
//
//	func runCompare(ctx context.Context, opts *compareOptions, s *streams) error {
//		if err := safefile.Distinct(nil, []safefile.Arg{{Flag: "out", Path: opts.Out}}); err != nil {
//			return err
//		}
//		res, err := ...
//		if opts.Out != "" {
//			return s.writeOutputs(safefile.File{Path: opts.Out, Data: res.table()})
//		}
//		if opts.JSON {
//			return printJSON(s.Out, res)
//		}
//		_, err = fmt.Fprintln(s.Out, res)
//		return err
//	}
//
// and newCompareCmd(s) goes into commands. A test builds s with
// newStreams(stdin, &stdout, &stderr) and calls runCompare, or runs the
// whole command line with run.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

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
	os.Exit(runMain(os.Stdin, os.Stdout, os.Stderr, args, os.Exit, os.Interrupt, syscall.SIGTERM))
}

// runMain runs the command line args with the standard streams given,
// the signals sigs interrupting it (see watchInterrupt), and returns its
// exit status; exit ends the process on an interrupt.
func runMain(stdin io.Reader, stdout, stderr io.Writer, args []string, exit func(int), sigs ...os.Signal) int {
	ctx, stop := signal.NotifyContext(context.Background(), sigs...)
	s := newStreams(stdin, stdout, stderr)
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		watchInterrupt(ctx, stop, done, s, stderr, exit)
	}()
	code := s.run(ctx, args)
	close(done)
	stop()
	// The watcher decides before the process ends: an exit status is
	// never replaced by 130 after the command has returned.
	<-watched
	return code
}

// watchInterrupt waits for the first interrupt (ctx cancelled by the
// signal handler) or the end of the command (done closed). On an
// interrupt it ends the process with exitInterrupted through exit unless
// the running command stops cleanly by itself (s.stoppable), in which case
// a second interrupt ends it at once (stop removes the handler).
//
// main cancels ctx itself once the command has returned (after closing
// done), so both channels can be ready when the select runs; select then
// picks one at random. done is therefore checked again after ctx: a
// cancellation seen once the command has finished is that clean-up, not
// an interrupt.
func watchInterrupt(ctx context.Context, stop func(), done <-chan struct{}, s *streams, stderr io.Writer, exit func(int)) {
	select {
	case <-ctx.Done():
	case <-done:
		return
	}
	select {
	case <-done:
		return
	default:
	}
	// A second Ctrl-C ends the process at once.
	stop()
	if !s.stoppable.Load() {
		// Nothing to save: stop now, as without the handler.
		fmt.Fprintln(stderr, "fprlab: interrupted")
		exit(exitInterrupted)
		return
	}
	fmt.Fprintln(stderr, "fprlab: interrupt: stopping after the current step (Ctrl-C again to stop at once; checkpoints on disk are always complete)")
}
