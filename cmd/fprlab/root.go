package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/spf13/cobra"

	_ "github.com/fprlab/fprlab/arith/plan" // and precision plans
	"github.com/fprlab/fprlab/internal/safefile"
	_ "github.com/fprlab/fprlab/valuetype" // every backend, its value type registered with every consumer
)

// Exit codes. Commands that answer a yes/no question (verify, kat) use
// exitFalse for "no"; every malformed input, usage error or failed write
// is exitUsage; a run stopped by Ctrl-C exits with exitInterrupted, the
// shell's code for SIGINT. A plugin backend that fails -- ends or
// crashes the worker process it runs in, hangs, returns an error status,
// writes past the memory it was given -- makes exitPlugin (internal/isolate):
// neither "no" nor bad input, and never the plugin's own exit status.
const (
	exitOK          = 0
	exitFalse       = 1
	exitUsage       = 2
	exitPlugin      = 3
	exitInterrupted = 130
)

// commands lists the top-level commands. A new command adds its
// constructor here (no init-time registration: the list is the one place
// that says what the program contains).
func commands(s *streams) []*cobra.Command {
	return []*cobra.Command{
		newKatCmd(s),
		newCompareCmd(s),
		newDivergeCmd(s),
		newCertifyCmd(s),
		newLeakCmd(s),
		newSweepCmd(s),
		newTuneCmd(s),
		newMergeCmd(s),
		newDiffCmd(s),
		newRecordsCmd(s),
		newCampaignCmd(s),
		newArithCmd(s),
		newKeygenCmd(s),
		newSignCmd(s),
		newVerifyCmd(s),
		newAccelCmd(s),
		newBenchCmd(s),
		newBackendsCmd(s),
		newPlotCmd(s),
		newReportCmd(s),
		newVersionCmd(s),
	}
}

// streams are the standard streams of one run. Commands write results to
// Out and progress and warnings to Err, never to os.Stdout directly, so
// tests call the run functions with buffers.
type streams struct {
	In  io.Reader
	Out io.Writer
	Err io.Writer
	// ErrIsTerminal is true when Err is an interactive terminal: progress
	// that would clutter a log is shown only then (or when asked for).
	ErrIsTerminal bool
	// stoppable is set by a command that checks its context between
	// checkpointed steps; an interrupt then lets it stop cleanly
	// instead of ending the process at once (see main).
	stoppable atomic.Bool
	// validateOnly makes compare and sweep return once their flags are
	// checked, doing no work (campaign slurm checks the command each
	// array task will run this way).
	validateOnly bool
	// argv is the command line as given ("fprlab" then the arguments run
	// received): manifests record these words, never a restatement of the
	// options, which would lose flags (--shard, --allow-weak-shadow, ...)
	// and so measure or refuse something else when pasted back.
	argv []string
	out  *stickyWriter
}

// newStreams returns the streams of one run; writes to stdout are
// tracked (see stickyWriter).
func newStreams(stdin io.Reader, stdout, stderr io.Writer) *streams {
	out := &stickyWriter{w: stdout}
	return &streams{In: stdin, Out: out, Err: stderr, ErrIsTerminal: isTerminal(stderr), out: out}
}

// commandArgv is the command line the running command was given, for its
// manifest; a command called without run (runX from a test) has only its
// name.
func (s *streams) commandArgv(name string) []string {
	if len(s.argv) == 0 {
		return []string{"fprlab", name}
	}
	return slices.Clone(s.argv)
}

// stopOnInterrupt declares that the running command stops cleanly when
// ctx is cancelled, saving its finished work first.
func (s *streams) stopOnInterrupt() { s.stoppable.Store(true) }

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

// exitError carries an exit code other than exitUsage out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// interrupted is the error of a run stopped by its context (Ctrl-C). With
// a checkpoint, the message tells the user how to continue.
func interrupted(checkpointPath string) error {
	msg := "interrupted"
	if checkpointPath != "" {
		msg = fmt.Sprintf("interrupted; the finished work is saved in %s: run the same command again to resume", checkpointPath)
	}
	return &exitError{code: exitInterrupted, err: errors.New(msg)}
}

