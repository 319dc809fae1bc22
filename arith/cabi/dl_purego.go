//go:build (linux || darwin || freebsd || netbsd) && (amd64 || arm64) && !fprlab_noplugins

package cabi

import (
	"runtime"
	"sync"

	"github.com/ebitengine/purego"
)

// loadLibm puts the C math library in the process's global symbol scope
// (once, on Linux, where it is a library of its own): a plugin built
// without -lm -- "gcc -shared -fPIC -o libdouble.so double.c" -- then
// finds sqrt, as a C program linked by the compiler driver would. A
// program built without cgo has only the C library loaded.
var loadLibm = sync.OnceFunc(func() {
	if runtime.GOOS == "linux" {
		// Failure is not an error: the plugin's own dlopen then reports
		// the symbol it cannot resolve.
		_, _ = purego.Dlopen("libm.so.6", purego.RTLD_NOW|purego.RTLD_GLOBAL)
	}
})

// dlopen opens the library at path, resolving every symbol now (a missing
// dependency fails here, not at the first call) and keeping its symbols
// to itself.
func dlopen(path string) (uintptr, error) {
	loadLibm()
	return purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_LOCAL)
}

func dlsym(h uintptr, name string) (uintptr, error) { return purego.Dlsym(h, name) }

// syscall calls the C function fn with integer or pointer arguments and
// returns its integer result.
func syscall(fn uintptr, args []uintptr) uintptr {
	r, _, _ := purego.SyscallN(fn, args...)
	return r
}
