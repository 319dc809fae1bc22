//go:build !unix

package isolate

import (
	"errors"
	"os"
)

// Without Unix processes and signals plugins are not isolated; no such
// system loads them either (arith/cabi's dl_other.go).

var errNoWorkers = errors.New("plugin workers need a Unix system")

func IsWorker() bool                      { return false }
func Needed([]string) bool                { return false }
func PluginNames([]string) []string       { return nil }
func Attach() (*os.File, *os.File, error) { return nil, nil, errNoWorkers }
func Supervise(args []string, stdin, stdout, stderr *os.File) (Outcome, error) {
	return Outcome{}, errNoWorkers
}
