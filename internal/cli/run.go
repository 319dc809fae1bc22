package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"time"

	"github.com/spf13/cobra"
)

// Exit codes. Commands that answer a yes/no question (verify, kat) use
// ExitFalse for "no"; every malformed input, usage error or failed write
// is ExitUsage; a run stopped by Ctrl-C exits with ExitInterrupted, the
// shell's code for SIGINT. A plugin backend that fails -- ends or
// crashes the worker process it runs in, hangs, returns an error status,
// writes past the memory it was given -- makes ExitPlugin (internal/isolate):
// neither "no" nor bad input, and never the plugin's own exit status.
const (
	ExitOK          = 0
	ExitFalse       = 1
	ExitUsage       = 2
	ExitPlugin      = 3
	ExitInterrupted = 130
)

// ExitError carries an exit code other than ExitUsage out of a command.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string { return e.Err.Error() }
func (e *ExitError) Unwrap() error { return e.Err }

// Interrupted is the error of a run stopped by its context (Ctrl-C). With
// a checkpoint (a file, or a campaign directory), the message tells the
// user how to continue -- or, when the run stopped before it saved
// anything, that nothing is saved.
func Interrupted(checkpointPath string) error {
	msg := "interrupted"
	if checkpointPath != "" {
		msg = fmt.Sprintf("interrupted; the finished work is saved in %s: run the same command again to resume", checkpointPath)
		if _, err := os.Stat(checkpointPath); err != nil {
			msg = fmt.Sprintf("interrupted before any work was finished: nothing is saved in %s", checkpointPath)
		}
	}
	return &ExitError{Code: ExitInterrupted, Err: errors.New(msg)}
}

// Run executes the command line args on root, the command tree built
// over s, and returns the process exit code. Errors go to s.Err prefixed
// with "fprlab: "; a result lost on its way to s.Out fails the run.
func (s *Streams) Run(ctx context.Context, root *cobra.Command, args []string) int {
	stderr, out := s.Err, s.out
	s.Argv = append([]string{"fprlab"}, args...)
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(stderr)
	root.SetIn(s.In)
	var err error
	if c, rest, ferr := root.Find(args); ferr == nil {
		err = RepeatedFlags(c, rest)
	}
	if err == nil {
		err = root.ExecuteContext(ctx)
	}
	if out.err != nil {
		// A result lost on its way out is the failure to report,
		// whether or not the command noticed it.
		werr := out.err
		var pe *fs.PathError
		if errors.As(werr, &pe) {
			werr = pe.Err
		}
		fmt.Fprintln(stderr, "fprlab: writing standard output:", werr)
		if err != nil && !errors.Is(err, out.err) {
			fmt.Fprintln(stderr, "fprlab:", err)
		}
		return ExitUsage
	}
	var ee *ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &ee):
		if ee.Code == ExitInterrupted && s.noted != nil {
			select {
			case <-s.noted:
			case <-time.After(time.Second):
			}
		}
		if ee.Err != nil && ee.Err.Error() != "" {
			fmt.Fprintln(stderr, "fprlab:", ee.Err)
		}
		return ee.Code
	}
	fmt.Fprintln(stderr, "fprlab:", err)
	return ExitUsage
}

// RunMain runs the command line args on the tree newRoot builds, with the
// standard streams given and the signals sigs interrupting it (see
// watchInterrupt), and returns its exit status; exit ends the process on
// an interrupt.
func RunMain(stdin io.Reader, stdout, stderr io.Writer, args []string, newRoot func(*Streams) *cobra.Command, exit func(int), sigs ...os.Signal) int {
	ctx, stop := signal.NotifyContext(context.Background(), sigs...)
	s := NewStreams(stdin, stdout, stderr)
	s.noted = make(chan struct{})
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		watchInterrupt(ctx, stop, done, s, stderr, exit)
	}()
	code := s.Run(ctx, newRoot(s), args)
	close(done)
	stop()
	// The watcher decides before the process ends: an exit status is
	// never replaced by 130 after the command has returned.
	<-watched
	return code
}

// watchInterrupt waits for the first interrupt (ctx cancelled by the
// signal handler) or the end of the command (done closed). On an
// interrupt it ends the process with ExitInterrupted through exit unless
// the running command stops cleanly by itself (s.Stoppable), in which case
// a second interrupt ends it at once (stop removes the handler).
//
// RunMain cancels ctx itself once the command has returned (after closing
// done), so both channels can be ready when the select runs; select then
// picks one at random. done is therefore checked again after ctx: a
// cancellation seen once the command has finished is that clean-up, not
// an interrupt.
func watchInterrupt(ctx context.Context, stop func(), done <-chan struct{}, s *Streams, stderr io.Writer, exit func(int)) {
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
	if !s.Stoppable() {
		// Nothing to save: stop now, as without the handler.
		fmt.Fprintln(stderr, "fprlab: interrupted")
		exit(ExitInterrupted)
		return
	}
	fmt.Fprintln(stderr, "fprlab: interrupt: stopping after the current step (Ctrl-C again to stop at once; checkpoints on disk are always complete)")
	if s.noted != nil {
		close(s.noted)
	}
}
