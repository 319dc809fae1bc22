//go:build unix

package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileLock: a file's lock refuses a second holder, naming the first's
// pid and the file; Unlock removes the lock file, and the lock can be
// taken again.
func TestFileLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.ckpt.lock")
	l, err := File(path, "checkpoint run.ckpt")
	if err != nil {
		t.Fatal(err)
	}
	_, err = File(path, "checkpoint run.ckpt")
	if !errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), fmt.Sprintf("checkpoint run.ckpt is in use by another process (pid %d)", os.Getpid())) {
		t.Errorf("second lock: %v", err)
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Unlock: %v", err)
	}
	l2, err := File(path, "checkpoint run.ckpt")
	if err != nil {
		t.Fatalf("after Unlock: %v", err)
	}
	l2.Unlock()
	// A lock file left by a run that was killed (its pid) is taken over.
	if err := os.WriteFile(path, []byte("12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l3, err := File(path, "checkpoint run.ckpt")
	if err != nil {
		t.Fatalf("a killed run's lock file: %v", err)
	}
	l3.Unlock()
}

// TestFileLockKeepsOtherFiles: what is at the lock's path and is not a
// lock file -- a file of other content, a symbolic link, a directory --
// is refused and left as it was; a lock file replaced while held (another
// output written over it) is not removed by Unlock.
func TestFileLockKeepsOtherFiles(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.ckpt.lock")
	if err := os.WriteFile(notes, []byte("my notes\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	victim := filepath.Join(dir, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.ckpt.lock")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "dir.ckpt.lock")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{notes: "is not a lock file", link: "not a regular file", sub: "lock " + sub} {
		if l, err := File(path, "checkpoint x"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error with %q", path, err, want)
			if l != nil {
				l.Unlock()
			}
		}
	}
	for path, want := range map[string]string{notes: "my notes\n", victim: "keep me\n"} {
		if b, err := os.ReadFile(path); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", path, b, err, want)
		}
	}
	path := filepath.Join(dir, "out.ckpt.lock")
	l, err := File(path, "checkpoint out.ckpt")
	if err != nil {
		t.Fatal(err)
	}
	tmp := path + ".new"
	if err := os.WriteFile(tmp, []byte("an output\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	l.Unlock()
	if b, err := os.ReadFile(path); err != nil || string(b) != "an output\n" {
		t.Errorf("the file written over the lock: %q, %v", b, err)
	}
}
