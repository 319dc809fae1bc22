//go:build unix

package main

// Plugins run isolated (issue 33). A command line naming a plugin backend
// ("so:PATH", alone, in a list or as a plan stage) runs in a worker: this
// program re-executed with FPRLAB_PLUGIN_WORKER=1 and the same arguments.
// The worker loads the library and runs the whole command -- signing,
// shadowing, writing the campaign directory under its lock -- so no call
// crosses a process boundary (a shadowed Falcon-512 signature makes ~5,000
// calls into the plugin, and a message per call would cost more than the
// calls); what crosses is:
//
//   - fprlab's own output: the worker writes its standard output and
//     standard error to descriptors 3 and 4, the supervisor's own stdout
//     and stderr, passed down. The worker's descriptors 1 and 2 -- where
//     the plugin's printf, and the Go runtime's crash report, go -- are a
//     pipe the supervisor reads: plugin lines reach stderr prefixed with
//     the backend's name, a runtime crash report is kept back, and --json
//     output on stdout stays fprlab's alone.
//   - a monitor page (cabi.AttachMonitor, descriptor 5): the worker
//     counts the calls into plugins in shared memory and names the last
//     function entered, and records its exit status when it ends by its
//     own decision (cabi.Exit).
//
// A worker that ends without recording its status was ended by a plugin:
// exit() inside it, a crash (the runtime's report names the signal), or
// the supervisor's watchdog, which kills a worker whose call into a
// plugin has not returned after FPRLAB_PLUGIN_TIMEOUT (a Go duration,
// default 10m). The supervisor then prints one line naming the backend,
// what happened, the function it happened in and the units of work under
// way (arith.StartUnit: "signature 17", "record 3"), and exits with
// exitPlugin. Everything the worker finished is on disk as after any
// crash (campaign segments and checkpoints are written unit by unit), so
// the same command resumes. A plugin that returns an error status or
// writes past a block it was handed (cabi.OverrunError) is stopped by
// the worker itself, with the same status.
//
// Interrupts: the terminal sends Ctrl-C to both processes; the worker
// ignores SIGINT and takes SIGUSR1 from the supervisor instead, which
// forwards each SIGINT and SIGTERM it gets, so that one Ctrl-C is one
// interrupt whether it came from a terminal or from kill.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/fprlab/fprlab/arith"
	"github.com/fprlab/fprlab/arith/cabi"
)

const (
	workerEnv            = "FPRLAB_PLUGIN_WORKER"
	pluginTimeoutEnv     = "FPRLAB_PLUGIN_TIMEOUT"
	defaultPluginTimeout = 10 * time.Minute
	// The worker's descriptors beyond 0-2.
	workerStdoutFD  = 3
	workerStderrFD  = 4
	workerMonitorFD = 5
	// workerInterrupt is the signal by which the supervisor passes an
	// interrupt on.
	workerInterrupt = syscall.SIGUSR1
)

// isWorker reports whether this process is a plugin worker.
func isWorker() bool { return os.Getenv(workerEnv) == "1" }

// needsWorker reports whether the command line names a plugin backend.
// Every backend a command computes with is named on its command line
// (resuming a campaign repeats the command), so the words suffice; a
// word that only looks like one (a file named "so:x") costs a worker for
// nothing.
func needsWorker(args []string) bool {
	for _, a := range args {
		if strings.Contains(a, "so:") {
			return true
		}
	}
	return false
}

// pluginNames are the plugin backends of args, for messages about a
// worker that ended before it could say which one it was calling.
func pluginNames(args []string) []string {
	var names []string
	for _, a := range args {
		for _, f := range strings.FieldsFunc(a, func(r rune) bool { return r == ',' || r == '=' || r == '+' }) {
			if i := strings.Index(f, "so:"); i >= 0 && !strings.Contains(strings.Join(names, "\x00"), f[i:]) {
				names = append(names, f[i:])
			}
		}
	}
	return names
}

// workerMain runs the command line args as a worker and returns its exit
// status (recorded on the monitor page first).
func workerMain(args []string) int {
	stdout, stderr := os.NewFile(workerStdoutFD, "stdout"), os.NewFile(workerStderrFD, "stderr")
	mon := os.NewFile(workerMonitorFD, "monitor")
	if stdout == nil || stderr == nil || mon == nil {
		fmt.Fprintln(os.Stderr, "fprlab: "+workerEnv+" is set, but this process was not started as a plugin worker")
		return exitUsage
	}
	if err := cabi.AttachMonitor(mon); err != nil {
		fmt.Fprintln(stderr, "fprlab: plugin worker:", err)
		return exitUsage
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
		exit(exitPlugin)
	}
	arith.UnitHook = cabi.MonitorUnit
	signal.Ignore(os.Interrupt)
	code := runMain(os.Stdin, stdout, stderr, args, exit, workerInterrupt, syscall.SIGTERM)
	cabi.Exit(code)
	return code
}

