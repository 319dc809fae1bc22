// Package dirlock keeps two processes from writing one campaign directory
// at once. A writer holds an exclusive flock(2) on DIR/lock for as long as
// it has the directory open; readers (merge reading a shard) hold a shared
// one. The lock is the kernel's: it goes with the process, so a run killed
// with kill -9 leaves no stale lock behind, and the lock file itself (which
// holds the writer's process id, for the message) may stay.
//
// A second writer does not wait: it fails at once with an error naming the
// directory and the holder's process id, so that a mistaken second run of a
// long campaign is noticed instead of stalling or writing every unit twice.
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Name is the lock file of a directory.
const Name = "lock"

// ErrBusy is wrapped by the error of a lock another process holds.
var ErrBusy = errors.New("in use by another process")

// Lock is a held lock; Unlock releases it.
type Lock struct {
	f *os.File
}

// Exclusive takes the writer's lock of dir (which must exist).
func Exclusive(dir string) (*Lock, error) { return take(dir, true) }

// Shared takes a reader's lock of dir: it excludes writers, not readers.
func Shared(dir string) (*Lock, error) { return take(dir, false) }

func take(dir string, exclusive bool) (*Lock, error) {
	path := filepath.Join(dir, Name)
	flag := os.O_RDONLY
	if exclusive {
		flag = os.O_RDWR | os.O_CREATE
	}
	f, err := os.OpenFile(path, flag, 0o644)
	if errors.Is(err, os.ErrNotExist) && !exclusive {
		// A directory no writer ever locked (an earlier version's, or
		// read-only media): nothing to exclude.
		return &Lock{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := flock(f, exclusive); err != nil {
		holder := ""
		if b, rerr := os.ReadFile(path); rerr == nil {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil && pid > 0 {
				holder = fmt.Sprintf(" (pid %d)", pid)
			}
		}
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("%s is %w%s, which holds %s: wait for it to finish or use another directory", dir, ErrBusy, holder, path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if exclusive {
		// The holder's pid, for the message of a second process; the
		// lock itself is the flock, not this content.
		if err := f.Truncate(0); err == nil {
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
	}
	return &Lock{f: f}, nil
}

// Unlock releases the lock (closing its file releases the flock).
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}
