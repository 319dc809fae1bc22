package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/fprlab/fprlab/internal/safefile"
)

// TestWatchInterruptAfterCommandReturned checks the case RunMain creates
// on every run: the command has returned (done closed) and RunMain has
// then cancelled the signal context, both before the watcher reaches its
// select. The watcher must not take that for an interrupt (select picks
// a ready case at random), so 500 tries with both ready must never call
// exit.
func TestWatchInterruptAfterCommandReturned(t *testing.T) {
	for i := range 500 {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		close(done)
		cancel()
		var stderr bytes.Buffer
		exited := -1
		watchInterrupt(ctx, cancel, done, NewStreams(nil, nil, nil), &stderr, func(c int) { exited = c })
		if exited != -1 || stderr.Len() != 0 {
			t.Fatalf("try %d: the watcher exited %d (%q) after the command had returned", i, exited, stderr.String())
		}
	}
}

// TestWatchInterrupt checks the interrupt itself: a command that cannot
// stop cleanly ends with ExitInterrupted; one that can (StopOnInterrupt)
// is left to stop, with the handler removed so that a second interrupt
// ends it.
func TestWatchInterrupt(t *testing.T) {
	for _, stoppable := range []bool{false, true} {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		s := NewStreams(nil, nil, nil)
		if stoppable {
			s.StopOnInterrupt()
		}
		var stderr bytes.Buffer
		exited, stopped := -1, false
		watchInterrupt(ctx, func() { stopped = true }, make(chan struct{}), s, &stderr, func(c int) { exited = c })
		switch {
		case !stopped:
			t.Errorf("stoppable %v: the signal handler was not removed", stoppable)
		case !stoppable && (exited != ExitInterrupted || !strings.Contains(stderr.String(), "interrupted")):
			t.Errorf("not stoppable: exit %d, stderr %q; want %d", exited, stderr.String(), ExitInterrupted)
		case stoppable && (exited != -1 || !strings.Contains(stderr.String(), "stopping after the current step")):
			t.Errorf("stoppable: exit %d, stderr %q; want no exit", exited, stderr.String())
		}
	}
}

// testRoot is a two-level tree: "x" with a --seed flag and a --list slice
// flag, under a group "g".
func testRoot(s *Streams, run func(cmd *cobra.Command) error) *cobra.Command {
	root := &cobra.Command{Use: "fprlab", SilenceUsage: true, SilenceErrors: true}
	g := &cobra.Command{Use: "g"}
	x := &cobra.Command{Use: "x", RunE: func(cmd *cobra.Command, _ []string) error { return run(cmd) }}
	x.Flags().String("seed", "", "")
	x.Flags().StringSlice("list", nil, "")
	x.Flags().Bool("json", false, "")
	g.AddCommand(x)
	root.AddCommand(g)
	RequireSubcommand(root)
	root.SetHelpCommand(NewHelpCmd(root))
	return root
}

