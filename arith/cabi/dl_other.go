//go:build !((linux || darwin || freebsd || netbsd) && (amd64 || arm64)) || fprlab_noplugins

package cabi

import (
	"errors"
	"runtime"
)

// errUnsupported: purego has no dlopen for this platform, or the build
// left plugins out (-tags fprlab_noplugins: a static binary without libc).
var errUnsupported = errors.New("arithmetic plugins are not supported by this build (" + runtime.GOOS + "/" + runtime.GOARCH + ", or built with -tags fprlab_noplugins)")

func dlopen(string) (uintptr, error)         { return 0, errUnsupported }
func dlsym(uintptr, string) (uintptr, error) { return 0, errUnsupported }
func syscall(uintptr, []uintptr) uintptr     { panic(errUnsupported) }
