// Command fprlab runs Falcon over interchangeable floating-point arithmetics
// and measures each against an exact oracle.
package main

import (
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