// failWriter fails every write, as a full disk does.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestRunExitCodes checks the mapping of a command's outcome to the exit
// status: success 0, a plain error 2 with "fprlab: " before it, an
// ExitError its code, a repeated flag 2 before the command runs, a group
// without its subcommand 2, an unknown help topic 2, and a result lost to
// a failing standard output 2 even when the command ignored the error.
func TestRunExitCodes(t *testing.T) {
	cases := []struct {
		name string
		args []string
		err  error
		out  func() *Streams
		want int
		msg  string
	}{
		{"ok", []string{"g", "x"}, nil, nil, ExitOK, ""},
		{"error", []string{"g", "x"}, errors.New("bad flag"), nil, ExitUsage, "fprlab: bad flag"},
		{"false", []string{"g", "x"}, &ExitError{Code: ExitFalse, Err: errors.New("does not verify")}, nil, ExitFalse, "fprlab: does not verify"},
		{"interrupted", []string{"g", "x"}, Interrupted("DIR"), nil, ExitInterrupted, "interrupted before any work was finished: nothing is saved in DIR"},
		{"twice", []string{"g", "x", "--seed", "a", "--seed=b"}, nil, nil, ExitUsage, `--seed is given twice ("a" and "b")`},
		{"bool twice", []string{"g", "x", "--json", "--json"}, nil, nil, ExitUsage, "--json is given twice: give it once"},
		{"slice repeats", []string{"g", "x", "--list", "a", "--list", "b"}, nil, nil, ExitOK, ""},
		{"after --", []string{"g", "x", "--seed", "a", "--", "--seed", "b"}, nil, nil, ExitOK, ""},
		{"group", []string{"g"}, nil, nil, ExitUsage, "fprlab g needs a command: one of x"},
		{"unknown", []string{"g", "y"}, nil, nil, ExitUsage, `unknown command "y" for "fprlab g"`},
		{"help topic", []string{"help", "nope"}, nil, nil, ExitUsage, `unknown help topic "nope"`},
		{"lost output", []string{"g", "x"}, nil, func() *Streams { return NewStreams(nil, failWriter{}, nil) }, ExitUsage, "writing standard output: no space left on device"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		s := NewStreams(nil, &bytes.Buffer{}, &stderr)
		if c.out != nil {
			s = c.out()
			s.Err = &stderr
		}
		root := testRoot(s, func(cmd *cobra.Command) error {
			s.Out.Write([]byte("result\n")) // the error is ignored, as Fprintf's often is
			return c.err
		})
		if got := s.Run(context.Background(), root, c.args); got != c.want || !strings.Contains(stderr.String(), c.msg) {
			t.Errorf("%s: exit %d, stderr %q; want %d and %q", c.name, got, stderr.String(), c.want, c.msg)
		}
		if want := append([]string{"fprlab"}, c.args...); strings.Join(s.Argv, " ") != strings.Join(want, " ") {
			t.Errorf("%s: Argv %q", c.name, s.Argv)
		}
	}
}

// TestReadInput checks the modes and caps of ReadInput: raw bytes as
// they are, hex text decoded (whitespace ignored) in HexFile and
// detected in AutoFile (a 0x prefix allowed; an odd number of digits is a
// damaged hex file, not a raw one), a raw file that is not hex kept raw in AutoFile,
// invalid hex refused in HexFile, and the cap applied to the decoded
// length with the flag in the message.
func TestReadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := dir + "/" + name
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s := NewStreams(strings.NewReader("from stdin"), nil, nil)
	hexp, rawp := write("h", "0a0b\n 0c\n"), write("r", "\x50zz")
	oxp, oddp := write("0x", "0x0a0B0c\n"), write("odd", "0a0b0\n")
	oXp := write("0X", " 0X0a0B0c\n")
	badp, binp := write("bad", "0a0b\n0g0c0d0e0f01020304\n"), write("bin", "\x59\xa0\x0312\xffab")
	for _, c := range []struct {
		path string
		mode HexMode
		want string
	}{
		{rawp, RawFile, "\x50zz"}, {hexp, RawFile, "0a0b\n 0c\n"}, {hexp, HexFile, "\x0a\x0b\x0c"},
		{hexp, AutoFile, "\x0a\x0b\x0c"}, {rawp, AutoFile, "\x50zz"}, {"-", RawFile, "from stdin"},
		{oxp, AutoFile, "\x0a\x0b\x0c"}, {oxp, HexFile, "\x0a\x0b\x0c"}, {oXp, AutoFile, "\x0a\x0b\x0c"},
		{binp, AutoFile, "\x59\xa0\x0312\xffab"}, // binary: not text, read raw
	} {
		got, err := s.ReadInput("msg", c.path, 100, c.mode)
		if err != nil || string(got) != c.want {
			t.Errorf("%s mode %d: %q, %v; want %q", c.path, c.mode, got, err, c.want)
		}
	}
	for _, c := range []struct {
		flag, path string
		limit      int
		mode       HexMode
		msg        string
	}{
		{"msg", rawp, 100, HexFile, "msg file " + rawp + " is not valid hex"},
		{"pk", oddp, 100, AutoFile, "pk file " + oddp + " holds hex text with an odd number of digits (5)"},
		{"sk", badp, 100, AutoFile, "sk file " + badp + ` holds hex text with a character that is not a hex digit: "g" at offset 6 (counting from 0)`},
		{"sig", hexp, 2, HexFile, "the longest encoding of a signature of any scheme"},
		{"msg", rawp, 2, RawFile, "--msg " + rawp + ": larger than 2 bytes"},
		{"pk", "", 10, RawFile, "missing --pk FILE"},
		{"sk", dir + "/none", 10, RawFile, "reading sk"},
	} {
		if _, err := s.ReadInput(c.flag, c.path, c.limit, c.mode); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("--%s %s: error %v; want %q", c.flag, c.path, err, c.msg)
		}
	}
	if err := OneStdin(safefile.Arg{Flag: "sk", Path: "-"}, safefile.Arg{Flag: "msg", Path: rawp}); err != nil {
		t.Error(err)
	}
	err := OneStdin(safefile.Arg{Flag: "sk", Path: "-"}, safefile.Arg{Flag: "msg", Path: "-"})
	if err == nil || !strings.Contains(err.Error(), "--sk - and --msg - would both read standard input") {
		t.Errorf("two inputs from stdin: %v", err)
	}
}