// runtimeReport matches the first line of the Go runtime's report of a
// crash (a signal in the plugin's C code reaches the runtime's handler),
// a fatal error or a panic.
var runtimeReport = regexp.MustCompile(`^(SIG[A-Z0-9]+: |Signal \d+|fatal error: |panic: |unexpected fault address)`)

// supervise runs the command line args in a worker and returns the exit
// status to end with.
func supervise(args []string, stdin, stdout, stderr *os.File) int {
	names := pluginNames(args)
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "fprlab: running plugin %s in a worker process: %s\n", strings.Join(names, ", "), fmt.Sprintf(format, a...))
		return exitUsage
	}
	timeout := defaultPluginTimeout
	if v := os.Getenv(pluginTimeoutEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return fail("%s=%q is not a positive duration (e.g. 30m)", pluginTimeoutEnv, v)
		}
		timeout = d
	}
	exe, err := os.Executable()
	if err != nil {
		return fail("%v", err)
	}
	mon, err := os.CreateTemp("", "fprlab-monitor-")
	if err != nil {
		return fail("%v", err)
	}
	os.Remove(mon.Name())
	defer mon.Close()
	if err := mon.Truncate(cabi.MonitorSize); err != nil {
		return fail("%v", err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return fail("%v", err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = os.Args[0]
	cmd.Env = append(os.Environ(), workerEnv+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, pw, pw
	cmd.ExtraFiles = []*os.File{stdout, stderr, mon}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return fail("%v", err)
	}
	prefix := "fprlab: plugin output: "
	if len(names) == 1 {
		prefix = "fprlab: " + names[0] + ": "
	}
	report := make(chan string, 1)
	go func() { report <- relayPluginOutput(pr, stderr, prefix) }()
	waited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(waited)
	}()
	var interrupts int
	hung := false
	tick := time.NewTicker(min(time.Second, timeout/4))
	defer tick.Stop()
	var completed uint64
	progress := time.Now()
wait:
	for {
		select {
		case <-waited:
			break wait
		case <-sigs:
			interrupts++
			cmd.Process.Signal(workerInterrupt)
		case <-tick.C:
			st, err := cabi.ReadMonitor(mon)
			if err != nil || st.InFlight == 0 || st.Completed != completed {
				completed, progress = st.Completed, time.Now()
				continue
			}
			if time.Since(progress) >= timeout {
				hung = true
				cmd.Process.Kill()
			}
		}
	}
	// The pipe ends with the worker, unless the plugin left a process of
	// its own holding it.
	var crash string
	select {
	case crash = <-report:
	case <-time.After(time.Second):
	}
	st, err := cabi.ReadMonitor(mon)
	if err != nil {
		return fail("%v", err)
	}
	if st.Exited && !hung {
		return st.Code
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if interrupts > 0 && ws.Signaled() && ws.Signal() == workerInterrupt {
		// A second interrupt ends the worker at once, as it ends fprlab.
		fmt.Fprintln(stderr, "fprlab: interrupted")
		return exitInterrupted
	}
	backend := st.Backend
	if backend == "" {
		backend = strings.Join(names, ", ")
	}
	var what, detail string
	switch {
	case hung:
		what, detail = "hung", fmt.Sprintf(": no call returned for %v (%s), so the worker was killed", timeout, pluginTimeoutEnv)
	case crash != "":
		what = "crashed (" + crash + ")"
	case ws.Signaled():
		what = fmt.Sprintf("was killed by signal %d (%v)", ws.Signal(), ws.Signal())
	default:
		what = fmt.Sprintf("ended the process with exit status %d (exit() inside the plugin)", ws.ExitStatus())
	}
	var where string
	switch {
	case !st.Attached:
		where = "before the plugin worker started"
	case st.Func == "":
		where = "before any call into the plugin"
	case st.InFlight > 0:
		where = "in " + st.Func
	default:
		where = "after " + st.Func + " returned (no call into the plugin was running)"
	}
	unit := ""
	if len(st.Units) > 0 {
		unit = " at " + strings.Join(st.Units, ", ")
	}
	fmt.Fprintf(stderr, "fprlab: plugin %s %s %s%s, running %q%s; work already saved (campaign segments, checkpoints) is kept, and the same command resumes it\n",
		backend, what, where, detail, strings.Join(args[:min(len(args), 1)], ""), unit)
	return exitPlugin
}

// relayPluginOutput copies the lines the worker's descriptors 1 and 2
// receive -- the plugin's own output -- to stderr, each prefixed, until a
// Go runtime report begins; it returns that report's first line ("" if
// none) once the pipe is closed. Lines are cut at 64 KiB.
func relayPluginOutput(r io.ReadCloser, stderr io.Writer, prefix string) string {
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	var report string
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 && report == "" {
			text := string(bytes.TrimRight(line, "\r\n"))
			if runtimeReport.MatchString(text) {
				report = text
			} else {
				fmt.Fprintf(stderr, "%s%s\n", prefix, text)
			}
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return report
		}
	}
}
