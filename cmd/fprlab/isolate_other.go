//go:build !unix

package main

import (
	"os"

	"github.com/fprlab/fprlab/internal/cli"
)

// Without Unix processes and signals plugins are not isolated; no such
// system loads them either (arith/cabi's dl_other.go).

func workerMain([]string) int                                     { return cli.ExitUsage }
func supervise(args []string, stdin, stdout, stderr *os.File) int { return cli.ExitUsage }
