//go:build unix

package main

// Plugins run isolated (package internal/isolate): a command line naming a
// plugin backend ("so:PATH", alone, in a list or as a plan stage) runs in
// a worker, this program re-executed, which supervise watches; workerMain
// is the worker's side.

import (
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
	"github.com/fprlab/fprlab/internal/cli"
	"github.com/fprlab/fprlab/internal/isolate"
)

// workerMain runs the command line args as a worker and returns its exit
// status (recorded on the monitor page first). A plugin that returns an
// error status or writes past a block it was handed (cabi.OverrunError)
// is stopped here (cabi.Fail), with cli.ExitPlugin.
func workerMain(args []string) int {
	stdout, stderr, err := isolate.Attach()
	if err != nil {
		if stderr == nil {
			stderr = os.Stderr
		}
		fmt.Fprintln(stderr, "fprlab:", err)
		return cli.ExitUsage
	}
	exit := func(code int) {
		cabi.Exit(code)
		os.Exit(code)
	}
	var failing sync.Mutex
	cabi.Fail = func(err error) {
		failing.Lock() // never unlocked: one message, then the end
		if u := cabi.MonitorUnits(); len(u) > 0 {
			err = fmt.Errorf("%w (at %s)", err, strings.Join(u, ", "))
		}
		fmt.Fprintln(stderr, "fprlab:", err)
		exit(cli.ExitPlugin)
	}
	arith.UnitHook = cabi.MonitorUnit
	signal.Ignore(os.Interrupt)
	code := cli.RunMain(os.Stdin, stdout, stderr, args, newRootCmd, exit, isolate.Interrupt, syscall.SIGTERM)
	cabi.Exit(code)
	return code
}

// supervise runs the command line args in a worker and returns the exit
// status to end with: the worker's own, cli.ExitInterrupted, or cli.ExitPlugin
// after the line saying how a plugin ended it.
func supervise(args []string, stdin, stdout, stderr *os.File) int {
	o, err := isolate.Supervise(args, stdin, stdout, stderr)
	switch {
	case err != nil:
		fmt.Fprintf(stderr, "fprlab: running plugin %s in a worker process: %v\n", strings.Join(isolate.PluginNames(args), ", "), err)
		return cli.ExitUsage
	case o.Decided:
		return o.Code
	case o.Interrupted:
		fmt.Fprintln(stderr, "fprlab: interrupted")
		return cli.ExitInterrupted
	}
	fmt.Fprintln(stderr, o.Failure)
	return cli.ExitPlugin
}
