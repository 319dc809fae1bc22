//go:build unix

// Package isolate runs a command line that loads arithmetic plugins in a
// worker process and supervises it, so that a plugin which exits, crashes,
// hangs or prints cannot end or fool the run that loaded it.
//
// The worker is the program itself, re-executed with Env=1 and the same
// arguments. It loads the libraries and runs the whole command -- signing,
// shadowing, writing the campaign directory under its lock -- so no call
// crosses a process boundary (a shadowed Falcon-512 signature makes ~5,000
// calls into the plugin, and a message per call would cost more than the
// calls); what crosses is:
//
//   - the program's own output: the worker writes its standard output and
//     standard error to descriptors 3 and 4, the supervisor's own stdout
//     and stderr, passed down. The worker's descriptors 1 and 2 -- where
//     the plugin's printf, and the Go runtime's crash report, go -- are a
//     pipe the supervisor reads: plugin lines reach stderr prefixed with
//     the backend's name, a runtime crash report is kept back, and --json
//     output on stdout stays the program's alone.
//   - a monitor page (cabi.AttachMonitor, descriptor 5): the worker counts
//     the calls into plugins in shared memory and names the last function
//     entered, and records its exit status when it ends by its own
//     decision (cabi.Exit).
//
// A worker that ends without recording its status was ended by a plugin:
// exit() inside it, a crash (the runtime's report names the signal), or
// the supervisor's watchdog, which kills a worker whose call into a
// plugin has not returned after TimeoutEnv (a Go duration, default
// DefaultTimeout). Supervise then returns an Outcome whose Failure is one
// line naming the backend, what happened, the function it happened in and
// the units of work under way (arith.StartUnit: "signature 17", "record
// 3"). Everything the worker finished is on disk as after any crash
// (campaign segments and checkpoints are written unit by unit), so the
// same command resumes.
//
// Interrupts: the terminal sends Ctrl-C to both processes; the worker
// ignores SIGINT and takes Interrupt (SIGUSR1) from the supervisor
// instead, which forwards each SIGINT and SIGTERM it gets, so that one
// Ctrl-C is one interrupt whether it came from a terminal or from kill.
package isolate

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
	"syscall"
	"time"

	"github.com/fprlab/fprlab/arith/cabi"
)

const (
	// Env is set to "1" in a worker's environment.
	Env = "FPRLAB_PLUGIN_WORKER"
	// TimeoutEnv overrides DefaultTimeout: how long a call into a plugin
	// may run before the worker is killed.
	TimeoutEnv     = "FPRLAB_PLUGIN_TIMEOUT"
	DefaultTimeout = 10 * time.Minute
	// Interrupt is the signal by which the supervisor passes an interrupt
	// on.
	Interrupt = syscall.SIGUSR1
	// The worker's descriptors beyond 0-2.
	stdoutFD  = 3
	stderrFD  = 4
	monitorFD = 5
)

// IsWorker reports whether this process is a worker.
func IsWorker() bool { return os.Getenv(Env) == "1" }

// Needed reports whether the command line args names a plugin backend.
// Every backend a command computes with is named on its command line
// (resuming a campaign repeats the command), so the words suffice; a
// word that only looks like one (a file named "so:x") costs a worker for
// nothing.
func Needed(args []string) bool {
	for _, a := range args {
		if strings.Contains(a, "so:") {
			return true
		}
	}
	return false
}

// PluginNames are the plugin backends of args, for messages about a
// worker that ended before it could say which one it was calling.
func PluginNames(args []string) []string {
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

// Attach is a worker's start: it returns the program's standard output
// and standard error (descriptors 3 and 4) and attaches the monitor page
// (descriptor 5). It fails in a process not started by Supervise.
func Attach() (stdout, stderr *os.File, err error) {
	stdout, stderr = os.NewFile(stdoutFD, "stdout"), os.NewFile(stderrFD, "stderr")
	mon := os.NewFile(monitorFD, "monitor")
	if stdout == nil || stderr == nil || mon == nil {
		return nil, nil, errors.New(Env + " is set, but this process was not started as a plugin worker")
	}
	if err := cabi.AttachMonitor(mon); err != nil {
		return nil, stderr, fmt.Errorf("plugin worker: %w", err)
	}
	return stdout, stderr, nil
}

// runtimeReport matches the first line of the Go runtime's report of a
// crash (a signal in the plugin's C code reaches the runtime's handler),
// a fatal error or a panic.
var runtimeReport = regexp.MustCompile(`^(SIG[A-Z0-9]+: |Signal \d+|fatal error: |panic: |unexpected fault address)`)

// Supervise runs the command line args in a worker, with the standard
// streams given, and returns how it ended. An error says the worker could
// not be run (a bad TimeoutEnv, no executable, no pipe).
func Supervise(args []string, stdin, stdout, stderr *os.File) (Outcome, error) {
	names := PluginNames(args)
	timeout := DefaultTimeout
	if v := os.Getenv(TimeoutEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			return Outcome{}, fmt.Errorf("%s=%q is not a positive duration (e.g. 30m)", TimeoutEnv, v)
		}
		timeout = d
	}
	exe, err := os.Executable()
	if err != nil {
		return Outcome{}, err
	}
	mon, err := os.CreateTemp("", "fprlab-monitor-")
	if err != nil {
		return Outcome{}, err
	}
	os.Remove(mon.Name())
	defer mon.Close()
	if err := mon.Truncate(cabi.MonitorSize); err != nil {
		return Outcome{}, err
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return Outcome{}, err
	}
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = os.Args[0]
	cmd.Env = append(os.Environ(), Env+"=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, pw, pw
	cmd.ExtraFiles = []*os.File{stdout, stderr, mon}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	err = cmd.Start()
	pw.Close()
	if err != nil {
		pr.Close()
		return Outcome{}, err
	}
	prefix := "fprlab: plugin output: "
	if len(names) == 1 {
		prefix = "fprlab: " + names[0] + ": "
	}
	report := make(chan string, 1)
	go func() { report <- relay(pr, stderr, prefix) }()
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
			cmd.Process.Signal(Interrupt)
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
		return Outcome{}, err
	}
	if st.Exited && !hung {
		return Outcome{Decided: true, Code: st.Code}, nil
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if interrupts > 0 && ws.Signaled() && ws.Signal() == Interrupt {
		return Outcome{Interrupted: true}, nil
	}
	backend := st.Backend
	if backend == "" {
		backend = strings.Join(names, ", ")
	}
	var what, detail string
	switch {
	case hung:
		what, detail = "hung", fmt.Sprintf(": no call returned for %v (%s), so the worker was killed", timeout, TimeoutEnv)
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
	return Outcome{Failure: fmt.Sprintf("fprlab: plugin %s %s %s%s, running %q%s; work already saved (campaign segments, checkpoints) is kept, and the same command resumes it",
		backend, what, where, detail, strings.Join(args[:min(len(args), 1)], ""), unit)}, nil
}

// relay copies the lines the worker's descriptors 1 and 2 receive -- the
// plugin's own output -- to stderr, each prefixed, until a Go runtime
// report begins; it returns that report's first line ("" if none) once
// the pipe is closed. Lines are cut at 64 KiB.
func relay(r io.ReadCloser, stderr io.Writer, prefix string) string {
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
