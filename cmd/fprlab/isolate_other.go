//go:build !unix

package main

import "os"

// Without Unix processes and signals plugins are not isolated; no such
// system loads them either (arith/cabi's dl_other.go).

func workerMain([]string) int                                     { return exitUsage }
func supervise(args []string, stdin, stdout, stderr *os.File) int { return exitUsage }
