package dirlock

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestExclusiveRefusesSecondHolder: a second exclusive lock, or a shared
// one, fails at once while the first is held (flock locks of two open
// files conflict even within one process), naming the holder's pid; after
// Unlock the lock is free again.
func TestExclusiveRefusesSecondHolder(t *testing.T) {
	dir := t.TempDir()
	l, err := Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, take := range []func(string) (*Lock, error){Exclusive, Shared} {
		_, err := take(dir)
		if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", os.Getpid())) {
			t.Errorf("second lock: %v, want ErrBusy naming pid %d", err, os.Getpid())
		}
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	s1, err := Shared(dir)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Shared(dir)
	if err != nil {
		t.Errorf("two readers: %v", err)
	}
	if _, err := Exclusive(dir); !errors.Is(err, ErrBusy) {
		t.Errorf("writer beside readers: %v", err)
	}
	s1.Unlock()
	s2.Unlock()
}

// TestLockDiesWithProcess: a lock held by a process killed with SIGKILL is
// free at once (the child is this test binary, holding the lock).
func TestLockDiesWithProcess(t *testing.T) {
	if dir := os.Getenv("DIRLOCK_HOLD"); dir != "" {
		if _, err := Exclusive(dir); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("held\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockDiesWithProcess$")
	cmd.Env = append(os.Environ(), "DIRLOCK_HOLD="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "held\n" {
		t.Fatalf("child: %q", line)
	}
	if _, err := Exclusive(dir); !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("pid %d", cmd.Process.Pid)) {
		t.Errorf("while the child holds it: %v", err)
	}
	cmd.Process.Kill()
	cmd.Wait()
	l, err := Exclusive(dir)
	if err != nil {
		t.Fatalf("after kill -9 of the holder: %v", err)
	}
	l.Unlock()
}

// TestReaderNamesNoStalePid: a writer refused because readers hold the
// lock is told so without a pid -- the file's pid is that of a writer long
// gone (here one killed before it could clear it) -- and a writer clears
// its pid when it unlocks.
func TestReaderNamesNoStalePid(t *testing.T) {
	dir := t.TempDir()
	l, err := Exclusive(dir)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	if b, err := os.ReadFile(filepath.Join(dir, Name)); err != nil || len(b) != 0 {
		t.Errorf("after Unlock the lock file holds %q (%v), want nothing", b, err)
	}
	if err := os.WriteFile(filepath.Join(dir, Name), []byte("999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := Shared(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Unlock()
	_, err = Exclusive(dir)
	if !errors.Is(err, ErrBusy) || strings.Contains(err.Error(), "pid") || !strings.Contains(err.Error(), "in use by another process (reading it)") {
		t.Errorf("writer beside a reader: %v, want ErrBusy naming no pid", err)
	}
}
