package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	_ "github.com/fprlab/fprlab/arith/backends" // register every backend
)

// Exit codes. Commands that answer a yes/no question (verify) use
// exitFalse for "no"; every malformed input or usage error is exitUsage.
const (
	exitOK    = 0
	exitFalse = 1
	exitUsage = 2
)

// subcommands holds the constructors of the top-level commands; each
// command's file appends its own in an init function.
var subcommands []func() *cobra.Command

// exitError carries an exit code other than exitUsage out of a command.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func newRootCmd() *cobra.Command {
	root := &cobra.Command{
		Use:   "fprlab",
		Short: "Which floating-point arithmetic is precise enough for Falcon, and what does it cost?",
		Long: `fprlab runs the Falcon signature scheme (round 3, Falcon-impl-20211101) over
interchangeable floating-point backends -- integer-emulated binary64, native
binary64, triple-word binary32, and a big-float oracle -- and measures each
against the oracle: KAT conformance, operation errors and sampler error bounds.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	for _, c := range subcommands {
		root.AddCommand(c())
	}
	return root
}

// run executes the command line and returns the process exit code. Errors
// go to stderr prefixed with "fprlab: ".
func run(args []string, stdout, stderr io.Writer) int {
	root := newRootCmd()
	root.SetArgs(args)
	root.SetOut(stdout)
	root.SetErr(stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, "fprlab:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "fprlab:", err)
	return exitUsage
}
