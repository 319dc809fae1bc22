//go:build !((linux || darwin || freebsd || netbsd) && (amd64 || arm64))

package cabi

import (
	"errors"
	"runtime"
)

var errUnsupported = errors.New("arithmetic plugins are not supported on " + runtime.GOOS + "/" + runtime.GOARCH)

func dlopen(string) (uintptr, error)         { return 0, errUnsupported }
func dlsym(uintptr, string) (uintptr, error) { return 0, errUnsupported }
func syscall(uintptr, []uintptr) uintptr     { panic(errUnsupported) }
