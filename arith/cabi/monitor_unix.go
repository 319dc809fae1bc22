//go:build unix

package cabi

import (
	"os"
	sc "syscall"
	"unsafe"
)

// mapShared maps the first n bytes of f, shared: writes reach the file's
// pages, which the supervisor reads.
func mapShared(f *os.File, n int) ([]byte, error) {
	return sc.Mmap(int(f.Fd()), 0, n, sc.PROT_READ|sc.PROT_WRITE, sc.MAP_SHARED)
}

// guardedWords returns n words of memory outside the Go heap that end
// where an inaccessible page begins, and a function that unmaps them: a
// plugin running far past an array fprlab handed it faults at once
// instead of overwriting whatever the heap holds next (the guard word
// at the end of the array catches a short overrun). Nil when the memory
// cannot be mapped; the caller then allocates on the heap.
func guardedWords(n int) ([]uint64, func()) {
	page := os.Getpagesize()
	size := (8*n + page - 1) / page * page
	b, err := sc.Mmap(-1, 0, size+page, sc.PROT_READ|sc.PROT_WRITE, sc.MAP_ANON|sc.MAP_PRIVATE)
	if err != nil {
		return nil, nil
	}
	if sc.Mprotect(b[size:], sc.PROT_NONE) != nil {
		sc.Munmap(b)
		return nil, nil
	}
	w := unsafe.Slice((*uint64)(unsafe.Pointer(&b[size-8*n])), n)
	return w, func() { sc.Munmap(b) }
}