func newRootCmd(s *streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "fprlab",
		Short: "Which floating-point arithmetic is precise enough for Falcon, and what does it cost?",
		Long: `fprlab runs the Falcon signature scheme (round 3, Falcon-impl-20211101) over
interchangeable floating-point backends -- integer-emulated binary64, native
binary64, triple-word binary32, and a big-float oracle -- and measures each:
KAT conformance, operation errors against the oracle, and sampler error
bounds against an exact shadow (double-double by default, or the oracle).

Files: "-" as an output means standard output. Outputs are written
atomically (temporary file, then rename); symbolic links are written
through; devices and pipes are written into, never replaced.

Shell completion: fprlab completion bash|zsh|fish|powershell --help.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(commands(s)...)
	requireSubcommand(root)
	root.SetHelpCommand(newHelpCmd(root))
	return root
}

// newHelpCmd is `fprlab help [command]`. Cobra's own prints "Unknown help
// topic" for a command that does not exist and succeeds; this one makes it
// a usage error (exit 2), as running the unknown command is.
func newHelpCmd(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		RunE: func(_ *cobra.Command, args []string) error {
			c, rest, err := root.Find(args)
			if err != nil || c == nil || len(rest) > 0 {
				return fmt.Errorf("unknown help topic %q: see %s --help for the commands", strings.Join(args, " "), root.CommandPath())
			}
			c.InitDefaultHelpFlag()
			return c.Help()
		},
	}
}

// requireSubcommand makes every command that only groups others (fprlab
// itself, accel, arith, campaign) a usage error (exit 2) when run without
// one of them or with an unknown one, instead of printing its help and
// succeeding: a script that misspells a subcommand must not pass.
func requireSubcommand(c *cobra.Command) {
	for _, sub := range c.Commands() {
		requireSubcommand(sub)
	}
	if !c.HasSubCommands() {
		return
	}
	c.Args = cobra.ArbitraryArgs
	c.SuggestionsMinimumDistance = 2
	c.RunE = func(cmd *cobra.Command, args []string) error {
		var names []string
		for _, sub := range cmd.Commands() {
			if sub.IsAvailableCommand() {
				names = append(names, sub.Name())
			}
		}
		if len(args) > 0 {
			msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
			if sug := cmd.SuggestionsFor(args[0]); len(sug) > 0 {
				msg += fmt.Sprintf(" (did you mean %s?)", strings.Join(sug, ", "))
			}
			return fmt.Errorf("%s; the commands are: %s", msg, strings.Join(names, ", "))
		}
		fmt.Fprint(cmd.ErrOrStderr(), cmd.UsageString())
		return fmt.Errorf("%s needs a command: one of %s (see %s --help)", cmd.CommandPath(), strings.Join(names, ", "), cmd.CommandPath())
	}
}

// run executes the command line and returns the process exit code. Errors
// go to stderr prefixed with "fprlab: ".
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return newStreams(stdin, stdout, stderr).run(ctx, args)
}

// run executes the command line with the streams s.
func (s *streams) run(ctx context.Context, args []string) int {
	stderr, out := s.Err, s.out
	s.argv = append([]string{"fprlab"}, args...)
	root := newRootCmd(s)
	root.SetArgs(args)
	root.SetOut(out)
	root.SetErr(stderr)
	root.SetIn(s.In)
	var err error
	if c, rest, ferr := root.Find(args); ferr == nil {
		err = repeatedFlags(c, rest)
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
		return exitUsage
	}
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "fprlab:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "fprlab:", err)
	return exitUsage
}

// repeatedFlags refuses a flag given twice in args (the arguments of
// command c): pflag keeps the last value, so "--seed a ... --seed b" would
// silently measure seed b. Flags that collect values (--backend of plot,
// comma lists given in parts) may repeat. Arguments after "--" are not
// c's.
func repeatedFlags(c *cobra.Command, args []string) error {
	seen := map[string]string{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if !strings.HasPrefix(a, "--") {
			continue
		}
		name, val, hasVal := strings.Cut(a[2:], "=")
		f := c.Flags().Lookup(name)
		if f == nil {
			continue // cobra reports unknown flags
		}
		if !hasVal && f.NoOptDefVal == "" && i+1 < len(args) {
			i++
			val = args[i]
		}
		if t := f.Value.Type(); strings.HasSuffix(t, "Slice") || strings.HasSuffix(t, "Array") {
			continue
		}
		if prev, ok := seen[name]; ok {
			if f.NoOptDefVal != "" && prev == "" && val == "" {
				return fmt.Errorf("--%s is given twice: give it once", name)
			}
			return fmt.Errorf("--%s is given twice (%q and %q): give it once", name, prev, val)
		}
		seen[name] = val
	}
	return nil
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

// printJSON writes v as indented JSON: the one form of every command's
// --json output.
func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// writeOutputs writes the result files of a command as one step (see
// safefile.WriteFiles); "-" goes to the command's standard output.
func (s *streams) writeOutputs(files ...safefile.File) error {
	return safefile.WriteFiles(s.Out, files...)
}