// TestCheckPlotPrefix: a prefix is refused when it is "-", ends in .png
// or .svg, or names an existing directory or device; a new name or an
// existing regular file is a prefix.
func TestCheckPlotPrefix(t *testing.T) {
	dir := t.TempDir()
	for prefix, msg := range map[string]string{
		"-": "not standard output", dir + "/a.PNG": "without the extension", dir + "/a.svg": "without the extension",
		dir: "names an existing directory", "/dev/null": "names an existing device",
	} {
		if err := CheckPlotPrefix(prefix); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("--plot %s: %v; want %q", prefix, err, msg)
		}
	}
	for _, prefix := range []string{"", dir + "/fig", dir + "/fig.v2"} {
		if err := CheckPlotPrefix(prefix); err != nil {
			t.Errorf("--plot %s: %v", prefix, err)
		}
	}
}

// TestProgress: ProgressLines always reports the end and stays quiet
// between reports less than 2 s apart; ShowElapsed reports until stopped
// and not after.
func TestProgress(t *testing.T) {
	var b bytes.Buffer
	p := ProgressLines(&b, "compare: native", "units")
	p(1, 10)
	p(2, 10) // within 2 s of the first: not shown
	p(10, 10)
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "compare: native: 1/10 units, ") || !strings.HasPrefix(lines[1], "compare: native: 10/10 units, ") {
		t.Errorf("progress lines %q", lines)
	}
	old := ElapsedEvery
	ElapsedEvery = 2 * time.Millisecond
	defer func() { ElapsedEvery = old }()
	var e bytes.Buffer
	stop := ShowElapsed(context.Background(), &e, "keygen: Falcon-512 over oracle")
	time.Sleep(30 * time.Millisecond)
	stop()
	shown := e.String()
	time.Sleep(10 * time.Millisecond)
	if !strings.Contains(shown, "keygen: Falcon-512 over oracle: 0 s elapsed\n") || e.String() != shown {
		t.Errorf("elapsed display %q, then %q", shown, e.String())
	}
}

// lockedBuffer is a bytes.Buffer safe for the two goroutines that write
// stderr during an interrupt.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// TestRunMainInterruptOrder: a command that stops cleanly on an interrupt
// (StopOnInterrupt) and returns Interrupted exits with ExitInterrupted,
// and stderr says "stopping after the current step" before the command's
// "interrupted; the finished work is saved", as they happened.
func TestRunMainInterruptOrder(t *testing.T) {
	ckpt := filepath.Join(t.TempDir(), "ckpt")
	if err := os.WriteFile(ckpt, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		var stderr lockedBuffer
		code := RunMain(strings.NewReader(""), io.Discard, &stderr, []string{"g", "x"}, func(s *Streams) *cobra.Command {
			return testRoot(s, func(cmd *cobra.Command) error {
				s.StopOnInterrupt()
				if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
					return err
				}
				<-cmd.Context().Done()
				return Interrupted(ckpt)
			})
		}, func(c int) { t.Errorf("exit(%d) called", c) }, syscall.SIGUSR1)
		got := stderr.String()
		stop, saved := strings.Index(got, "stopping after the current step"), strings.Index(got, "interrupted; the finished work is saved in "+ckpt)
		if code != ExitInterrupted || stop < 0 || saved < stop {
			t.Fatalf("try %d: exit %d, stderr %q", i, code, got)
		}
	}
}

// TestInterruptedMessage: the message says the work is saved only when
// the checkpoint exists.
func TestInterruptedMessage(t *testing.T) {
	dir := t.TempDir()
	saved, missing := filepath.Join(dir, "saved"), filepath.Join(dir, "missing")
	if err := os.WriteFile(saved, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		"":      "interrupted",
		saved:   "interrupted; the finished work is saved in " + saved + ": run the same command again to resume",
		missing: "interrupted before any work was finished: nothing is saved in " + missing,
	} {
		err := Interrupted(path)
		var ee *ExitError
		if !errors.As(err, &ee) || ee.Code != ExitInterrupted || err.Error() != want {
			t.Errorf("Interrupted(%q) = %v, want %q", path, err, want)
		}
	}
}

// TestCheckPathFlags: an explicitly empty path, and "-" for a directory,
// are refused; "-" for a file, a path, and flags left out pass.
func TestCheckPathFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--dir", "-"}, "--dir -: this is a directory"},
		{[]string{"--dir", ""}, "--dir is empty: give a directory name"},
		{[]string{"--file", ""}, "--file is empty: give a file name"},
		{[]string{"--sk="}, "--sk is empty: give a file name"},
		{[]string{"--file", "-", "--dir", "d", "--sk", "k", "--seed", ""}, ""},
		{nil, ""},
	} {
		cmd := &cobra.Command{Use: "x"}
		cmd.Flags().String("dir", "", "campaign `DIR`")
		cmd.Flags().String("file", "", "output `FILE`")
		cmd.Flags().String("sk", "", "key to `SK`")
		cmd.Flags().String("seed", "", "seed `HEX`")
		if err := cmd.ParseFlags(c.args); err != nil {
			t.Fatal(err)
		}
		err := CheckPathFlags(cmd)
		if (c.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%q: %v, want %q", c.args, err, c.want)
		}
	}
}
