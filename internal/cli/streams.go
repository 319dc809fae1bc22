// Package cli is the plumbing every fprlab command shares, kept apart from
// the commands themselves (cmd/fprlab) so that a command file holds only
// its flags, the library calls they choose and the printing of the
// result: the standard streams of one run and how a failed write to them
// fails the run (Streams), the exit codes and the errors that carry them
// (ExitError, Interrupted), the checks cobra does not make (a flag given
// twice, a group run without its subcommand, help for an unknown topic),
// reading size-capped inputs that may be hex text, progress lines, and the
// interrupt handling that lets a checkpointing command stop cleanly.
//
// It knows no scheme, backend or analysis: commands pass in what it needs.
package cli

import (
	"io"
	"os"
	"slices"
	"sync/atomic"

	"github.com/fprlab/fprlab/internal/safefile"
)

// Streams are the standard streams of one run. Commands write results to
// Out and progress and warnings to Err, never to os.Stdout directly, so
// tests call the run functions with buffers.
type Streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// ErrIsTerminal is true when Err is an interactive terminal: progress
	// that would clutter a log is shown only then (or when asked for).
	ErrIsTerminal bool
	// ValidateOnly makes a campaign command return once its flags are
	// checked, doing no work (campaign slurm checks the command each
	// array task will run this way).
	ValidateOnly bool
	// Argv is the command line as given ("fprlab" then the arguments Run
	// received): manifests record these words, never a restatement of the
	// options, which would lose flags (--shard, --allow-weak-shadow, ...)
	// and so measure or refuse something else when pasted back.
	Argv []string
	// stoppable is set by a command that checks its context between
	// checkpointed steps; an interrupt then lets it stop cleanly
	// instead of ending the process at once (see RunMain).
	stoppable atomic.Bool
	out       *stickyWriter
	// noted, when not nil (RunMain), is closed once the interrupt watcher
	// has said that the command will stop after its current step: Run
	// waits for it before printing the command's "interrupted" error, so
	// the two lines come in the order they happened.
	noted chan struct{}
}

// NewStreams returns the streams of one run; writes to stdout are
// tracked (see stickyWriter).
func NewStreams(stdin io.Reader, stdout, stderr io.Writer) *Streams {
	out := &stickyWriter{w: stdout}
	return &Streams{In: stdin, Out: out, Err: stderr, ErrIsTerminal: isTerminal(stderr), out: out}
}

// CommandArgv is the command line the running command was given, for its
// manifest; a command called without Run (runX from a test) has only its
// name.
func (s *Streams) CommandArgv(name string) []string {
	if len(s.Argv) == 0 {
		return []string{"fprlab", name}
	}
	return slices.Clone(s.Argv)
}

// StopOnInterrupt declares that the running command stops cleanly when
// its context is cancelled, saving its finished work first.
func (s *Streams) StopOnInterrupt() { s.stoppable.Store(true) }

// Stoppable reports whether the running command has called
// StopOnInterrupt.
func (s *Streams) Stoppable() bool { return s.stoppable.Load() }

// WriteOutputs writes the result files of a command as one step (see
// safefile.WriteFiles); "-" goes to the command's standard output.
func (s *Streams) WriteOutputs(files ...safefile.File) error {
	return safefile.WriteFiles(s.Out, files...)
}

// stickyWriter remembers the first write error, so that a result lost to
// a full disk or closed pipe (`fprlab verify ... > /dev/full`) gives a
// failing exit status even where a command does not check Fprintf's
// error.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	if err != nil {
		s.err = err
	}
	return n, err
}

// isTerminal reports whether w is a character device (a terminal).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
