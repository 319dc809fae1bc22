package cabi_test

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/fprlab/fprlab/internal/plugintest"
)

// doubleLib is examples/double.c built as a shared library, for ExampleOpen.
// An Example has no *testing.T to skip with, so TestMain builds it first
// and, where plugin tests skip (no C compiler outside CI), leaves the
// Example out with -test.skip; under CI=true a missing compiler fails.
var doubleLib string

func TestMain(m *testing.M) {
	p, err := plugintest.Path("../../examples/double.c")
	switch {
	case err == nil:
		doubleLib = p
	case plugintest.Skippable(err):
		flag.Parse()
		skip := "^ExampleOpen$"
		if s := flag.Lookup("test.skip").Value.String(); s != "" {
			skip = s + "|" + skip
		}
		flag.Set("test.skip", skip)
		fmt.Fprintln(os.Stderr, "ExampleOpen skipped:", err)
	default:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	plugintest.Cleanup()
	os.Exit(code)
}

// plugin builds the plugin source src (relative to this package).
func plugin(t testing.TB, src string) string { return plugintest.Build(t, src) }
