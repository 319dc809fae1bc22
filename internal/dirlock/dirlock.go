// Package dirlock keeps two processes from writing one campaign directory
// at once. A writer holds an exclusive flock(2) on DIR/lock for as long as
// it has the directory open; readers (merge reading a shard) hold a shared
// one. The lock is the kernel's: it goes with the process, so a run killed
// with kill -9 leaves no stale lock behind, and the lock file itself (which
// holds the writer's process id, for the message) may stay.
//
// A second writer does not wait: it fails at once with an error naming the
// directory and, when a writer holds it, that writer's process id, so that
// a mistaken second run of a long campaign is noticed instead of stalling
// or writing every unit twice.
package dirlock

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/fprlab/fprlab/internal/safefile"
)

// Name is the lock file of a directory.
const Name = "lock"

// ErrBusy is wrapped by the error of a lock another process holds.
var ErrBusy = errors.New("in use by another process")

// Lock is a held lock; Unlock releases it.
type Lock struct {
	f         *os.File
	exclusive bool
	// remove is the lock file's path when Unlock removes it (File).
	remove string
}

// Exclusive takes the writer's lock of dir (which must exist).
func Exclusive(dir string) (*Lock, error) { return take(dir, true) }

// Shared takes a reader's lock of dir: it excludes writers, not readers.
func Shared(dir string) (*Lock, error) { return take(dir, false) }

// File takes a writer's lock for a run that writes one file, such as a
// checkpoint: an exclusive flock on lockPath, created for the purpose and
// removed by Unlock; what names the file in the message of a second
// process. A lock file that Unlock removed between a second process's
// open and its flock is detected (it is no longer the file at lockPath)
// and opened again. lockPath must be a lock file or nothing: a symbolic
// link, a directory or a file with other content (not a process id) is
// refused, never truncated or removed.
func File(lockPath, what string) (*Lock, error) {
	for range 8 {
		f, err := os.OpenFile(lockPath, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", lockPath, err)
		}
		if err := isLockFile(f, lockPath); err != nil {
			f.Close()
			return nil, err
		}
		if err := flock(f, true); err != nil {
			f.Close()
			if errors.Is(err, errWouldBlock) {
				return nil, fmt.Errorf("%s is %w%s, which holds %s: wait for it to finish or give this run another file", what, ErrBusy, holder(lockPath, false), lockPath)
			}
			return nil, fmt.Errorf("lock %s: %w", lockPath, err)
		}
		if !samePath(f, lockPath) {
			f.Close() // removed by its holder's Unlock meanwhile
			continue
		}
		if err := f.Truncate(0); err == nil {
			f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
		}
		return &Lock{f: f, exclusive: true, remove: lockPath}, nil
	}
	return nil, fmt.Errorf("lock %s: the lock file keeps changing", lockPath)
}

// isLockFile refuses f, opened at path, unless path itself (not a link
// to it) is a regular file that is empty or holds a process id.
func isLockFile(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	li, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("lock %s: %w", path, err)
	}
	if !li.Mode().IsRegular() || !os.SameFile(fi, li) {
		return fmt.Errorf("lock %s: not a regular file (a link or a directory): remove it, or choose another file", path)
	}
	if fi.Size() == 0 {
		return nil
	}
	b := make([]byte, 32)
	n, _ := f.ReadAt(b, 0)
	if fi.Size() > 32 || pidIn(b[:n]) == 0 {
		return fmt.Errorf("lock %s: the file exists and is not a lock file (it holds something else): remove it, or choose another file", path)
	}
	return nil
}

// samePath reports whether f is still the file at path.
func samePath(f *os.File, path string) bool {
	fi, ferr := f.Stat()
	pi, perr := os.Lstat(path)
	return ferr == nil && perr == nil && os.SameFile(fi, pi)
}

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
		f.Close()
		if errors.Is(err, errWouldBlock) {
			return nil, fmt.Errorf("%s is %w%s, which holds %s: wait for it to finish or use another directory", dir, ErrBusy, holder(path, exclusive), path)
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
	return &Lock{f: f, exclusive: exclusive}, nil
}

// holder describes who holds the lock of path that was just refused: " (pid
// N)" when a writer holds it, the pid that writer wrote, "" when the
// holder is not known. The file keeps the last writer's pid after it has
// gone, so a refused writer's lock may be held by readers only (merge
// reading the directory), which write no pid: the pid is named only when a
// reader's lock is refused too, that is when a writer holds the lock.
func holder(path string, refusedExclusive bool) string {
	if refusedExclusive {
		f, err := os.Open(path)
		if err != nil {
			return ""
		}
		readers := flock(f, false) == nil
		f.Close()
		if readers {
			return " (reading it)"
		}
	}
	b, err := safefile.Read(nil, path, 64)
	if err != nil {
		return ""
	}
	if pid := pidIn(b); pid > 0 {
		return fmt.Sprintf(" (pid %d)", pid)
	}
	return ""
}

// pidIn returns the process id a lock file holds (a writer writes its
// own), or 0 when it holds none.
func pidIn(b []byte) int {
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// Unlock releases the lock (closing its file releases the flock). A
// writer clears its pid first, so that the file names no process that
// no longer holds the lock.
func (l *Lock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	removed := true
	if l.remove != "" && samePath(l.f, l.remove) {
		// Removed while held: a process that opened it before is told
		// by File's check that it is no longer the lock. (Where an open
		// file cannot be removed, it is removed once closed, below.)
		removed = os.Remove(l.remove) == nil
	} else if l.exclusive {
		l.f.Truncate(0)
	}
	err := l.f.Close()
	if !removed {
		os.Remove(l.remove)
	}
	l.f = nil
	return err
}

// CheckFresh returns an error when dir, a campaign directory without its
// identity file, holds anything but the lock: such a directory is either a
// campaign whose identity was lost (its records cannot be checked against
// a new run) or a directory of other files, and neither may be taken for a
// new campaign. what names the identity file in the message.
func CheckFresh(dir, what string) error {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("campaign directory: %w", err)
	}
	var names []string
	for _, e := range ents {
		if e.Name() != Name {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil
	}
	return fmt.Errorf("%s has no %s but holds %s: a campaign directory without its identity is damaged (its records cannot be checked against this run), and a directory of other files is not a campaign's; use a new or empty --out directory", dir, what, strings.Join(names[:min(3, len(names))], ", "))
}
